import Foundation
import XCTest
@testable import Kernels

final class ParallelTests: XCTestCase {
    func testChunksCoverRangeContiguouslyInWorkerOrder() {
        for (count, workers) in [(10, 3), (7, 2), (2, 2), (100, 7)] {
            let ranges = (0..<workers).map { Parallel.chunk($0, of: workers, count: count) }
            XCTAssertEqual(ranges.first?.lowerBound, 0)
            XCTAssertEqual(ranges.last?.upperBound, count)
            for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound) }
            XCTAssertLessThanOrEqual(ranges.map(\.count).max()! - ranges.map(\.count).min()!, 1)
        }
    }

    func testForEachChunkVisitsEveryIndexOnceAndNestsInline() {
        withThreads(2) {
            let lock = NSLock()
            var seen = [Int](repeating: 0, count: 1000)
            var workersSeen = Set<Int>()
            var nestedWorkerCounts: [Int] = []
            Parallel.forEachChunk(1000) { range, worker in
                XCTAssertTrue(Parallel.isInsideParallelRegion)
                let nested = Parallel.workerCount(for: 100)
                lock.lock()
                for i in range { seen[i] += 1 }
                workersSeen.insert(worker)
                nestedWorkerCounts.append(nested)
                lock.unlock()
            }
            XCTAssertEqual(seen, [Int](repeating: 1, count: 1000))
            XCTAssertEqual(workersSeen, [0, 1])
            XCTAssertEqual(nestedWorkerCounts, [1, 1], "nested loops run inline on their worker")
            XCTAssertFalse(Parallel.isInsideParallelRegion, "the flag is restored on the calling thread")
            XCTAssertEqual(Parallel.workerCount(for: 100), 2)
        }
    }

    /// A kernel that sized per-worker buffers keeps its partition even when another thread
    /// sets `threadCount` meanwhile (here: the workers themselves, under the setting's lock).
    func testExplicitWorkerCountSurvivesAThreadCountChange() {
        withThreads(2) {
            let lock = NSLock()
            var seen = [Int](repeating: 0, count: 90)
            var workers = Set<Int>()
            Parallel.forEachChunk(90, workers: 3) { range, worker in
                Parallel.threadCount = 1 + worker
                lock.lock()
                for i in range { seen[i] += 1 }
                workers.insert(worker)
                lock.unlock()
            }
            XCTAssertEqual(seen, [Int](repeating: 1, count: 90))
            XCTAssertEqual(workers, [0, 1, 2])
            XCTAssertTrue((1...3).contains(Parallel.threadCount))
        }
    }

    func testSingleThreadRunsInline() {
        withThreads(1) {
            var calls = 0
            Parallel.forEachChunk(50) { range, worker in
                XCTAssertEqual(range, 0..<50)
                XCTAssertEqual(worker, 0)
                calls += 1
            }
            XCTAssertEqual(calls, 1)
            Parallel.forEachChunk(0) { _, _ in XCTFail("empty work must not call the body") }
        }
    }

    func testGEMMMatchesNaiveProductForAllTransposes() {
        var random = TestRandom(seed: 21)
        let m = 5, n = 7, k = 3
        let a = random.floats(m * k), b = random.floats(k * n), c0 = random.floats(m * n)
        for transposeA in [false, true] {
            for transposeB in [false, true] {
                // Store A and B in the layout each transpose flag expects.
                let aStored = transposeA ? (0..<(k * m)).map { a[($0 % m) * k + $0 / m] } : a
                let bStored = transposeB ? (0..<(n * k)).map { b[($0 % k) * n + $0 / k] } : b
                var c = c0
                aStored.withUnsafeBufferPointer { ap in bStored.withUnsafeBufferPointer { bp in c.withPointer { cp in
                    GEMM.multiply(transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: 2,
                                  a: ap.baseAddress!, lda: transposeA ? m : k, b: bp.baseAddress!, ldb: transposeB ? k : n,
                                  beta: 0.5, c: cp, ldc: n)
                } } }
                var expected = [Double](repeating: 0, count: m * n)
                for i in 0..<m {
                    for j in 0..<n {
                        var sum = 0.0
                        for p in 0..<k { sum += Double(a[i * k + p]) * Double(b[p * n + j]) }
                        expected[i * n + j] = 2 * sum + 0.5 * Double(c0[i * n + j])
                    }
                }
                assertClose(c, expected, tolerance: 1e-5, "transposeA \(transposeA) transposeB \(transposeB)")
            }
        }
    }

    func testGEMMWithEmptyInnerDimensionScalesC() {
        var c: [Float] = [1, 2, 3, 4]
        let dummy: [Float] = [0]
        dummy.withUnsafeBufferPointer { p in c.withPointer { cp in
            GEMM.multiply(transposeA: false, transposeB: false, m: 2, n: 2, k: 0, a: p.baseAddress!, lda: 1,
                          b: p.baseAddress!, ldb: 2, beta: 3, c: cp, ldc: 2)
        } }
        XCTAssertEqual(c, [3, 6, 9, 12])
    }

    /// Inside `withWorkerTeam`, loops run on the team with `forEachChunk`'s own partition: every
    /// index once, chunk w as worker w whoever runs it, nested loops inline. Many back-to-back
    /// loops (a forward pass has ~50) and loops after a pause long enough for the helpers to fall
    /// asleep both complete; a loop with another worker count runs as usual; stopping is idempotent.
    func testWorkerTeamRunsTheSamePartitionAndSleepsWhenIdle() {
        withThreads(3) {
            let team = WorkerTeam(size: 3)
            let lock = NSLock()
            var chunks: [Int: Set<Range<Int>>] = [:]
            var threads = Set<String>()
            Parallel.withWorkerTeam(team) {
                for round in 0..<200 {
                    if round == 100 { Thread.sleep(forTimeInterval: 4 * WorkerTeam.spinSeconds) }
                    var seen = [Int](repeating: 0, count: 50)
                    Parallel.forEachChunk(50, workers: 3) { range, worker in
                        XCTAssertTrue(Parallel.isInsideParallelRegion)
                        XCTAssertEqual(Parallel.workerCount(for: 100), 1, "nested loops run inline")
                        // The caller's chunk 0 takes a while in the first loops, leaving the
                        // others to helpers even when another process is busy on the cores.
                        if worker == 0 && round < 20 { usleep(300) }
                        lock.lock()
                        for i in range { seen[i] += 1 }
                        chunks[worker, default: []].insert(range)
                        threads.insert("\(pthread_self())")
                        lock.unlock()
                    }
                    XCTAssertEqual(seen, [Int](repeating: 1, count: 50), "round \(round)")
                }
                // Two workers of a three-worker team: not the team's loop, it runs as usual.
                var sum = 0
                Parallel.forEachChunk(10, workers: 2) { range, _ in lock.lock(); sum += range.reduce(0, +); lock.unlock() }
                XCTAssertEqual(sum, 45)
            }
            XCTAssertEqual(chunks, [0: [Parallel.chunk(0, of: 3, count: 50)], 1: [Parallel.chunk(1, of: 3, count: 50)],
                                    2: [Parallel.chunk(2, of: 3, count: 50)]])
            // Who runs a chunk is not fixed; helpers took those the caller was too busy for.
            XCTAssertGreaterThan(threads.count, 1, "helpers took part")
            XCTAssertFalse(Parallel.isInsideParallelRegion)
            team.stop()
            team.stop()
        }
    }

    /// A helper that never gets a core (here: never started) must not hold up a loop: the
    /// caller runs the chunks nobody claimed, each as its own worker index. (The first team
    /// waited for its helpers and ran 2–3× slower beside a busy process.)
    func testWorkerTeamCallerRunsChunksNoHelperClaimed() {
        withThreads(4) {
            let team = WorkerTeam(size: 4, startsHelpers: false)
            var calls: [(Range<Int>, Int)] = []
            Parallel.withWorkerTeam(team) {
                for _ in 0..<3 {
                    calls.removeAll()
                    Parallel.forEachChunk(10, workers: 4) { range, worker in calls.append((range, worker)) }
                    XCTAssertEqual(calls.map(\.1), [0, 1, 2, 3], "claimed in order, on the caller alone")
                    XCTAssertEqual(calls.map(\.0), (0..<4).map { Parallel.chunk($0, of: 4, count: 10) })
                }
            }
            team.stop()
        }
    }

    /// A team stopped before its helper threads have begun (a model made and released at once)
    /// must not wait for them forever: they used to read stop's generation as the one they had
    /// seen and sleep. A watchdog turns a hang into a failure.
    func testATeamStoppedBeforeItsHelpersStartDoesNotHang() {
        let done = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<300 { WorkerTeam(size: 3).stop() }
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "stop() waited for a helper that never woke")
    }
}

