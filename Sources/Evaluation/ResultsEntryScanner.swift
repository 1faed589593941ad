import Foundation

/// The fast path for COCO results files. A results file is hundreds of thousands of small
/// objects; building a `JSONValue` tree (a dictionary and strings per entry) took most of the
/// time of `screenlab evaluate`. This reads the four keys of a plain entry straight from the
/// bytes. Anything it does not expect (escapes, other types, NaN, syntax errors) makes it
/// return nil, and the caller reads that entry with the general parser, so errors and edge
/// cases come out exactly as before.
struct ResultsEntry {
    var imageID: JSONValue
    var categoryID: JSONValue
    var box: BoundingBoxValues
    var score: Double

    struct BoundingBoxValues { var x, y, width, height: Double }

    /// The checks `COCOResultsReader.decode` makes after resolving ids; entries failing them
    /// take the general path so their error reads the same.
    var isValid: Bool {
        box.x.isFinite && box.y.isFinite && box.width.isFinite && box.height.isFinite
            && box.width >= 0 && box.height >= 0 && score.isFinite
    }
}

extension JSONValue.Parser {
    /// One `{"image_id", "category_id", "bbox", "score", ...}` object at `position`, or nil
    /// (with `position` wherever it stopped: the caller rewinds).
    mutating func resultsEntry() -> ResultsEntry? {
        guard peek == UInt8(ascii: "{") else { return nil }
        position += 1
        var imageID: JSONValue?, categoryID: JSONValue?, box: ResultsEntry.BoundingBoxValues?, score: Double?
        while true {
            skipWhitespace()
            guard let key = plainStringBytes() else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return nil }
            position += 1
            skipWhitespace()
            if key.elementsEqual(Self.imageIDKey) {
                guard let id = idValue() else { return nil }
                imageID = id
            } else if key.elementsEqual(Self.categoryIDKey) {
                guard let id = idValue() else { return nil }
                categoryID = id
            } else if key.elementsEqual(Self.bboxKey) {
                guard let values = fourNumbers() else { return nil }
                box = values
            } else if key.elementsEqual(Self.scoreKey) {
                guard let value = plainNumber() else { return nil }
                score = value
            } else {
                guard (try? value(depth: 2)) != nil else { return nil }  // "id", "area", "segmentation", …
            }
            skipWhitespace()
            if peek == UInt8(ascii: ",") { position += 1; continue }
            guard peek == UInt8(ascii: "}") else { return nil }
            position += 1
            break
        }
        guard let imageID, let categoryID, let box, let score else { return nil }
        return ResultsEntry(imageID: imageID, categoryID: categoryID, box: box, score: score)
    }

    static let imageIDKey = Array("image_id".utf8), categoryIDKey = Array("category_id".utf8)
    static let bboxKey = Array("bbox".utf8), scoreKey = Array("score".utf8)

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// The bytes of a string without escapes (nil otherwise).
    mutating func plainStringBytes() -> ArraySlice<UInt8>? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { position = end + 1; return bytes[start..<end] }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    mutating func idValue() -> JSONValue? {
        if let text = plainStringBytes() { return .string(String(decoding: text, as: UTF8.self)) }
        return plainNumber().map(JSONValue.number)
    }

    mutating func fourNumbers() -> ResultsEntry.BoundingBoxValues? {
        guard peek == UInt8(ascii: "[") else { return nil }
        position += 1
        var values = (0.0, 0.0, 0.0, 0.0)
        for i in 0..<4 {
            skipWhitespace()
            guard let value = plainNumber() else { return nil }
            switch i { case 0: values.0 = value; case 1: values.1 = value; case 2: values.2 = value; default: values.3 = value }
            skipWhitespace()
            guard peek == UInt8(ascii: i < 3 ? "," : "]") else { return nil }
            position += 1
        }
        return .init(x: values.0, y: values.1, width: values.2, height: values.3)
    }

    /// A number in the bytes `number()` accepts, converted with C `strtod` (correctly rounded,
    /// the same as `Double(String)`) without making a String; nil for NaN/Infinity or anything odd.
    mutating func plainNumber() -> Double? {
        let start = position
        var end = start
        while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
        let length = end - start
        guard length > 0, length < 64, bytes[start] != UInt8(ascii: "+"), bytes[start] != UInt8(ascii: ".") else { return nil }
        let parsed: Double? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            for i in 0..<length { buffer[i] = CChar(bitPattern: bytes[start + i]) }
            buffer[length] = 0
            var stop: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &stop)
            return stop == buffer.baseAddress! + length ? value : nil
        }
        guard let parsed else { return nil }
        position = end
        return parsed
    }
}
