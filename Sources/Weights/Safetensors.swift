import Foundation
import Support
import Tensor

/// The safetensors format (huggingface/safetensors): an 8-byte little-endian header length,
/// a JSON header `{"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__":
/// {string: string}}`, then the data buffer; offsets are relative to the buffer's start.
/// Float32 ("F32") and float16 ("F16") tensors are read and written; values are held as float32
/// (every float16 is one exactly) and `float16Tensors` says which are stored as F16.
public struct SafetensorsFile {
    /// In data-offset order (the order the file stores them).
    public var tensors: [(name: String, tensor: Tensor)]
    public var metadata: [String: String]
    /// Tensors stored as F16; their values must be float16 values (as `WeightsFile`'s are).
    public var float16Tensors: Set<String>

    public init(tensors: [(name: String, tensor: Tensor)], metadata: [String: String], float16Tensors: Set<String> = []) {
        self.tensors = tensors
        self.metadata = metadata
        self.float16Tensors = float16Tensors
    }

    /// The reference implementation refuses headers above 100 MB; so do we, before allocating.
    static let maximumHeaderLength: UInt64 = 100_000_000

    /// Refuses NaN and infinite values, naming the tensor (see `FiniteValues`).
    public func checkFinite(file: String) throws {
        for (name, tensor) in tensors { try FiniteValues.check(tensor, name: name, file: file) }
    }

