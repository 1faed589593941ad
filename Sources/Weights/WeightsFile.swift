import Foundation
import Support
import Tensor

/// A detector's weights with everything needed to use them: one `.slw` file (FORMAT.md).
///
/// Tensors keep the model's order (`namedParameters()` then `namedBuffers()`), named with
/// dotted paths such as `backbone.stage4.2.pointwise.weight`.
public struct WeightsFile {
    public var header: WeightsHeader
    public var tensors: [(name: String, tensor: Tensor)]
    /// Tensors stored as float16 (format 1.2): their values are exactly float16 values, which
    /// `storingFloat16()` makes them; the others are stored as float32. Reading a file fills it.
    public var float16Tensors: Set<String> = []
    /// Set when read from a file: its version and tensor table, for `weights inspect`.
    public internal(set) var layout: WeightsLayout?

    public init(header: WeightsHeader, tensors: [(name: String, tensor: Tensor)]) {
        self.header = header
        self.tensors = tensors
    }

    /// Tensors by name, for `Module.load(state:)`.
    public var state: [String: Tensor] {
        Dictionary(tensors.map { ($0.name, $0.tensor) }, uniquingKeysWith: { first, _ in first })
    }

    public func tensor(named name: String) -> Tensor? { tensors.first { $0.name == name }?.tensor }

    public var elementCount: Int { tensors.reduce(0) { $0 + $1.tensor.count } }

    /// How a tensor is stored in the file.
    public func dtype(of name: String) -> TensorDType { float16Tensors.contains(name) ? .float16 : .float32 }

    /// Bytes of tensor data (without padding) as stored.
    public var dataByteCount: Int { tensors.reduce(0) { $0 + $1.tensor.count * dtype(of: $1.name).byteWidth } }

    /// The oldest format version that holds the header's fields and the tensors' types.
    public var minimumFormatVersion: FormatVersion {
        Swift.max(header.minimumFormatVersion, tensors.contains { float16Tensors.contains($0.name) } ? .v1_2 : .v1_0)
    }

    /// Checks the tensors against a model's `name → shape`, reporting the first problem:
    /// missing tensors, then tensors the model does not have, then the first wrong shape in
    /// file order.
    public func validate(expectedShapes: [String: [Int]], file: String) throws {
        let present = Set(tensors.map(\.name))
        let missing = expectedShapes.keys.filter { !present.contains($0) }.sorted()
        guard missing.isEmpty else { throw WeightsError.missingTensors(file: file, names: missing) }
        let unexpected = tensors.map(\.name).filter { expectedShapes[$0] == nil }
        guard unexpected.isEmpty else { throw WeightsError.unexpectedTensors(file: file, names: unexpected) }
        for (name, tensor) in tensors {
            if let expected = expectedShapes[name], expected != tensor.shape {
                throw WeightsError.shapeMismatch(file: file, tensor: name, expected: expected, found: tensor.shape)
            }
        }
    }
}

/// How a file was laid out on disk (what `weights inspect` prints besides the header).
public struct WeightsLayout: Equatable, Sendable {
    public var version: FormatVersion
    public var fileSize: Int
    public var headerByteCount: Int
    public var dataOffset: UInt64
    public var entries: [TensorEntry]
}

/// One row of the tensor table.
public struct TensorEntry: Equatable, Sendable {
    public var name: String
    public var dtype: TensorDType
    public var shape: [Int]
    /// Absolute byte offset of the data in the file (a multiple of 64).
    public var offset: UInt64
    public var byteLength: UInt64
    /// CRC-32 of the data bytes.
    public var checksum: UInt32
}

/// Element types of the tensor table; the code is a byte so later minor versions can add types
/// (a reader refuses codes it does not know).
public enum TensorDType: UInt8, Sendable, CustomStringConvertible {
    case float32 = 1
    /// IEEE 754 binary16, from format 1.2.
    case float16 = 2

    public var byteWidth: Int { self == .float32 ? 4 : 2 }
    public var description: String { self == .float32 ? "F32" : "F16" }
    /// The format version that introduced the type.
    public var since: FormatVersion { self == .float32 ? .v1_0 : .v1_2 }
}

extension WeightsFile {
    /// Reads and fully checks a weights file. The 64-byte preamble is read and checked first
    /// (magic, version, checksum, declared length against the real size), so a file that is
    /// not weights, or is truncated, is refused without reading it; then the rest in one read,
    /// every offset and length checked against the file size before use, every checksum
    /// verified. (Not memory-mapped: a file truncated in place by another program while mapped
    /// would kill the process with SIGBUS; reading 5 MB costs about a millisecond.) Errors
    /// name the file as given (`url.relativePath`).
    public static func read(contentsOf url: URL, readerVersion: FormatVersion = .current) throws -> WeightsFile {
        try WeightsError.readingFile {
            let file = try ReadableFile(url)
            let preamble = try file.read(offset: 0, count: WeightsFormat.preambleSize)
            _ = try preamble.withUnsafeBytes {
                try WeightsFormat.decodePreamble($0, fileSize: file.size, file: file.name, readerVersion: readerVersion)
            }
            let bytes = try file.readAll(after: preamble)
            return try bytes.withUnsafeBytes { try WeightsFormat.decode($0, file: file.name, readerVersion: readerVersion) }
        }
    }

    /// Reads a file and checks it against the model's tensor names and shapes, and that every
    /// value is finite.
    public static func load(contentsOf url: URL, expectedShapes: [String: [Int]]) throws -> WeightsFile {
        let weights = try read(contentsOf: url)
        try weights.validate(expectedShapes: expectedShapes, file: url.relativePath)
        try weights.checkFinite(file: url.relativePath)
        return weights
    }

    /// Writes the file atomically (temporary file, fsync, rename), in the oldest format
    /// version that holds its header and tensor types so older ScreenLabs can read it.
    /// `notReplacing`: the command's inputs, which the output must not overwrite.
    public func write(to url: URL, notReplacing inputs: [URL] = []) throws {
        try AtomicFile.checkReplaceable(url, notReplacing: inputs)
        let bytes = try WeightsFormat.encode(self, file: url.relativePath)
        try AtomicFile.write(Data(bytes), to: url, notReplacing: inputs)
    }

    /// The same weights (tensors shared, not copied) with new thresholds, stored in class
    /// order (the order FORMAT.md requires) and validated. A class the model does not have is
    /// reported at its index in `thresholds` as given.
    public func settingThresholds(_ thresholds: [ClassThreshold]?, file: String) throws -> WeightsFile {
        let classIndex = Dictionary(header.classes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, threshold) in (thresholds ?? []).enumerated() where classIndex[threshold.className] == nil {
            throw WeightsError.invalidHeader(file: file, key: "thresholds[\(index)].class",
                                             reason: "\"\(threshold.className)\" is not one of the model's classes")
        }
        var copy = self
        copy.layout = nil
        copy.header.thresholds = thresholds?.enumerated()
            .sorted { (classIndex[$0.element.className]!, $0.offset) < (classIndex[$1.element.className]!, $1.offset) }
            .map(\.element)
        try copy.header.validate(file: file)
        return copy
    }
}
