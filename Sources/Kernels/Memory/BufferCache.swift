import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps recently freed large buffers — tensors' storage and the kernels' scratch — for reuse by
/// the next buffer of the same size.
///
/// A training step allocates the same sizes every step. Without a cache, glibc serves each
/// large buffer with a fresh mmap (zeroed pages, a page fault per 4 KB on first write) and
/// unmaps it on free: measurable time per step (depthwise s2 backward 23 → 15 ms with reuse).
/// Exact-size matching cannot fragment.
///
/// **Sized from what a step needs.** After a step everything it allocated is free, and the next
/// step asks for the same buffers again, whatever the batch, input size or model: each size as
/// many times as it was alive at once. Those buffers (`workingSetBytes`) are what the cache may
/// hold (at least `floorBytes`), up to twice the most bytes ever alive at once (`peakLiveBytes`).
/// Of any size there are never more buffers, live and cached, than were ever alive at once, so
/// memory stays within the working set, and stale sizes within twice the peak. The peak alone
/// was the first bound, on the reasoning that a forward pass's activations are all alive at its
/// end; but the kernels' scratch (`Workspace`: padded inputs, packed panels, Winograd tiles) and
/// some tensors are alive one call at a time, each layer with its own sizes, and what is made
/// between steps (an inline loader's batch), when little is alive, does not raise the peak; so the
/// cache evicted buffers every step and they faulted back (the reference step with its loader inline, Zen 3: ~2,200 page
/// faults a step, ~150 since). A fixed capacity (768 MB, tuned for the reference detector at
/// batch 8) sent batch 16's surplus back to glibc, whose heap kept it resident and fragmented — a
/// higher peak RSS and page faults on first touch — while at batch 2 it allowed nothing extra
/// anyway. When a buffer does not fit, the buffers freed longest ago are evicted first (a
/// validation pass or a different batch leaves buffers the training step will not ask for again).
public final class BufferCache {
    public static let shared = BufferCache()

    /// Buffers from this size on sit on 2 MB boundaries and ask the kernel for transparent huge
    /// pages (`MADV_HUGEPAGE`; Debian's default THP mode is `madvise`, so nothing gets them
    /// unasked). Activations are streamed whole by batch norm and the convolutions: with 4 KB
    /// pages each 2 MB costs 512 TLB entries and, on first touch, 512 page faults. Measured on
    /// the real training step (batch 8, 2 threads, AMD EPYC): minor faults 200k → 50k per run,
    /// BN+ReLU6 −5 ms, 1–3 % more img/s in every paired round, peak RSS unchanged.
    public static let hugePageBytes = 2 << 20

    /// `bytes` of memory, 64-byte aligned (2 MB for huge-page sizes): a cached buffer of exactly
    /// that size, else a fresh one. Its contents are undefined. Hand it back with `release`.
    public func allocate(bytes: Int) -> UnsafeMutableRawPointer {
        take(bytes: bytes) ?? Self.fresh(bytes: bytes)
    }

    /// Gives back a buffer from `allocate(bytes:)`: kept for the next buffer of its size, or freed.
    public func release(_ pointer: UnsafeMutableRawPointer, bytes: Int) {
        if !give(pointer, bytes: bytes) { pointer.deallocate() }
    }

    static func fresh(bytes: Int) -> UnsafeMutableRawPointer {
        guard bytes >= hugePageBytes else { return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64) }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: hugePageBytes)
        #if canImport(Glibc)
        _ = madvise(raw, bytes, MADV_HUGEPAGE)  // advice only: a kernel without THP ignores it
        #endif
        return raw
    }

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
    /// Per size, buffers handed out and not yet given back, and the most there were at once; the
    /// sum of `most × size` over sizes is `workingSetBytes`.
    private var counts: [Int: (live: Int, most: Int)] = [:]
    private(set) var workingSetBytes = 0
    private let lock = NSLock()

    init(minimumBytes: Int = 256 << 10, floorBytes: Int = 64 << 20) {
        self.minimumBytes = minimumBytes
        self.floorBytes = floorBytes
    }

    var capacityBytes: Int { max(floorBytes, min(workingSetBytes, 2 * peakLiveBytes)) }

    /// A cached buffer of exactly `bytes`, or nil (the caller allocates). Either way the bytes
    /// count as live until `give`.
    func take(bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes >= minimumBytes else { return nil }
        lock.lock()
        defer { lock.unlock() }
        liveBytes += bytes
        peakLiveBytes = max(peakLiveBytes, liveBytes)
        var count = counts[bytes, default: (0, 0)]
        count.live += 1
        if count.live > count.most { count.most = count.live; workingSetBytes += bytes }
        counts[bytes] = count
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
        if let count = counts[bytes], count.live > 0 { counts[bytes] = (count.live - 1, count.most) }
        guard bytes <= capacityBytes else { return false }
        evictOldest(toFit: bytes)
        clock += 1
        free[bytes, default: []].append((pointer, clock))
        cachedBytes += bytes
        return true
    }

    /// Frees every cached buffer (for memory measurements and long idle phases).
    public func drain() {
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
