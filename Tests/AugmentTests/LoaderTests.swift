import XCTest
import Foundation
@testable import Augment
import Data
import Support

final class LoaderTests: XCTestCase {
    func makeLoader(workers: Int, seed: UInt64 = 7) throws -> DataLoader {
        let source = syntheticSource(count: 11)
        var preset = AugmentPreset()
        preset.mosaic.probability = 0.5
        preset.copyPaste.probability = 0.5
        preset.scaleTranslate.probability = 1
        preset.scaleTranslate.scale = 0.8...1.2
        preset.hsv.probability = 1
        preset.hsv.value = 0.3
        preset.sampling.repeatThreshold = 0.5
        var options = DataLoader.Options()
        options.batchSize = 4
        options.workers = workers
        options.prefetch = 2
        options.seed = seed
        return try DataLoader(source: source, pipeline: AugmentPipeline(preset: preset, source: source, outputWidth: 32, outputHeight: 64),
                              options: options)
    }

    func collect(_ loader: DataLoader, epoch: Int) throws -> [Batch] {
        let batches = loader.epoch(epoch)
        var all: [Batch] = []
        while let batch = try batches.next() { all.append(batch) }
        XCTAssertEqual(all.count, batches.count)
        return all
    }

    func testSameBatchesWithOneAndTwoWorkers() throws {
        let inline = try collect(try makeLoader(workers: 0), epoch: 1)
        let one = try collect(try makeLoader(workers: 1), epoch: 1)
        let two = try collect(try makeLoader(workers: 2), epoch: 1)
        XCTAssertGreaterThan(one.count, 2)
        for (a, b) in Array(zip(one, two)) + Array(zip(one, inline)) {
            XCTAssertEqual(a.images.shape, b.images.shape)
            XCTAssertEqual(a.images.values, b.images.values)
            XCTAssertEqual(a.targets, b.targets)
            XCTAssertEqual(a.sampleIndices, b.sampleIndices)
        }
        let otherSeed = try collect(try makeLoader(workers: 2, seed: 8), epoch: 1)
        XCTAssertNotEqual(one.flatMap(\.sampleIndices), otherSeed.flatMap(\.sampleIndices))
    }

    func testBatchShapesAndTargetsInInputPixels() throws {
        let loader = try makeLoader(workers: 2)
        let batches = try collect(loader, epoch: 0)
        XCTAssertEqual(batches.flatMap(\.sampleIndices).sorted(), loader.epochOrder(0).sorted())
        for batch in batches {
            XCTAssertEqual(Array(batch.images.shape.dropFirst()), [3, 64, 32])
            XCTAssertEqual(batch.images.shape[0], batch.targets.count)
            for box in batch.targets.joined().map(\.box) { XCTAssert(box.minX >= 0 && box.maxX <= 32 && box.minY >= 0 && box.maxY <= 64) }
            XCTAssertTrue(batch.images.values.allSatisfy { $0.isFinite })
        }
    }

    func testStoppingEarlyDoesNotHang() throws {
        let loader = try makeLoader(workers: 2)
        var batches: EpochBatches? = loader.epoch(0)
        _ = try batches?.next()
        batches = nil  // workers blocked on the prefetch bound must wake up and exit
        XCTAssertNotNil(try loader.epoch(1).next())
    }

    func testFailingSampleSurfacesAsAnError() throws {
        struct Broken: SampleSource {
            var count: Int { 3 }
            func annotations(at position: Int) -> [Annotation] { [] }
            func load(_ position: Int) throws -> AnnotatedImage { throw LoaderError(message: "image \(position) is truncated") }
            func sampleIndex(at position: Int) -> Int { position }
        }
        let loader = try DataLoader(source: Broken(), pipeline: AugmentPipeline(preset: AugmentPreset(), source: Broken()), options: .init())
        XCTAssertThrowsError(try loader.epoch(0).next()) { XCTAssertTrue("\($0)".contains("truncated")) }
    }

    func testAugmentedSampleIsWhatTheBatchHolds() throws {
        let loader = try makeLoader(workers: 1)
        let batch = try XCTUnwrap(try loader.epoch(2).next())
        let (index, sample) = try loader.augmentedSample(epoch: 2, position: 1)
        XCTAssertEqual(index, batch.sampleIndices[1])
        XCTAssertEqual(sample.annotations, batch.targets[1])
        let plane = 32 * 64
        XCTAssertEqual(batch.images.values[3 * plane + 5], Float(sample.image.pixels[5 * 3]) / 255, accuracy: 1e-6,
                       "red channel of pixel 5 of image 1")
    }

    /// Records the workers' events and lets the test wait for the n-th finished batch.
    final class ProductionLog: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [BatchProduction.Event] = []
        private let finishedSignal = DispatchSemaphore(value: 0)

        func record(_ event: BatchProduction.Event) {
            lock.lock(); events.append(event); lock.unlock()
            if case .finished = event { finishedSignal.signal() }
        }

