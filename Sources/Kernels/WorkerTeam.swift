import Foundation
import Synchronization

/// Helper threads that stay awake between the parallel loops of a latency-bound job: a batch-1
/// forward pass runs ~50 loops of 20–1000 µs each.
///
/// `DispatchQueue.concurrentPerform` parks its workers after every loop; on the 2-vCPU machines
/// a loop whose two halves take 100 µs each took 114–129 µs, the second half starting 8–21 µs
/// late (Reports/benchmarks.md, "A worker team"). Inside `Parallel.withWorkerTeam`, the
/// calling thread's `forEachChunk` calls hand chunks 1… to the team's helpers, which spin on a
/// generation counter, and run chunk 0 themselves. A helper that sees no work for
/// `spinSeconds` sleeps on a condition variable until the next loop, so an idle team costs
/// nothing. Chunks and worker indices are exactly `forEachChunk`'s: results do not depend on
/// whether a team ran them. The team lives as long as its owner (a `FusedDetector`): its
/// threads start once, not per pass. Only for an otherwise idle machine: beside a busy process
/// a descheduled helper holds up every loop while the caller spins (2–3× slower), so
/// `FusedDetector` uses a team only when asked (`keepsWorkersAwake`).
public final class WorkerTeam: @unchecked Sendable {
    /// Spinning this long without work sends a helper to sleep.
    static let spinSeconds = 0.002

    /// Workers including the calling thread.
    public let size: Int
    private let generation = Atomic<Int>(0)
    private let pending = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let wake = NSCondition()
    private let finished = DispatchGroup()
    /// Serialises loops from different callers (a team runs one loop at a time).
    private let caller = NSLock()
    /// The current loop; written by the caller before it bumps `generation`, read by helpers after they see it.
    private var body: ((Range<Int>, Int) -> Void)?
    private var count = 0

    public init(size: Int) {
        self.size = max(1, size)
        for index in 1..<self.size {
            finished.enter()
            let thread = Thread { [self] in
                helperLoop(index: index)
                finished.leave()
            }
            thread.name = "screenlab-team-\(index)"
            thread.start()
        }
    }

    deinit { stop() }

    /// Stops the helpers and waits for them to exit (idempotent).
    public func stop() {
        if stopping.exchange(true, ordering: .acquiringAndReleasing) { return }
        wake.lock()
        generation.add(1, ordering: .releasing)
        wake.broadcast()
        wake.unlock()
        finished.wait()
    }

    /// `forEachChunk`'s partition of `0..<count` over all `size` workers: chunk 0 on the calling
    /// thread, the rest on the helpers (every helper takes part, so none reads the loop's state late).
    func run(_ count: Int, _ body: (Range<Int>, Int) -> Void) {
        precondition(size >= 2 && size <= count && !stopping.load(ordering: .relaxed))
        caller.lock()
        defer { caller.unlock() }
        withoutActuallyEscaping(body) { body in
            self.body = body
            self.count = count
            pending.store(size - 1, ordering: .relaxed)
            wake.lock()
            generation.add(1, ordering: .releasing)
            wake.broadcast()
            wake.unlock()
            Parallel.asWorker { body(Parallel.chunk(0, of: size, count: count), 0) }
            while pending.load(ordering: .acquiring) > 0 {}
            self.body = nil
        }
    }

    private func helperLoop(index: Int) {
        var seen = 0
        while true {
            var clock = ContinuousClock.now
            var spins = 0
            while generation.load(ordering: .acquiring) == seen {
                spins += 1
                if spins & 1023 == 0, ContinuousClock.now - clock > .seconds(Self.spinSeconds) {
                    wake.lock()
                    while generation.load(ordering: .acquiring) == seen { wake.wait() }
                    wake.unlock()
                    clock = ContinuousClock.now
                }
            }
            seen = generation.load(ordering: .acquiring)
            if stopping.load(ordering: .acquiring) { return }
            if let body {
                Parallel.asWorker { body(Parallel.chunk(index, of: size, count: count), index) }
            }
            pending.subtract(1, ordering: .releasing)
        }
    }
}
