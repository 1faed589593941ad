import Support

/// Everything that can be wrong with a weights file, a safetensors file, a model config or a
/// thresholds file. Each case names the file and says what was found and what to do; loading
/// stops at the first problem.
public enum WeightsError: Error, Equatable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case badMagic(file: String, found: [UInt8])
    /// The file ends at `fileSize` but `what` needs bytes up to `needed`.
    case truncated(file: String, fileSize: Int, needed: UInt64, what: String)
    case trailingBytes(file: String, fileSize: Int, declared: UInt64)
    case newerMajorVersion(file: String, found: FormatVersion, supported: FormatVersion)
    case unsupportedVersion(file: String, found: FormatVersion)
    case preambleChecksumMismatch(file: String, stored: UInt32, computed: UInt32)
    case metadataChecksumMismatch(file: String, stored: UInt32, computed: UInt32)
    case invalidLayout(file: String, reason: String)
    case invalidHeader(file: String, key: String, reason: String)
    case invalidTensorEntry(file: String, index: Int, tensor: String?, reason: String)
    case tensorOutOfBounds(file: String, tensor: String, offset: UInt64, byteLength: UInt64, fileSize: Int)
    case unalignedTensor(file: String, tensor: String, offset: UInt64)
    case overlappingTensors(file: String, first: String, second: String)
    case byteLengthMismatch(file: String, tensor: String, shape: [Int], byteLength: UInt64, expected: UInt64)
    case checksumMismatch(file: String, tensor: String, stored: UInt32, computed: UInt32)
    case duplicateTensor(file: String, tensor: String)
    case shapeMismatch(file: String, tensor: String, expected: [Int], found: [Int])
    case missingTensors(file: String, names: [String])
    case unexpectedTensors(file: String, names: [String])
    case invalidSafetensors(file: String, reason: String)
    case invalidConfig(file: String, key: String, reason: String)
    case invalidThresholds(file: String, key: String, reason: String)
    case invalidContent(file: String, reason: String)
    /// A NaN or infinite value: a model that diverged in training, or a damaged file.
    case nonFiniteTensor(file: String, tensor: String, index: Int, value: Float)

    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            return "\(file): cannot read: \(reason)"
        case let .badMagic(file, found):
            let hex = found.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
            let start = "first bytes \(hex), expected \"SLWT\\r\\n\\x1A\\n\""
            if let kind = FileSignature.kind(of: found) { return "\(file): this is \(kind), not a ScreenLab weights file (\(start))" }
            return "\(file): not a ScreenLab weights file (\(start)); for a safetensors file use `screenlab weights import --safetensors`"
        case let .truncated(file, fileSize, needed, what):
            return "\(file): truncated at byte \(fileSize): the \(what) needs \(needed) bytes; the copy is incomplete, copy the file again"
        case let .trailingBytes(file, fileSize, declared):
            return "\(file): \(fileSize) bytes but the file declares \(declared): \(UInt64(fileSize) &- declared) extra bytes were appended"
        case let .newerMajorVersion(file, found, supported):
            return "\(file): weights format \(found) is newer than this ScreenLab reads (format \(supported)); "
                + "a major version change is not backward compatible: update ScreenLab to read it"
        case let .unsupportedVersion(file, found):
            return "\(file): weights format \(found) is not a valid version (major versions start at 1)"
        case let .preambleChecksumMismatch(file, stored, computed):
            return "\(file): the 64-byte preamble is corrupt (checksum \(hex(stored)) stored, \(hex(computed)) computed)"
        case let .metadataChecksumMismatch(file, stored, computed):
            return "\(file): the header or tensor table is corrupt (checksum \(hex(stored)) stored, \(hex(computed)) computed)"
        case let .invalidLayout(file, reason):
            return "\(file): invalid layout: \(reason)"
        case let .invalidHeader(file, key, reason):
            return "\(file): header field \"\(key)\": \(reason)"
        case let .invalidTensorEntry(file, index, tensor, reason):
            return "\(file): tensor table entry \(index)\(tensor.map { " (\($0))" } ?? ""): \(reason)"
        case let .tensorOutOfBounds(file, tensor, offset, byteLength, fileSize):
            return "\(file): tensor \(tensor) claims bytes \(offset)..<\(offset &+ byteLength) (\(byteLength) bytes) but the file has \(fileSize) bytes"
        case let .unalignedTensor(file, tensor, offset):
            return "\(file): tensor \(tensor) starts at byte \(offset), which is not a multiple of 64"
        case let .overlappingTensors(file, first, second):
            return "\(file): the data of tensors \(first) and \(second) overlap"
        case let .byteLengthMismatch(file, tensor, shape, byteLength, expected):
            return "\(file): tensor \(tensor) has shape \(shape) (\(expected) bytes of float32) but its entry says \(byteLength) bytes"
        case let .checksumMismatch(file, tensor, stored, computed):
            return "\(file): checksum mismatch on tensor \(tensor) (\(hex(stored)) stored, \(hex(computed)) computed): its data is corrupt"
        case let .duplicateTensor(file, tensor):
            return "\(file): tensor \(tensor) appears twice"
        case let .shapeMismatch(file, tensor, expected, found):
            return "\(file): shape of \(tensor) does not match the model: expected \(expected), found \(found)"
        case let .missingTensors(file, names):
            return "\(file): \(names.count) tensor(s) the model needs are missing: \(listed(names)); was it trained for another architecture?"
        case let .unexpectedTensors(file, names):
            return "\(file): \(names.count) tensor(s) the model does not have: \(listed(names)); was it trained for another architecture?"
        case let .invalidSafetensors(file, reason):
            return "\(file): not a valid safetensors file: \(reason)"
        case let .invalidConfig(file, key, reason):
            return "\(file): model config key \"\(key)\": \(reason)"
        case let .invalidThresholds(file, key, reason):
            return "\(file): \(key): \(reason)"
        case let .invalidContent(file, reason):
            return "\(file): cannot write: \(reason)"
        case let .nonFiniteTensor(file, tensor, index, value):
            return "\(file): tensor \(tensor) holds \(value) at element \(index); weights must be finite numbers "
                + "(did training diverge?): use an earlier checkpoint or retrain"
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

/// Up to five names, then how many more.
func listed(_ names: [String]) -> String {
    let shown = names.prefix(5).joined(separator: ", ")
    return names.count > 5 ? shown + ", … (\(names.count - 5) more)" : shown
}

extension WeightsError {
    /// Runs a file read, reporting Support's `FileReadError` as `.unreadable` with the same
    /// file name (as given) and words.
    static func readingFile<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as FileReadError {
            throw WeightsError.unreadable(file: error.path, reason: error.reason)
        }
    }
}
