import Foundation

/// One line of a YOLO label file.
///
/// Format (ultralytics): `class cx cy w h`, all but the class relative to the image size,
/// separated by spaces or tabs. Segmentation exports (Roboflow mixes them in) write
/// `class x1 y1 x2 y2 ... xn yn` instead; like ultralytics' `segments2boxes` such a polygon
/// becomes its enclosing box. Blank lines are skipped by the reader.
public enum YOLOLabelLine: Equatable {
    case box(classIndex: Int, centerX: Double, centerY: Double, width: Double, height: Double)
    case polygon(classIndex: Int, points: [(x: Double, y: Double)])

    public static func == (a: YOLOLabelLine, b: YOLOLabelLine) -> Bool {
        switch (a, b) {
        case let (.box(c1, x1, y1, w1, h1), .box(c2, x2, y2, w2, h2)):
            return c1 == c2 && x1 == x2 && y1 == y2 && w1 == w2 && h1 == h2
        case let (.polygon(c1, p1), .polygon(c2, p2)):
            return c1 == c2 && p1.count == p2.count && zip(p1, p2).allSatisfy { $0.x == $1.x && $0.y == $1.y }
        default:
            return false
        }
    }

    public var classIndex: Int {
        switch self {
        case let .box(classIndex, _, _, _, _), let .polygon(classIndex, _): return classIndex
        }
    }

    /// Parses one non-blank line; the error message says what is wrong and how a good line looks.
    public static func parse(_ line: Substring) -> Result<YOLOLabelLine, LabelLineError> {
        parse(bytes: Array(line.utf8)[...])
    }

    /// Byte-level parsing: label files are ASCII, and walking Characters (grapheme breaking)
    /// made reading vins-ui's 40,670 lines several times slower.
    static func parse(bytes: ArraySlice<UInt8>) -> Result<YOLOLabelLine, LabelLineError> {
        var fields: [String] = []
        fields.reserveCapacity(5)
        var start: Int?
        for i in bytes.indices {
            let separator = bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 13  // space, tab, CR
            if separator, let s = start {
                fields.append(String(decoding: bytes[s..<i], as: UTF8.self))
                start = nil
            } else if !separator, start == nil {
                start = i
            }
        }
        if let s = start { fields.append(String(decoding: bytes[s...], as: UTF8.self)) }
        guard fields.count == 5 || (fields.count >= 7 && fields.count % 2 == 1) else {
            return .failure(.wrongFieldCount(fields.count))
        }
        guard let classIndex = Int(fields[0]) else { return .failure(.classNotAnInteger(fields[0])) }
        guard classIndex >= 0 else { return .failure(.negativeClass(classIndex)) }
        var numbers = [Double]()
        numbers.reserveCapacity(fields.count - 1)
        for position in 1..<fields.count {
            let field = fields[position]
            guard let value = Double(field) else { return .failure(.notANumber(field: position + 1, text: field)) }
            guard value.isFinite else { return .failure(.notFinite(field: position + 1, text: field)) }
            numbers.append(value)
        }
        if numbers.count == 4 {
            return .success(.box(classIndex: classIndex, centerX: numbers[0], centerY: numbers[1], width: numbers[2], height: numbers[3]))
        }
        let points = stride(from: 0, to: numbers.count, by: 2).map { (x: numbers[$0], y: numbers[$0 + 1]) }
        return .success(.polygon(classIndex: classIndex, points: points))
    }

    /// The box in pixels for an image of the given size.
    public func box(imageWidth: Int, imageHeight: Int) -> BoundingBox {
        let w = Double(imageWidth), h = Double(imageHeight)
        switch self {
        case let .box(_, cx, cy, bw, bh):
            return BoundingBox(x: (cx - bw / 2) * w, y: (cy - bh / 2) * h, width: bw * w, height: bh * h)
        case let .polygon(_, points):
            let xs = points.map(\.x), ys = points.map(\.y)
            // Non-empty by construction (at least 3 points).
            return BoundingBox(minX: xs.min()! * w, minY: ys.min()! * h, maxX: xs.max()! * w, maxY: ys.max()! * h)
        }
    }

    /// The line for a pixel box; enough digits that reading it back reproduces the box to
    /// about 1e-9 of the image size.
    public static func format(classIndex: Int, box: BoundingBox, imageWidth: Int, imageHeight: Int) -> String {
        let w = Double(imageWidth), h = Double(imageHeight)
        let values = [box.centerX / w, box.centerY / h, box.width / w, box.height / h]
        return ([String(classIndex)] + values.map(formatNumber)).joined(separator: " ")
    }

    /// Fixed notation (no exponent, which some YOLO tools do not parse), trailing zeros trimmed.
    static func formatNumber(_ value: Double) -> String {
        var text = String(format: "%.12f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

public enum LabelLineError: Error, Equatable, CustomStringConvertible {
    case wrongFieldCount(Int)
    case classNotAnInteger(String)
    case negativeClass(Int)
    case notANumber(field: Int, text: String)
    case notFinite(field: Int, text: String)

    public var description: String {
        let expected = "expected `class cx cy w h` (5 fields) or a polygon `class x1 y1 ... xn yn` (n ≥ 3)"
        switch self {
        case let .wrongFieldCount(n): return "\(n) fields; \(expected)"
        case let .classNotAnInteger(text): return "class '\(text)' is not an integer; \(expected)"
        case let .negativeClass(n): return "class \(n) is negative"
        case let .notANumber(field, text): return "field \(field) '\(text)' is not a number"
        case let .notFinite(field, text): return "field \(field) is '\(text)'; coordinates must be finite numbers"
        }
    }
}
