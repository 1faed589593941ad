import XCTest
import Foundation
@testable import Augment
import Data
import Support

/// `batches(fromEpoch:startingAtBatch:)` resumes an interrupted run: the same batches as the
/// uninterrupted stream from that point, for any worker count, without making the skipped ones.
final class LoaderResumeTests: XCTestCase {
    /// Counts image loads (primary screens, mosaic/mixup partners, paste donors) across threads.
    final class LoadCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var loads = 0
        func add() { lock.lock(); loads += 1; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return loads }
    }

    struct CountingSource: SampleSource {
        let base: InMemorySource
        let counter: LoadCounter
        var count: Int { base.count }
        func annotations(at position: Int) -> [Annotation] { base.annotations(at: position) }
        func load(_ position: Int) throws -> AnnotatedImage { counter.add(); return try base.load(position) }
        func sampleIndex(at position: Int) -> Int { base.sampleIndex(at: position) }
    }

    /// LoaderTests' loader (mosaic, copy-paste, repeat-factor sampling; batch 4, prefetch 2).
    func makeLoader(workers: Int, counter: LoadCounter = LoadCounter()) throws -> DataLoader {
        let source = CountingSource(base: syntheticSource(count: 11), counter: counter)
        var preset = AugmentPreset()
        preset.mosaic.probability = 0.5
        preset.copyPaste.probability = 0.5
        preset.scaleTranslate.probability = 1
        preset.hsv.probability = 1
        preset.sampling.repeatThreshold = 0.5
        var options = DataLoader.Options()
        options.batchSize = 4
        options.workers = workers
        options.prefetch = 2
        options.seed = 7
        return try DataLoader(source: source, pipeline: AugmentPipeline(preset: preset, source: source, outputWidth: 32, outputHeight: 64),
                              options: options)
    }

    func take(_ stream: BatchStream, _ count: Int) throws -> [(epoch: Int, index: Int, batch: Batch)] {
        defer { stream.cancel() }
        return try (0..<count).map { _ in try XCTUnwrap(try stream.next()) }
    }

    func testResumedStreamIsTheUninterruptedOneFromThatBatch() throws {
        let reference = try makeLoader(workers: 0)
        let first = reference.batchCount(epoch: 0), second = reference.batchCount(epoch: 1)
        XCTAssertGreaterThan(second, 2)
        let uninterrupted = try take(reference.batches(fromEpoch: 0), first + second + 2)
        for workers in [0, 1, 2] {
            let loader = try makeLoader(workers: workers)
            for (epoch, start) in [(0, 0), (0, 1), (1, 2), (1, second - 1)] {
                let offset = (epoch == 0 ? 0 : first) + start
                let resumed = try take(try loader.batches(fromEpoch: epoch, startingAtBatch: start), 3)
                for (got, want) in zip(resumed, uninterrupted[offset..<(offset + 3)]) {
                    let context = "workers \(workers), resumed at (\(epoch), \(start)), batch (\(want.epoch), \(want.index))"
                    XCTAssertEqual(got.epoch, want.epoch, context)
                    XCTAssertEqual(got.index, want.index, context)
                    XCTAssertEqual(got.batch.sampleIndices, want.batch.sampleIndices, context)
                    XCTAssertEqual(got.batch.targets, want.batch.targets, context)
                    XCTAssertEqual(got.batch.images.shape, want.batch.images.shape, context)
                    XCTAssertTrue(got.batch.images.values.map(\.bitPattern) == want.batch.images.values.map(\.bitPattern), context)
                }
            }
        }
    }

    func testSkippedBatchesAreNotMade() throws {
        // Inline: every image load happens inside next(), so the loads of a resumed stream's
        // first batch are exactly that batch's loads in an uninterrupted run.
        let counter = LoadCounter()
        let loader = try makeLoader(workers: 0, counter: counter)
        let stream = loader.batches(fromEpoch: 1)
        var loadsPerBatch: [Int] = []
        for _ in 0..<3 {
            let before = counter.count
            _ = try stream.next()
            loadsPerBatch.append(counter.count - before)
        }
        stream.cancel()
        let before = counter.count
        let resumed = try loader.batches(fromEpoch: 1, startingAtBatch: 2)
        _ = try resumed.next()
        XCTAssertEqual(counter.count - before, loadsPerBatch[2], "only batch 2 was made")

        // Workers: nothing below the starting batch is claimed (global numbers count from the epoch's batch 0).
        let threaded = try makeLoader(workers: 2)
        let log = LoaderTests.ProductionLog()
        threaded.observer = log.record
        let workers = try threaded.batches(fromEpoch: 1, startingAtBatch: 2)
        XCTAssertNotNil(try workers.next())
        XCTAssertTrue(log.waitForFinished(2))
        workers.cancel()
        XCTAssertEqual(log.claimed.min(), 2)
    }

    func testStartingOutsideTheEpochIsAnError() throws {
        let loader = try makeLoader(workers: 0)
        let count = loader.batchCount(epoch: 3)
        XCTAssertThrowsError(try loader.batches(fromEpoch: 3, startingAtBatch: count)) { error in
            XCTAssertTrue("\(error)".contains("epoch 3 has batches 0…\(count - 1)") && "\(error)".contains("epoch 4, batch 0"), "\(error)")
        }
        XCTAssertThrowsError(try loader.batches(fromEpoch: 3, startingAtBatch: -1))
        XCTAssertThrowsError(try loader.batches(fromEpoch: -1, startingAtBatch: 0)) { XCTAssertTrue("\($0)".contains("epochs count from 0"), "\($0)") }
    }
}