        var claimed: [Int] { lock.lock(); defer { lock.unlock() }; return events.compactMap { if case .claimed(let i, _) = $0 { return i }; return nil } }
        var finishedCount: Int { lock.lock(); defer { lock.unlock() }; return events.filter { if case .finished = $0 { return true }; return false }.count }
        var mostAhead: Int { lock.lock(); defer { lock.unlock() }; return events.compactMap { if case .claimed(_, let a) = $0 { return a }; return nil }.max() ?? 0 }

        /// Waits for `count` more finished batches (the timeout only guards against a hang).
        func waitForFinished(_ count: Int) -> Bool {
            (0..<count).allSatisfy { _ in finishedSignal.wait(timeout: .now() + 60) == .success }
        }
    }

    func testWorkersRunAheadUpToThePrefetchBoundAndNoFurther() throws {
        let loader = try makeLoader(workers: 2)  // prefetch 2
        let log = ProductionLog()
        loader.observer = log.record
        let batches = loader.epoch(0)
        XCTAssertGreaterThanOrEqual(batches.count, 3)
        // Nothing taken yet: the workers make the first `prefetch` batches on their own…
        XCTAssertTrue(log.waitForFinished(2))
        // …and no more: claiming batch 2 needs nextToTake ≥ 1, so this holds however the threads run.
        XCTAssertEqual(log.claimed, [0, 1])
        XCTAssertNotNil(try batches.next())
        XCTAssertTrue(log.waitForFinished(1))
        XCTAssertEqual(log.claimed, [0, 1, 2], "taking one batch frees exactly one slot")
        while try batches.next() != nil {}
        XCTAssertEqual(log.claimed, Array(0..<batches.count), "each batch is made once, in order of claims")
        XCTAssertEqual(log.mostAhead, 2, "never more than `prefetch` batches claimed but not taken")
    }

    /// `waitUntilAhead` (what `bench train --loader-share` waits on before timing) returns only
    /// once the workers have made every batch the prefetch bound allows and are idle; with the
    /// pipeline inline (no workers) at once.
    func testWaitUntilAheadReturnsOnceThePrefetchBoundIsMade() throws {
        let loader = try makeLoader(workers: 2)  // prefetch 2
        let log = ProductionLog()
        loader.observer = log.record
        let stream = loader.batches(fromEpoch: 0)
        for _ in 0..<3 { XCTAssertNotNil(try stream.next()) }
        stream.waitUntilAhead()
        XCTAssertEqual(log.claimed, [0, 1, 2, 3, 4], "three taken, two ahead")
        XCTAssertEqual(log.finishedCount, 5, "every claimed batch finished before it returned")
        stream.cancel()

        let inline = try makeLoader(workers: 0).batches(fromEpoch: 0)
        inline.waitUntilAhead()
        XCTAssertNotNil(try inline.next())
    }

    func testStreamPrefetchesTheNextEpochAndMatchesEpochByEpoch() throws {
        let loader = try makeLoader(workers: 2)  // prefetch 2
        let first = loader.batchCount(epoch: 0)
        let log = ProductionLog()
        loader.observer = log.record
        let stream = loader.batches(fromEpoch: 0)
        var streamed: [(epoch: Int, index: Int, batch: Batch)] = []
        for _ in 0..<(first - 1) { streamed.append(try XCTUnwrap(try stream.next())) }
        // One batch of epoch 0 still untaken: the workers are already on epoch 1's first batch.
        XCTAssertTrue(log.waitForFinished(first + 1))
        XCTAssertEqual(log.claimed.last, first, "global batch \(first) = epoch 1, batch 0")
        for _ in 0..<3 { streamed.append(try XCTUnwrap(try stream.next())) }
        stream.cancel()
        XCTAssertNil(try stream.next())

        let expected = try collect(loader, epoch: 0) + collect(loader, epoch: 1)
        XCTAssertEqual(streamed.map(\.epoch), Array(repeating: 0, count: first) + [1, 1])
        XCTAssertEqual(streamed.map(\.index), Array(0..<first) + [0, 1])
        for (got, want) in zip(streamed.map(\.batch), expected) {
            XCTAssertEqual(got.sampleIndices, want.sampleIndices)
            XCTAssertEqual(got.targets, want.targets)
            XCTAssertEqual(got.images.values, want.images.values)
        }
    }

    func testDropLastWithTooFewSamplesIsAnError() throws {
        let source = syntheticSource(count: 3)
        var options = DataLoader.Options()
        options.batchSize = 4
        options.dropLast = true
        XCTAssertThrowsError(try DataLoader(source: source, pipeline: AugmentPipeline(preset: AugmentPreset(), source: source),
                                            options: options)) { error in
            XCTAssertTrue("\(error)".contains("leaves no batch"), "\(error)")
        }
    }
}
