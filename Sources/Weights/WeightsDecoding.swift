import Support
import Tensor

extension WeightsFormat {
    /// Parses and checks a whole file held in memory. Every length and offset is checked
    /// against `bytes.count` before it is used, so no input can read out of bounds; the first
    /// problem found is thrown as a `WeightsError` naming `file`.
    public static func decode(_ bytes: UnsafeRawBufferPointer, file: String,
                              readerVersion: FormatVersion = .current) throws -> WeightsFile {
        let (layout, header) = try decodeLayout(bytes, file: file, readerVersion: readerVersion)
        var tensors: [(name: String, tensor: Tensor)] = []
        tensors.reserveCapacity(layout.entries.count)
        for entry in layout.entries {
            // In bounds: decodeLayout checked offset + byteLength <= file size.
            let data = UnsafeRawBufferPointer(rebasing: bytes[Int(entry.offset)..<Int(entry.offset + entry.byteLength)])
            let computed = CRC32.checksum(data)
            guard computed == entry.checksum else {
                throw WeightsError.checksumMismatch(file: file, tensor: entry.name, stored: entry.checksum, computed: computed)
            }
            switch entry.dtype {
            case .float32: tensors.append((entry.name, makeTensor(shape: entry.shape, littleEndianBytes: data)))
            case .float16: tensors.append((entry.name, Float16Storage.read(shape: entry.shape, littleEndianBytes: data)))
            }
        }
        var weights = WeightsFile(header: header, tensors: tensors)
        weights.float16Tensors = Set(layout.entries.lazy.filter { $0.dtype == .float16 }.map(\.name))
        weights.layout = layout
        return weights
    }

