import Foundation

/// Keeps recently freed large tensor buffers for reuse by the next tensor of the same size.
///
/// A training step allocates the same sizes every step. Without a cache, glibc serves each
/// large buffer with a fresh mmap (zeroed pages, a page fault per 4 KB on first write) and
/// unmaps it on free: measurable time per step (depthwise s2 backward 23 → 15 ms with reuse).
/// Exact-size matching cannot fragment.
///
/// **Sized from what a step needs.** The cache may hold as many bytes as the most large-buffer
/// bytes ever alive at once (`peakLiveBytes`, at least `floorBytes`): after a step, everything
/// it allocated is free, and the next step needs exactly that much again, whatever the batch,
/// input size or model. A fixed capacity (768 MB, tuned for the reference detector at batch 8)
/// sent batch 16's surplus back to glibc, whose heap kept it resident and fragmented — a higher
/// peak RSS and page faults on first touch — while at batch 2 it allowed nothing extra anyway.
/// So memory stays within live + cached ≤ 2 × the working set. When a buffer does not fit, the
/// buffers freed longest ago are evicted first (a validation pass or a different batch leaves
/// buffers the training step will not ask for again).
final class BufferCache {
    static let shared = BufferCache()

    /// Buffers below this size come from malloc's own bins, which already reuse them.
    let minimumBytes: Int
    /// The capacity before the working set is known (and its lower bound).
    let floorBytes: Int

    /// Free buffers by size, each with when it was given back (a counter): a stack, so `take`
    /// reuses the most recently freed (warm in cache) and the oldest sits at index 0.
    private var free: [Int: [(pointer: UnsafeMutableRawPointer, freedAt: UInt64)]] = [:]
    private var clock: UInt64 = 0
    private(set) var cachedBytes = 0
    /// Large-buffer bytes handed out and not yet given back, and their highest value so far.
    private(set) var liveBytes = 0
    private(set) var peakLiveBytes = 0
    private let lock = NSLock()

    init(minimumBytes: Int = 256 << 10, floorBytes: Int = 64 << 20) {
        self.minimumBytes = minimumBytes
        self.floorBytes = floorBytes
    }

    var capacityBytes: Int { max(floorBytes, peakLiveBytes) }

    /// A cached buffer of exactly `bytes`, or nil (the caller allocates). Either way the bytes
    /// count as live until `give`.
    func take(bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes >= minimumBytes else { return nil }
        lock.lock()
        defer { lock.unlock() }
        liveBytes += bytes
        peakLiveBytes = max(peakLiveBytes, liveBytes)
        guard let entry = free[bytes]?.popLast() else { return nil }
        // No empty lists stay behind: eviction reads each list's oldest entry.
        if free[bytes]?.isEmpty == true { free[bytes] = nil }
        cachedBytes -= bytes
        return entry.pointer
    }

    /// Returns false when the buffer was not kept (the caller frees it).
    func give(_ pointer: UnsafeMutableRawPointer, bytes: Int) -> Bool {
        guard bytes >= minimumBytes else { return false }
        lock.lock()
        defer { lock.unlock() }
        liveBytes -= bytes
        guard bytes <= capacityBytes else { return false }
        evictOldest(toFit: bytes)
        clock += 1
        free[bytes, default: []].append((pointer, clock))
        cachedBytes += bytes
        return true
    }

    /// Frees every cached buffer (for memory measurements and long idle phases).
    func drain() {
        lock.lock()
        defer { lock.unlock() }
        for entries in free.values { entries.forEach { $0.pointer.deallocate() } }
        free = [:]
        cachedBytes = 0
    }

    /// Frees cached buffers, the one freed longest ago first, until `bytes` more fit (the
    /// caller checked that `bytes` alone fits).
    private func evictOldest(toFit bytes: Int) {
        while cachedBytes + bytes > capacityBytes {
            guard let size = free.filter({ !$0.value.isEmpty }).min(by: { $0.value[0].freedAt < $1.value[0].freedAt })?.key else { return }
            free[size]!.removeFirst().pointer.deallocate()
            cachedBytes -= size
            if free[size]!.isEmpty { free[size] = nil }
        }
    }
}
