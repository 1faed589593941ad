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

    /// Byte-level parsing: label files are ASCII, and walking Characters (grapheme breaking) or
    /// making a String per field made reading vins-ui's 40,670 lines several times slower.
    static func parse(bytes: ArraySlice<UInt8>) -> Result<YOLOLabelLine, LabelLineError> {
        bytes.withUnsafeBufferPointer { parse(line: $0) }
    }

    static func parse(line: UnsafeBufferPointer<UInt8>) -> Result<YOLOLabelLine, LabelLineError> {
        let fieldCount = fieldRanges(line)
        guard fieldCount == 5 || (fieldCount >= 7 && fieldCount % 2 == 1) else {
            return .failure(.wrongFieldCount(fieldCount))
        }
        var classIndex = 0
        var numbers = [Double]()
        numbers.reserveCapacity(fieldCount - 1)
        var failure: LabelLineError?
        fieldRanges(line) { position, range in
            let field = UnsafeBufferPointer(rebasing: line[range])
            if position == 0 {
                guard let value = integer(field) else { failure = .classNotAnInteger(text(field)); return false }
                guard value >= 0 else { failure = .negativeClass(value); return false }
                classIndex = value
                return true
            }
            guard let value = number(field) else { failure = .notANumber(field: position + 1, text: text(field)); return false }
            guard value.isFinite else { failure = .notFinite(field: position + 1, text: text(field)); return false }
            numbers.append(value)
            return true
        }
        if let failure { return .failure(failure) }
        if numbers.count == 4 {
            return .success(.box(classIndex: classIndex, centerX: numbers[0], centerY: numbers[1], width: numbers[2], height: numbers[3]))
        }
        let points = stride(from: 0, to: numbers.count, by: 2).map { (x: numbers[$0], y: numbers[$0 + 1]) }
        return .success(.polygon(classIndex: classIndex, points: points))
    }

    /// Calls `body` with each field's position and byte range until it returns false; returns the field count.
    @discardableResult
    static func fieldRanges(_ line: UnsafeBufferPointer<UInt8>, _ body: (Int, Range<Int>) -> Bool = { _, _ in true }) -> Int {
        var position = 0, start = -1
        for i in 0...line.count {
            let separator = i == line.count || line[i] == 32 || line[i] == 9 || line[i] == 13  // end, space, tab, CR
            if separator, start >= 0 {
                guard body(position, start..<i) else { return position + 1 }
                position += 1
                start = -1
            } else if !separator, start < 0 {
                start = i
            }
        }
        return position
    }

    /// Optional sign and decimal digits, as `Int(String)` accepts.
    static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0, negative = false
        if field.count > 1, field[0] == 45 || field[0] == 43 { negative = field[0] == 45; i = 1 }  // - +
        guard i < field.count else { return nil }
        var value = 0
        while i < field.count {
            let digit = Int(field[i]) - 48
            guard (0...9).contains(digit) else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            value = sum
            i += 1
        }
        return negative ? -value : value
    }

    /// `strtod` on a NUL-terminated stack copy (C locale: '.' decimal point); the whole field must be consumed.
    static func number(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
        guard field.count < 64 else { return Double(text(field)) }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double? in
            for i in 0..<field.count { buffer[i] = CChar(bitPattern: field[i]) }
            buffer[field.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard let end, end - buffer.baseAddress! == field.count, field.count > 0 else { return nil }
            return value
        }
    }

    static func text(_ field: UnsafeBufferPointer<UInt8>) -> String { String(decoding: field, as: UTF8.self) }

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

    /// Relative coordinates beyond this are not a box on the image but a broken value (a `1e308`
    /// box was written as a 300-digit number): the writer refuses them.
    public static let maximumRelativeValue = 1000.0

    /// `format`, refusing what would write `inf`, NaN or absurd numbers: a zero-size image or a
    /// box far outside it. `place` names the box in the error.
    public static func checkedFormat(classIndex: Int, box: BoundingBox, imageWidth: Int, imageHeight: Int, place: String) throws -> String {
        guard imageWidth > 0, imageHeight > 0 else {
            throw DatasetError.unreadable(file: place, line: nil,
                                          reason: "the image is \(imageWidth)x\(imageHeight); YOLO coordinates are relative to the image size, which must be positive: fix the image's width and height")
        }
        let values = [box.centerX / Double(imageWidth), box.centerY / Double(imageHeight), box.width / Double(imageWidth), box.height / Double(imageHeight)]
        guard values.allSatisfy({ $0.isFinite && abs($0) <= maximumRelativeValue }) else {
            throw DatasetError.unreadable(file: place, line: nil,
                                          reason: "box [x \(box.x), y \(box.y), w \(box.width), h \(box.height)] is not a box on the \(imageWidth)x\(imageHeight) image (relative values beyond ±\(Int(maximumRelativeValue))); fix or remove it")
        }
        return format(classIndex: classIndex, box: box, imageWidth: imageWidth, imageHeight: imageHeight)
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