final class VectorAccumulateTests: XCTestCase {
    /// The split sum adds every element exactly once, at sizes below, at and above the split
    /// threshold, with a tail that is not a whole vector, on any thread count.
    func testParallelAccumulateAddsEveryElementOnce() {
        for count in [0, 5, 65_535, 65_536, 65_536 * 3 + 5] {
            let x = (0..<count).map { Float($0 % 1_000) * 0.25 }
            let start = (0..<count).map { Float($0 % 7) - 3 }
            let expected = zip(start, x).map { $0 + $1 }
            for threads in [1, 2, 3] {
                withThreads(threads) {
                    var y = start
                    x.withUnsafeBufferPointer { xs in
                        y.withUnsafeMutableBufferPointer {
                            if let base = xs.baseAddress { Vector.accumulateInParallel(base, into: $0.baseAddress!, count: count) }
                        }
                    }
                    XCTAssertEqual(y, expected, "\(count) floats, \(threads) threads")
                }
            }
        }
    }

    /// Partials are added to the target in their order — values chosen so another order rounds
    /// differently (1e8 + 1 loses the 1) — on any thread count.
    func testAddInOrderAddsPartsInTheirOrder() {
        let count = 70_001, parts = 3
        // y = 1e8, then small, −1e8, small: in order the first small term is lost and the last kept.
        let start = [Float](repeating: 1e8, count: count)
        let values = (0..<parts * count).map { index -> Float in
            let part = index / count, small = Float(1 + index % 3)
            return part == 1 ? -1e8 : small
        }
        let expected = (0..<count).map { i -> Float in
            var total = start[i]
            for part in 0..<parts { total += values[part * count + i] }
            return total
        }
        let reversed = ((values[2 * count] + values[count]) + values[0]) + start[0]
        XCTAssertNotEqual(expected[0], reversed, "the values must tell orders apart")
        for threads in [1, 2, 3] {
            withThreads(threads) {
                var y = start
                values.withUnsafeBufferPointer { source in
                    y.withUnsafeMutableBufferPointer {
                        Vector.addInOrder(source.baseAddress!, partCount: parts, count: count, to: $0.baseAddress!)
                    }
                }
                XCTAssertEqual(y, expected, "\(threads) threads")
                var untouched = start
                values.withUnsafeBufferPointer { source in
                    untouched.withUnsafeMutableBufferPointer {
                        Vector.addInOrder(source.baseAddress!, partCount: 0, count: count, to: $0.baseAddress!)
                    }
                }
                XCTAssertEqual(untouched, start, "no partials: the target is left as it is")
            }
        }
    }
}
