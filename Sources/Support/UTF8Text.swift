/// Strict UTF-8 decoding for text inputs: `String(decoding:)` would silently turn bad bytes
/// into U+FFFD, and `String(data:encoding:)` fails without saying where.
public enum UTF8Text {
    /// The text, without a leading byte-order mark (Windows editors write one); throws
    /// `FileReadError.notUTF8` with the offset of the first byte that is not valid UTF-8.
    public static func decode(_ bytes: [UInt8], path: String) throws -> String {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var iterator = bytes[start...].makeIterator()
        var decoder = UTF8()
        var consumed = start
        var offsetOfScalar = start
        loop: while true {
            offsetOfScalar = consumed
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): consumed += UTF8.width(scalar)
            case .emptyInput: break loop
            case .error: throw FileReadError(path: path, kind: .notUTF8(byteOffset: offsetOfScalar))
            }
        }
        return String(decoding: bytes[start...], as: UTF8.self)
    }
}
