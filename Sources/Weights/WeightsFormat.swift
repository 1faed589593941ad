import Support
import Tensor

/// Byte layout of a `.slw` file; FORMAT.md beside this file is the specification.
public enum WeightsFormat {
    /// "SLWT\r\n\x1A\n": like PNG's signature, the CR-LF, Ctrl-Z and LF catch transfers that
    /// rewrite line endings or stop at an end-of-file character.
    public static let magic: [UInt8] = [0x53, 0x4C, 0x57, 0x54, 0x0D, 0x0A, 0x1A, 0x0A]
    static let preambleSize = 64
    /// Tensor data starts on 64-byte boundaries (cache lines, AVX-512 loads, mmap-friendly).
    static let alignment: UInt64 = 64
    static let maximumRank = 8
    /// Entry length + name length + dtype + rank + offset + byte length + checksum (rank 0, empty name).
    static let minimumEntrySize = 4 + 2 + 1 + 1 + 8 + 8 + 4

    static func alignedUp(_ value: UInt64) -> UInt64 { (value + alignment - 1) / alignment * alignment }

    // MARK: Writing

    /// The file's bytes (what `WeightsFile.write(to:)` writes atomically); `file` names it in errors.
    public static func encode(_ weights: WeightsFile, file: String) throws -> [UInt8] {
        let header = weights.header
        try header.validate(file: file)
        try validateTensors(weights, file: file)
        let version = weights.minimumFormatVersion
        let headerBytes = Array(header.jsonValue(for: version).serialized.utf8)

        // Table entries have fixed widths, so the data offset is known before the offsets are.
        let tableSize = weights.tensors.reduce(0) {
            $0 + minimumEntrySize + $1.name.utf8.count + 8 * $1.tensor.rank
        }
        let dataOffset = alignedUp(UInt64(preambleSize + headerBytes.count + tableSize))
        var offsets: [UInt64] = []
        var end = dataOffset
        for (name, tensor) in weights.tensors {
            let start = alignedUp(end)
            offsets.append(start)
            end = start + UInt64(tensor.count * weights.dtype(of: name).byteWidth)
        }
        let fileSize = Int(end)
        var bytes = [UInt8](repeating: 0, count: fileSize)

        var table = ByteWriter()
        bytes.withUnsafeMutableBytes { output in
            for (index, (name, tensor)) in weights.tensors.enumerated() {
                let dtype = weights.dtype(of: name)
                let byteLength = tensor.count * dtype.byteWidth
                let target = UnsafeMutableRawBufferPointer(rebasing: output[Int(offsets[index])..<Int(offsets[index]) + byteLength])
                switch dtype {
                case .float32: copyLittleEndian(tensor, into: target)
                case .float16: Float16Storage.write(tensor, into: target)
                }
                let nameBytes = Array(name.utf8)
                table.write(UInt32(minimumEntrySize - 4 + nameBytes.count + 8 * tensor.rank))
                table.write(UInt16(nameBytes.count))
                table.write(nameBytes)
                table.write(dtype.rawValue)
                table.write(UInt8(tensor.rank))
                for dimension in tensor.shape { table.write(UInt64(dimension)) }
                table.write(offsets[index])
                table.write(UInt64(byteLength))
                table.write(CRC32.checksum(UnsafeRawBufferPointer(target)))
            }
        }
        let metadata = headerBytes + table.bytes
        bytes.replaceSubrange(preambleSize..<(preambleSize + metadata.count), with: metadata)

        var preamble = ByteWriter()
        preamble.write(magic)
        preamble.write(version.major)
        preamble.write(version.minor)
        preamble.write(UInt32(0))  // reserved
        preamble.write(UInt64(fileSize))
        preamble.write(UInt64(headerBytes.count))
        preamble.write(UInt64(weights.tensors.count))
        preamble.write(UInt64(table.bytes.count))
        preamble.write(dataOffset)
        preamble.write(metadata.withUnsafeBytes { CRC32.checksum($0) })
        preamble.write(preamble.bytes.withUnsafeBytes { CRC32.checksum($0) })
        bytes.replaceSubrange(0..<preambleSize, with: preamble.bytes)
        return bytes
    }

    private static func validateTensors(_ weights: WeightsFile, file: String) throws {
        var seen = Set<String>()
        for (name, tensor) in weights.tensors {
            guard !name.isEmpty, name.utf8.count <= Int(UInt16.max) else {
                throw WeightsError.invalidContent(file: file, reason: "tensor name \"\(name.prefix(40))\" must have 1...65535 UTF-8 bytes")
            }
            guard seen.insert(name).inserted else { throw WeightsError.duplicateTensor(file: file, tensor: name) }
            guard tensor.rank <= maximumRank, tensor.shape.allSatisfy({ $0 >= 0 }) else {
                throw WeightsError.invalidContent(file: file, reason: "tensor \(name) has shape \(tensor.shape); rank must be at most \(maximumRank)")
            }
            // Float16 storage must not round: a file read back gives the floats that were written.
            if weights.dtype(of: name) == .float16, let index = Float16Storage.firstInexact(tensor) {
                let value = tensor.withUnsafeBufferPointer { $0[index] }
                throw WeightsError.invalidContent(file: file, reason: "tensor \(name) is marked for float16 storage but its value \(value) "
                    + "at index \(index) is not a float16 value; round the tensors with storingFloat16() first")
            }
        }
    }

    private static func copyLittleEndian(_ tensor: Tensor, into target: UnsafeMutableRawBufferPointer) {
        tensor.withUnsafeBufferPointer { source in
            #if _endian(little)
            target.copyMemory(from: UnsafeRawBufferPointer(source))
            #else
            for (index, value) in source.enumerated() {
                target.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: index * 4, as: UInt32.self)
            }
            #endif
        }
    }
}
