import CBLAS
import Dispatch
import Foundation

/// One level of data parallelism for the kernels.
///
/// `0..<count` is split statically into at most `threadCount` contiguous ranges of nearly
/// equal size (range `w` is `[w·count/k, (w+1)·count/k)`), so which worker sees which
/// index depends only on `count` and `threadCount`. Reductions across workers keep one
/// partial result per worker and sum them in worker order, which makes every kernel
/// bit-reproducible for a given thread count.
///
/// OpenBLAS rule: OpenBLAS always runs single-threaded (set on first use). Parallelism comes
/// from our own loops; a large GEMM issued outside a parallel loop is split into column
/// (or row) blocks by `GEMM.multiply`. So BLAS threads never nest inside ours and never
/// busy-wait while our workers run.
public enum Parallel {
    /// A process-wide setting like OMP_NUM_THREADS (the one deliberate global of the kernels):
    /// behind a lock, so data-loader threads may run kernels while the main thread sets it.
    /// Each kernel call reads it once and sizes its partition from that value.
    private static var storedThreadCount: Int = {
        configureBLAS
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }()
    private static let threadCountLock = NSLock()

    /// True on a thread that is running a chunk of a multi-worker `forEachChunk`: nested
    /// parallel calls (including GEMM splitting) then run inline on that worker. Kept per
    /// thread, so another thread (say a data loader) calling kernels at the same time is
    /// not affected.
    static var isInsideParallelRegion: Bool { pthread_getspecific(regionKey) != nil }

    private static let regionKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The `WorkerTeam` of the innermost `withWorkerTeam` scope on this thread, if any.
    private static let teamKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with `team`'s helpers taking the parallel loops (`WorkerTeam`): for
    /// latency-bound jobs made of many short loops, like a batch-1 forward pass. `forEachChunk`
    /// calls on this thread that use exactly `team.size` workers run on the team; others (and
    /// calls from other threads) run as usual. Partitions, worker indices and therefore results
    /// are the same with or without a team.
    public static func withWorkerTeam<R>(_ team: WorkerTeam?, _ body: () throws -> R) rethrows -> R {
        guard let team, team.size > 1, !isInsideParallelRegion else { return try body() }
        let outer = pthread_getspecific(teamKey)
        pthread_setspecific(teamKey, Unmanaged.passUnretained(team).toOpaque())
        defer { pthread_setspecific(teamKey, outer) }
        return try body()
    }

    /// Marks the current thread as a worker of a parallel loop while `body` runs (nested loops run inline).
    static func asWorker(_ body: () -> Void) {
        let outer = pthread_getspecific(regionKey)
        pthread_setspecific(regionKey, UnsafeRawPointer(bitPattern: 1))
        body()
        pthread_setspecific(regionKey, outer)
    }

    /// Before the first BLAS call: kernels that match the CPU, then OpenBLAS single-threaded.
    static let configureBLAS: Void = {
        BLASKernelSelection.configure()
        openblas_set_num_threads(1)
    }()

    /// Worker threads used by the kernels (≥ 1). Default: the number of active processors.
    /// Safe to read and set from any thread; a kernel already running keeps the count it started with.
    public static var threadCount: Int {
        get {
            threadCountLock.lock()
            defer { threadCountLock.unlock() }
            return storedThreadCount
        }
        set {
            configureBLAS
            threadCountLock.lock()
            defer { threadCountLock.unlock() }
            storedThreadCount = max(1, newValue)
        }
    }

    /// How many chunks (and worker indices) `forEachChunk(count, …)` will use; callers size
    /// per-worker partial buffers with it.
    public static func workerCount(for count: Int) -> Int {
        if count <= 1 || isInsideParallelRegion { return count <= 0 ? 0 : 1 }
        return min(threadCount, count)
    }

    /// The `worker`-th of `workers` contiguous ranges of `0..<count`.
    public static func chunk(_ worker: Int, of workers: Int, count: Int) -> Range<Int> {
        (worker * count / workers)..<((worker + 1) * count / workers)
    }

    /// Calls `body(range, worker)` once per chunk, concurrently when there are several.
    public static func forEachChunk(_ count: Int, _ body: (Range<Int>, _ worker: Int) -> Void) {
        forEachChunk(count, workers: workerCount(for: count), body)
    }

    /// As above with a worker count the caller already chose (and sized per-worker buffers
    /// with): the partition cannot change under it if `threadCount` is set meanwhile.
    public static func forEachChunk(_ count: Int, workers: Int, _ body: (Range<Int>, _ worker: Int) -> Void) {
        let workers = min(workers, count)
        if workers <= 0 { return }
        if workers == 1 { body(0..<count, 0); return }
        if let slot = pthread_getspecific(teamKey), !isInsideParallelRegion {
            let team = Unmanaged<WorkerTeam>.fromOpaque(slot).takeUnretainedValue()
            if team.size == workers { return team.run(count, body) }
        }
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            asWorker { body(chunk(worker, of: workers, count: count), worker) }
        }
    }

    /// Calls `body(i)` for every `i` in `0..<count`, chunked as `forEachChunk`.
    public static func forEach(_ count: Int, _ body: (Int) -> Void) {
        forEachChunk(count) { range, _ in
            for i in range { body(i) }
        }
    }
}