    private static func makeTensor(shape: [Int], littleEndianBytes data: UnsafeRawBufferPointer) -> Tensor {
        let count = data.count / 4
        let storage = TensorStorage(count: count)
        #if _endian(little)
        if count > 0 { UnsafeMutableRawPointer(storage.pointer).copyMemory(from: data.baseAddress!, byteCount: data.count) }
        #else
        for index in 0..<count {
            storage.pointer[index] = Float(bitPattern: UInt32(littleEndian: data.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
        }
        #endif
        return Tensor(shape: shape, storage: storage)
    }

    /// The 64-byte preamble's fields, checked against the size of the whole file.
    struct Preamble {
        var version: FormatVersion
        var fileSize: UInt64
        var headerLength: UInt64
        var tensorCount: UInt64
        var tableLength: UInt64
        var dataOffset: UInt64
        var metadataChecksum: UInt32
    }

    /// Checks magic, version, preamble CRC and the declared file length against `fileSize`,
    /// the real size: `bytes` need only hold the file's first 64 bytes (fewer when it is
    /// shorter), so a file reader can refuse a wrong or damaged file before reading the rest.
    static func decodePreamble(_ bytes: UnsafeRawBufferPointer, fileSize actualSize: Int, file: String,
                               readerVersion: FormatVersion) throws -> Preamble {
        let version = try decodeVersion(bytes, file: file, readerVersion: readerVersion)
        guard bytes.count >= preambleSize else {
            throw WeightsError.truncated(file: file, fileSize: actualSize, needed: UInt64(preambleSize), what: "64-byte preamble")
        }
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
        let computed = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<60]))
        guard stored == computed else { throw WeightsError.preambleChecksumMismatch(file: file, stored: stored, computed: computed) }
        // The 64 bytes exist, so these reads cannot fail.
        var cursor = ByteCursor(bytes, at: 16)
        let preamble = Preamble(version: version, fileSize: cursor.read(UInt64.self)!, headerLength: cursor.read(UInt64.self)!,
                                tensorCount: cursor.read(UInt64.self)!, tableLength: cursor.read(UInt64.self)!,
                                dataOffset: cursor.read(UInt64.self)!, metadataChecksum: cursor.read(UInt32.self)!)
        if UInt64(actualSize) < preamble.fileSize {
            throw WeightsError.truncated(file: file, fileSize: actualSize, needed: preamble.fileSize, what: "file (as its preamble declares)")
        }
        if UInt64(actualSize) > preamble.fileSize {
            throw WeightsError.trailingBytes(file: file, fileSize: actualSize, declared: preamble.fileSize)
        }
        return preamble
    }

    /// Preamble, header and tensor table, checked; tensor data is not read.
    static func decodeLayout(_ bytes: UnsafeRawBufferPointer, file: String,
                             readerVersion: FormatVersion) throws -> (WeightsLayout, WeightsHeader) {
        let preamble = try decodePreamble(bytes, fileSize: bytes.count, file: file, readerVersion: readerVersion)
        let (headerLength, tableLength, dataOffset) = (preamble.headerLength, preamble.tableLength, preamble.dataOffset)
        guard let metadata = bytes.slice(offset: UInt64(preambleSize), count: headerLength &+ tableLength),
              headerLength <= UInt64(bytes.count), tableLength <= UInt64(bytes.count),
              UInt64(preambleSize) + headerLength + tableLength <= dataOffset, dataOffset <= preamble.fileSize
        else {
            throw WeightsError.invalidLayout(file: file, reason: "header (\(headerLength) bytes) and tensor table (\(tableLength) bytes) "
                + "do not fit between byte 64 and the data at \(dataOffset) in a file of \(bytes.count) bytes")
        }
        guard dataOffset % alignment == 0 else {
            throw WeightsError.invalidLayout(file: file, reason: "data offset \(dataOffset) is not a multiple of 64")
        }
        let metadataComputed = CRC32.checksum(metadata)
        guard metadataComputed == preamble.metadataChecksum else {
            throw WeightsError.metadataChecksumMismatch(file: file, stored: preamble.metadataChecksum, computed: metadataComputed)
        }
        let headerBytes = UnsafeRawBufferPointer(rebasing: metadata[0..<Int(headerLength)])
        let json: JSONValue
        do {
            json = try JSONParser.parse(headerBytes)
        } catch let error as JSONSyntaxError {
            throw WeightsError.invalidHeader(file: file, key: "header", reason: "invalid JSON at header byte \(error.offset): \(error.reason)")
        }
        let header = try WeightsHeader.decode(json, file: file, fileVersion: preamble.version, readerVersion: readerVersion)
        let table = UnsafeRawBufferPointer(rebasing: metadata[Int(headerLength)...])
        let entries = try decodeTable(table, count: preamble.tensorCount, dataOffset: dataOffset, fileSize: bytes.count, file: file,
                                      fileVersion: preamble.version, skipsUnknownFields: preamble.version > readerVersion)
        if preamble.version <= readerVersion {
            try checkPaddingIsZero(bytes, from: UInt64(preambleSize) + headerLength + tableLength, entries: entries, file: file)
        }
        let layout = WeightsLayout(version: preamble.version, fileSize: bytes.count, headerByteCount: Int(headerLength),
                                   dataOffset: dataOffset, entries: entries)
        return (layout, header)
    }

    /// Every byte outside the checksummed parts (preamble, metadata, tensors) is padding, which
    /// must be zero: then no byte of a file can change unnoticed. Not applied to a newer minor
    /// version, which may give those bytes a meaning this reader does not know.
    private static func checkPaddingIsZero(_ bytes: UnsafeRawBufferPointer, from metadataEnd: UInt64,
                                           entries: [TensorEntry], file: String) throws {
        var cursor = Int(metadataEnd)
        func checkGap(upTo end: Int) throws {
            guard cursor < end else { return }
            if let index = bytes[cursor..<end].firstIndex(where: { $0 != 0 }) {
                throw WeightsError.invalidLayout(file: file, reason: "padding byte \(index) is 0x\(String(bytes[index], radix: 16, uppercase: true)), "
                    + "not zero: the file was changed after it was written, or its writer is broken")
            }
        }
        // In bounds: decodeTable checked every entry against the file size, and they do not overlap.
        for entry in entries.sorted(by: { $0.offset < $1.offset }) where entry.byteLength > 0 {
            try checkGap(upTo: Int(entry.offset))
            cursor = max(cursor, Int(entry.offset + entry.byteLength))
        }
        try checkGap(upTo: bytes.count)
    }

    /// Magic and version: checked first, so a newer major version is named even if the rest
    /// of its layout changed.
    private static func decodeVersion(_ bytes: UnsafeRawBufferPointer, file: String,
                                      readerVersion: FormatVersion) throws -> FormatVersion {
        let prefix = Array(bytes.prefix(magic.count))
        guard prefix == Array(magic.prefix(prefix.count)) else { throw WeightsError.badMagic(file: file, found: prefix) }
        guard bytes.count >= 12 else {
            throw WeightsError.truncated(file: file, fileSize: bytes.count, needed: 12, what: "signature and version")
        }
        let version = FormatVersion(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt16.self)),
                                    UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 10, as: UInt16.self)))
        guard version.major >= 1 else { throw WeightsError.unsupportedVersion(file: file, found: version) }
        guard version.major <= readerVersion.major else {
            throw WeightsError.newerMajorVersion(file: file, found: version, supported: readerVersion)
        }
        return version
    }
}
