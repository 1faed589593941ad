import XCTest
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
}