    public func encoded() -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = []
        if !metadata.isEmpty {
            members.append(("__metadata__", .object(metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        var offset = 0
        for (name, tensor) in tensors {
            let dtype: TensorDType = float16Tensors.contains(name) ? .float16 : .float32
            let end = offset + tensor.count * dtype.byteWidth
            members.append((name, .object([("dtype", .string(dtype.description)), ("shape", .array(tensor.shape.map { .integer(Int64($0)) })),
                                           ("data_offsets", .array([.integer(Int64(offset)), .integer(Int64(end))]))])))
            offset = end
        }
        var header = Array(JSONValue.object(members).serialized.utf8)
        // Pad with spaces so the buffer starts 8-byte aligned, as the Python writer does.
        header += [UInt8](repeating: 0x20, count: (8 - header.count % 8) % 8)
        var bytes = ByteWriter()
        bytes.write(UInt64(header.count))
        bytes.write(header)
        var output = bytes.bytes
        output.reserveCapacity(output.count + offset)
        for (name, tensor) in tensors {
            if float16Tensors.contains(name) {
                let start = output.count
                output.append(contentsOf: repeatElement(0, count: tensor.count * 2))
                output.withUnsafeMutableBytes { Float16Storage.write(tensor, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
                continue
            }
            tensor.withUnsafeBufferPointer { values in
                #if _endian(little)
                output.append(contentsOf: UnsafeRawBufferPointer(values))
                #else
                for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { output.append(contentsOf: $0) } }
                #endif
            }
        }
        return output
    }

    /// `notReplacing`: the command's inputs, which the output must not overwrite.
    public func write(to url: URL, notReplacing inputs: [URL] = []) throws {
        try AtomicFile.checkReplaceable(url, notReplacing: inputs)
        try AtomicFile.write(Data(encoded()), to: url, notReplacing: inputs)
    }

    /// Reads a safetensors file: the 8-byte header length first, checked against the file
    /// size (and against the signatures of files that are not safetensors), then the rest in
    /// one read. Errors name the file as given (`url.relativePath`).
    public static func read(contentsOf url: URL) throws -> SafetensorsFile {
        try WeightsError.readingFile {
            let file = try ReadableFile(url)
            let prefix = try file.read(offset: 0, count: 8)
            _ = try prefix.withUnsafeBytes { try headerLength($0, fileSize: file.size, file: file.name) }
            let bytes = try file.readAll(after: prefix)
            return try bytes.withUnsafeBytes { try decode($0, file: file.name) }
        }
    }

    /// The header length from the first 8 bytes (`prefix` may hold more), checked against the
    /// real `fileSize` before anything else is read.
    static func headerLength(_ prefix: UnsafeRawBufferPointer, fileSize: Int, file: String) throws -> UInt64 {
        if let kind = FileSignature.kind(of: prefix) {
            let advice = kind.hasPrefix("a ScreenLab") ? "; `screenlab weights inspect` reads it as it is" : ""
            throw WeightsError.invalidSafetensors(file: file, reason: "it is \(kind)\(advice)")
        }
        var cursor = ByteCursor(prefix)
        guard let headerLength = cursor.read(UInt64.self) else {
            throw WeightsError.truncated(file: file, fileSize: fileSize, needed: 8, what: "safetensors header length")
        }
        guard headerLength <= maximumHeaderLength else {
            throw WeightsError.invalidSafetensors(file: file, reason: "header length \(headerLength) exceeds 100 MB")
        }
        guard 8 + headerLength <= UInt64(fileSize) else {
            throw WeightsError.truncated(file: file, fileSize: fileSize, needed: 8 + headerLength, what: "safetensors header")
        }
        return headerLength
    }

    /// Parses a safetensors file with every offset checked against the buffer before use.
    public static func decode(_ bytes: UnsafeRawBufferPointer, file: String) throws -> SafetensorsFile {
        func fail(_ reason: String) -> WeightsError { .invalidSafetensors(file: file, reason: reason) }
        let headerLength = try headerLength(bytes, fileSize: bytes.count, file: file)
        // In bounds: headerLength checked 8 + headerLength <= bytes.count.
        let headerBytes = UnsafeRawBufferPointer(rebasing: bytes[8..<(8 + Int(headerLength))])
        let buffer = UnsafeRawBufferPointer(rebasing: bytes[(8 + Int(headerLength))...])
        let json: JSONValue
        do {
            json = try JSONParser.parse(headerBytes)
        } catch let error as JSONSyntaxError {
            throw fail("invalid JSON header at byte \(8 + error.offset): \(error.reason)")
        }
        guard case let .object(members) = json else { throw fail("the header is not a JSON object") }
        var metadata: [String: String] = [:]
        var entries: [(name: String, dtype: TensorDType, shape: [Int], begin: Int, end: Int)] = []
        for (key, value) in members {
            if key == "__metadata__" {
                metadata = try decodeMetadata(value, fail: fail)
            } else {
                entries.append(try decodeEntry(key, value, bufferSize: buffer.count, fail: fail))
            }
        }
        entries.sort { ($0.begin, $0.end) < ($1.begin, $1.end) }
        for (previous, next) in zip(entries, entries.dropFirst()) where previous.end > next.begin {
            throw fail("the data of tensors \(previous.name) and \(next.name) overlap")
        }
        let tensors = entries.map { entry -> (name: String, tensor: Tensor) in
            if entry.dtype == .float16 {
                return (entry.name, Float16Storage.read(shape: entry.shape, littleEndianBytes: UnsafeRawBufferPointer(rebasing: buffer[entry.begin..<entry.end])))
            }
            let storage = TensorStorage(count: (entry.end - entry.begin) / 4)
            let source = UnsafeRawBufferPointer(rebasing: buffer[entry.begin..<entry.end])
            #if _endian(little)
            if !source.isEmpty { UnsafeMutableRawPointer(storage.pointer).copyMemory(from: source.baseAddress!, byteCount: source.count) }
            #else
            for index in 0..<storage.count {
                storage.pointer[index] = Float(bitPattern: UInt32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)))
            }
            #endif
            return (entry.name, Tensor(shape: entry.shape, storage: storage))
        }
        return SafetensorsFile(tensors: tensors, metadata: metadata,
                               float16Tensors: Set(entries.lazy.filter { $0.dtype == .float16 }.map(\.name)))
    }

    private static func decodeMetadata(_ value: JSONValue, fail: (String) -> WeightsError) throws -> [String: String] {
        guard case let .object(pairs) = value else { throw fail("__metadata__ must be an object of strings") }
        var metadata: [String: String] = [:]
        for (key, item) in pairs {
            guard case let .string(text) = item else { throw fail("__metadata__.\(key) must be a string, found \(item.typeName)") }
            metadata[key] = text
        }
        return metadata
    }

    private static func decodeEntry(_ name: String, _ value: JSONValue, bufferSize: Int,
                                    fail: (String) -> WeightsError) throws -> (name: String, dtype: TensorDType, shape: [Int], begin: Int, end: Int) {
        guard case let .object(fields) = value else { throw fail("tensor \(name): expected an object, found \(value.typeName)") }
        var dtype: String?, shape: [Int]?, offsets: [Int]?
        for (key, field) in fields {
            switch key {
            case "dtype":
                guard case let .string(text) = field else { throw fail("tensor \(name): dtype must be a string") }
                dtype = text
            case "shape": shape = try integers(field, what: "tensor \(name): shape", fail: fail)
            case "data_offsets": offsets = try integers(field, what: "tensor \(name): data_offsets", fail: fail)
            default: throw fail("tensor \(name): unknown key \"\(key)\" (known: dtype, shape, data_offsets)")
            }
        }
        guard let dtypeName = dtype, let shape, let offsets else { throw fail("tensor \(name): needs dtype, shape and data_offsets") }
        guard let dtype = [TensorDType.float32, .float16].first(where: { $0.description == dtypeName }) else {
            throw fail("tensor \(name) has dtype \(dtypeName); ScreenLab reads F32 and F16 (in Python: `tensor.float()` before saving)")
        }
        guard shape.count <= WeightsFormat.maximumRank, shape.allSatisfy({ $0 <= Int(Int32.max) }) else {
            throw fail("tensor \(name): shape \(shape) has rank above \(WeightsFormat.maximumRank) or a huge dimension")
        }
        guard offsets.count == 2, offsets[0] <= offsets[1], offsets[1] <= bufferSize else {
            throw fail("tensor \(name): data_offsets \(offsets) are not [begin, end] inside the \(bufferSize)-byte data buffer")
        }
        var elements = 1
        for dimension in shape {
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= bufferSize else { throw fail("tensor \(name): shape \(shape) needs more bytes than the file has") }
            elements = product
        }
        guard offsets[1] - offsets[0] == elements * dtype.byteWidth else {
            throw fail("tensor \(name): shape \(shape) needs \(elements * dtype.byteWidth) bytes but data_offsets span \(offsets[1] - offsets[0])")
        }
        return (name, dtype, shape, offsets[0], offsets[1])
    }

    private static func integers(_ value: JSONValue, what: String, fail: (String) -> WeightsError) throws -> [Int] {
        guard case let .array(elements) = value else { throw fail("\(what) must be an array of integers") }
        return try elements.map { element in
            guard case let .integer(number) = element, number >= 0, let result = Int(exactly: number) else {
                throw fail("\(what) must hold non-negative integers")
            }
            return result
        }
    }
}
