/// Float32 buffer owned by one or more `Tensor` values; `Tensor` copies it before a write
/// when it is shared (copy-on-write), so value semantics hold without per-op copies.
public final class TensorStorage {
    public let count: Int
    public let pointer: UnsafeMutablePointer<Float>

    /// 64-byte aligned so SIMD loads and OpenBLAS see cache-line aligned rows. Large buffers
    /// are reused from `BufferCache` when one of the same size was freed recently.
    public init(count: Int) {
        self.count = count
        let bytes = max(count, 1) * MemoryLayout<Float>.stride
        let raw = BufferCache.shared.take(bytes: bytes) ?? UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        pointer = raw.bindMemory(to: Float.self, capacity: max(count, 1))
    }

    public convenience init(repeating value: Float, count: Int) {
        self.init(count: count)
        pointer.initialize(repeating: value, count: count)
    }

    public func copy() -> TensorStorage {
        let other = TensorStorage(count: count)
        other.pointer.update(from: pointer, count: count)
        return other
    }

    deinit {
        let raw = UnsafeMutableRawPointer(pointer)
        if !BufferCache.shared.give(raw, bytes: max(count, 1) * MemoryLayout<Float>.stride) { raw.deallocate() }
    }

    /// Releases the tensor buffer cache back to the system.
    public static func releaseCachedBuffers() { BufferCache.shared.drain() }
}
