import Foundation

/// Keeps recently freed large tensor buffers for reuse by the next tensor of the same size.
///
/// A training step allocates the same sizes every step. Without a cache, glibc serves each
/// large buffer with a fresh mmap (zeroed pages, a page fault per 4 KB on first write) and
/// unmaps it on free: measurable time per step. Exact-size matching cannot fragment, and
/// the cache is bounded, so peak memory grows by at most `capacityBytes`. 768 MB holds a
/// whole step's gradient buffers of the reference detector at batch 8: at 384 MB the evicted
/// buffers went back to glibc, whose heap kept them resident and fragmented, so the step's
/// peak RSS was higher (0.85–0.90 GB vs 0.59 GB) and first touches cost page faults
/// (depthwise s2 backward 23 → 15 ms).
final class BufferCache {
    static let shared = BufferCache()

    /// Buffers below this size come from malloc's own bins, which already reuse them.
    let minimumBytes = 256 << 10
    let capacityBytes = 768 << 20

    private var free: [Int: [UnsafeMutableRawPointer]] = [:]
    private var cachedBytes = 0
    private let lock = NSLock()

    func take(bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes >= minimumBytes else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard let pointer = free[bytes]?.popLast() else { return nil }
        cachedBytes -= bytes
        return pointer
    }

    /// Returns false when the buffer was not kept (the caller frees it).
    func give(_ pointer: UnsafeMutableRawPointer, bytes: Int) -> Bool {
        guard bytes >= minimumBytes else { return false }
        lock.lock()
        defer { lock.unlock() }
        guard cachedBytes + bytes <= capacityBytes else { return false }
        free[bytes, default: []].append(pointer)
        cachedBytes += bytes
        return true
    }

    /// Frees every cached buffer (for memory measurements and long idle phases).
    func drain() {
        lock.lock()
        defer { lock.unlock() }
        for pointers in free.values { pointers.forEach { $0.deallocate() } }
        free = [:]
        cachedBytes = 0
    }
}
