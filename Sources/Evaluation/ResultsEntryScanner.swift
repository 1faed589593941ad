import Support

/// The fast path for COCO results files. A results file is hundreds of thousands of small
/// objects; building a `JSONValue` tree for each entry (an array of members, an array for the
/// box, a String per key) and then looking keys up costs about twice as much as reading the
/// four keys of a plain entry straight from the bytes. Anything it does not expect (escapes,
/// other types, NaN, syntax errors) makes it return nil, and the caller reads that entry with
/// the general parser, so errors and edge cases come out exactly as there. Numbers go through
/// the parser's own number routine, so both paths give the same values.
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

extension JSONParser {
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
            if key.elementsEqual("image_id".utf8) {
                guard let id = idValue() else { return nil }
                imageID = id
            } else if key.elementsEqual("category_id".utf8) {
                guard let id = idValue() else { return nil }
                categoryID = id
            } else if key.elementsEqual("bbox".utf8) {
                guard let values = fourNumbers() else { return nil }
                box = values
            } else if key.elementsEqual("score".utf8) {
                guard let value = plainNumber() else { return nil }
                score = value
            } else {
                guard (try? parseValue(depth: 2)) != nil else { return nil }  // "id", "area", "segmentation", …
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

    /// The bytes of a string without escapes (nil otherwise).
    private mutating func plainStringBytes() -> UnsafeBufferPointer<UInt8>? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { position = end + 1; return UnsafeBufferPointer(rebasing: bytes[start..<end]) }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    private mutating func idValue() -> JSONValue? {
        if peek == UInt8(ascii: "\"") { return plainStringBytes().flatMap { String(validating: $0, as: UTF8.self) }.map(JSONValue.string) }
        return atNumber ? try? parseNumber() : nil
    }

    private mutating func fourNumbers() -> ResultsEntry.BoundingBoxValues? {
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

    /// A number (integer or not) as a Double; nil for anything else. Only bytes that start a
    /// number reach `parseNumber`, so a refusal never builds an error (which scans for its line).
    private mutating func plainNumber() -> Double? {
        atNumber ? (try? parseNumber())?.doubleValue : nil
    }

    private var atNumber: Bool {
        guard let first = peek else { return false }
        return first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    }
}
