import Foundation
import Synchronization

/// Helper threads that stay awake between the parallel loops of a latency-bound job: a batch-1
/// forward pass runs ~50 loops of 20–1000 µs each, a batch-8 training step ~230 (the training
/// step runs on one too, `TrainingSetup.workers`: 1.03–1.04× the real step).
///
/// `DispatchQueue.concurrentPerform` parks its workers after every loop; on the 2-vCPU machines
/// a loop whose two halves take 100 µs each took 114–129 µs, the second half starting 8–21 µs
/// late (Reports/benchmarks.md, "A worker team"). Inside `Parallel.withWorkerTeam`, a
/// `forEachChunk` call on the calling thread publishes its chunks to the team, whose helpers
/// spin on the loop counter; each chunk is claimed once, by whoever gets to it first.
///
/// The caller claims too, so a helper that is asleep or descheduled (another process busy on
/// the cores) costs the loop nothing: the caller runs the chunks nobody took and only waits for
/// chunks already started. The first version gave each helper a fixed chunk, and beside a
/// training run every loop waited a scheduler slice for it (2–3× slower than `concurrentPerform`).
/// Chunk `w` is still `forEachChunk`'s range `w`, run with worker index `w`, so per-worker
/// scratch and results do not depend on who ran it. A helper that sees no loop for
/// `spinSeconds` sleeps on a condition variable, so an idle team costs nothing; the team lives
/// as long as its owner (a `FusedDetector`, a `TrainingSetup`), its threads start once.
public final class WorkerTeam: @unchecked Sendable {
    /// Spinning this long without work sends a helper to sleep.
    static let spinSeconds = 0.00005
    /// A caller waiting this many polls for a started chunk yields its core (the helper running
    /// that chunk may need it).
    static let pollsBeforeYield = 4096

    /// Workers including the calling thread.
    public let size: Int
    /// The loop being handed out: `generation << chunkBits | next unclaimed chunk`. One word, so
    /// a helper's claim names the loop it belongs to and a late helper cannot claim a chunk of
    /// a loop it has not seen published.
    private let claims = Atomic<Int>(0)
    private static let chunkBits = 16
    /// Chunks of the current loop that have finished.
    private let finishedChunks = Atomic<Int>(0)
    private let sleepers = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let wake = NSCondition()
    private let exited = DispatchGroup()
    /// Serialises loops from different callers (a team runs one loop at a time).
    private let caller = NSLock()
    /// The current loop; written by the caller before it publishes `claims`, read by a helper
    /// after a successful claim, cleared only once every chunk has finished.
    private var body: ((Range<Int>, Int) -> Void)?
    private var count = 0
    /// Loops run on the team so far (guarded by `caller`).
    private var loops = 0

    /// How many parallel loops have run on the team (tests check that a scope used it).
    public var loopsRun: Int {
        caller.lock()
        defer { caller.unlock() }
        return loops
    }

    public convenience init(size: Int) { self.init(size: size, startsHelpers: true) }

    /// `startsHelpers: false` makes a team whose helpers never run: tests use it to stand for
    /// helpers that are descheduled for the whole loop.
    init(size: Int, startsHelpers: Bool) {
        self.size = max(1, min(size, (1 << Self.chunkBits) - 1))
        guard startsHelpers else { return }
        for _ in 1..<self.size {
            exited.enter()
            let thread = Thread { [self] in
                helperLoop()
                exited.leave()
            }
            thread.name = "screenlab-team"
            thread.start()
        }
    }

    deinit { stop() }

    /// Stops the helpers and waits for them to exit (idempotent).
    public func stop() {
        if stopping.exchange(true, ordering: .sequentiallyConsistent) { return }
        caller.lock()
        claims.add(1 << Self.chunkBits, ordering: .sequentiallyConsistent)
        caller.unlock()
        wake.lock()
        wake.broadcast()
        wake.unlock()
        exited.wait()
    }

    /// `forEachChunk`'s partition of `0..<count` into `size` chunks, chunk `w` run as worker `w`.
    func run(_ count: Int, _ body: (Range<Int>, Int) -> Void) {
        precondition(size >= 2 && size <= count && !stopping.load(ordering: .relaxed))
        caller.lock()
        defer { caller.unlock() }
        loops += 1
        withoutActuallyEscaping(body) { body in
            self.body = body
            self.count = count
            finishedChunks.store(0, ordering: .relaxed)
            let generation = (claims.load(ordering: .relaxed) >> Self.chunkBits) + 1
            // Sequentially consistent with the helpers' `sleepers` increment: either this
            // caller sees a sleeper and wakes it, or the sleeper sees the new loop before waiting.
            claims.store(generation << Self.chunkBits, ordering: .sequentiallyConsistent)
            if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
                wake.lock()
                wake.broadcast()
                wake.unlock()
            }
            while claimAndRun(generation) {}
            var polls = 0
            while finishedChunks.load(ordering: .acquiring) < size {
                polls += 1
                if polls >= Self.pollsBeforeYield { sched_yield() }
            }
            self.body = nil
        }
    }

    /// Claims the next chunk of loop `generation` and runs it; false when none is left (or the
    /// loop is over).
    private func claimAndRun(_ generation: Int) -> Bool {
        var current = claims.load(ordering: .acquiring)
        while true {
            let chunk = current & ((1 << Self.chunkBits) - 1)
            guard current >> Self.chunkBits == generation, chunk < size else { return false }
            let (exchanged, original) = claims.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged {
                runChunk(chunk)
                finishedChunks.add(1, ordering: .releasing)
                return true
            }
            current = original
        }
    }

    /// Runs claimed chunk `chunk`. The loop cannot end (and `body` cannot be cleared) before it
    /// is counted finished; the reference taken here is released on return, before that count,
    /// as `withoutActuallyEscaping` in `run` requires (not inlined, so it cannot outlive it).
    @inline(never)
    private func runChunk(_ chunk: Int) {
        let body = self.body!
        Parallel.asWorker { body(Parallel.chunk(chunk, of: size, count: count), chunk) }
    }

    private func helperLoop() {
        var seen = claims.load(ordering: .acquiring) >> Self.chunkBits
        while true {
            var clock = ContinuousClock.now
            var spins = 0
            var generation = seen
            // `stopping` is checked as well as the generation: a helper thread that starts after
            // `stop()` (a team released right after it was made) reads stop's generation as the
            // one it has seen, and would otherwise sleep forever while `stop()` waits for it.
            while generation == seen, !stopping.load(ordering: .sequentiallyConsistent) {
                spins += 1
                if spins & 63 == 0, ContinuousClock.now - clock > .seconds(Self.spinSeconds) {
                    wake.lock()
                    sleepers.add(1, ordering: .sequentiallyConsistent)
                    while claims.load(ordering: .sequentiallyConsistent) >> Self.chunkBits == seen,
                          !stopping.load(ordering: .sequentiallyConsistent) { wake.wait() }
                    sleepers.subtract(1, ordering: .relaxed)
                    wake.unlock()
                    clock = ContinuousClock.now
                }
                generation = claims.load(ordering: .acquiring) >> Self.chunkBits
            }
            if stopping.load(ordering: .acquiring) { return }
            seen = generation
            while claimAndRun(generation) {}
        }
    }
}
