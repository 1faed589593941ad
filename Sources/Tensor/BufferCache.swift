import Foundation

/// Keeps recently freed large tensor buffers for reuse by the next tensor of the same size.
///
/// A training step allocates the same sizes every step. Without a cache, glibc serves each
/// large buffer with a fresh mmap (zeroed pages, a page fault per 4 KB on first write) and
/// unmaps it on free: measurable time per step. Exact-size matching cannot fragment, and
/// the cache is bounded, so peak memory grows by at most `capacityBytes`.
final class BufferCache {
    static let shared = BufferCache()

    /// Buffers below this size come from malloc's own bins, which already reuse them.
    let minimumBytes = 256 << 10
    let capacityBytes = 384 << 20

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
