/// Little-endian reading with every access checked against the buffer's end: a reader that
/// cannot run past the bytes it was given, whatever lengths a corrupt file claims.
struct ByteCursor {
    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int

    init(_ bytes: UnsafeRawBufferPointer, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var remaining: Int { bytes.count - position }

    /// Returns nil (and does not move) when fewer than `count` bytes are left.
    mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard let raw = take(MemoryLayout<T>.size) else { return nil }
        return T(littleEndian: raw.loadUnaligned(as: T.self))
    }
}

/// Little-endian appends into a growing byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
}

extension UnsafeRawBufferPointer {
    /// Bytes `[offset, offset + count)` when they lie inside the buffer (overflow-safe), else nil.
    func slice(offset: UInt64, count: UInt64) -> UnsafeRawBufferPointer? {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= UInt64(self.count) else { return nil }
        return UnsafeRawBufferPointer(rebasing: self[Int(offset)..<Int(end)])
    }
}
