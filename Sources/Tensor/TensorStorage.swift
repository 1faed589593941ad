import Kernels

/// Float32 buffer owned by one or more `Tensor` values; `Tensor` copies it before a write
/// when it is shared (copy-on-write), so value semantics hold without per-op copies.
public final class TensorStorage {
    public let count: Int
    public let pointer: UnsafeMutablePointer<Float>

    /// 64-byte aligned so SIMD loads and OpenBLAS see cache-line aligned rows, and on huge pages
    /// from 2 MB (`BufferCache.hugePageBytes`). Large buffers are reused from `BufferCache` when
    /// one of the same size was freed recently.
    public init(count: Int) {
        self.count = count
        pointer = BufferCache.shared.allocate(bytes: max(count, 1) * MemoryLayout<Float>.stride)
            .bindMemory(to: Float.self, capacity: max(count, 1))
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
        BufferCache.shared.release(UnsafeMutableRawPointer(pointer), bytes: max(count, 1) * MemoryLayout<Float>.stride)
    }

    /// Releases the tensor buffer cache back to the system.
    public static func releaseCachedBuffers() { BufferCache.shared.drain() }
}
