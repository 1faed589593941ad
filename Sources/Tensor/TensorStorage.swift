/// Float32 buffer owned by one or more `Tensor` values; `Tensor` copies it before a write
/// when it is shared (copy-on-write), so value semantics hold without per-op copies.
public final class TensorStorage {
    public let count: Int
    public let pointer: UnsafeMutablePointer<Float>

    /// 64-byte aligned so SIMD loads and OpenBLAS see cache-line aligned rows.
    public init(count: Int) {
        self.count = count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
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

    deinit { UnsafeMutableRawPointer(pointer).deallocate() }
}
