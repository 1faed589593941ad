import Augment
import Benchmarks
import Data
import Imaging
import Support
import XCTest

final class LoaderBenchmarkTests: XCTestCase {
    /// Eleven small screens with a few boxes each; an inline loader (batch 4) with mosaic and copy-paste.
    func makeInlineLoader() throws -> DataLoader {
        var random = SeededRandom(seed: 99)
        let items = (0..<11).map { i -> AnnotatedImage in
            var image = RGBImage(width: 60, height: 120)
            for y in 0..<120 { for x in 0..<60 { image[x, y] = RGB(UInt8(truncatingIfNeeded: x + i), UInt8(y), 7) } }
            let boxes = (0..<random.int(in: 1...4)).map { _ in
                Annotation(classIndex: random.int(in: 0...1), box: BoundingBox(x: random.uniform(0, 40), y: random.uniform(0, 100), width: 12, height: 8))
            }
            return AnnotatedImage(image: image, annotations: boxes)
        }
        let source = InMemorySource(items)
        var preset = AugmentPreset()
        preset.mosaic.probability = 0.5
        preset.copyPaste.probability = 0.5
        var options = DataLoader.Options()
        options.batchSize = 4
        options.workers = 0  // inline: every batch is made while the trainer waits
        return try DataLoader(source: source, pipeline: AugmentPipeline(preset: preset, source: source, outputWidth: 32, outputHeight: 64),
                              options: options)
    }

    func testFeedTimesWaitingApartFromTraining() throws {
        let loader = try makeInlineLoader()
        var seen: [[Int]] = []
        let result = try LoaderBenchmark.feed(loader, steps: 5, progress: false) { batch in seen.append(batch.sampleIndices) }
        XCTAssertEqual(seen.count, 6, "one warm-up step, then the timed ones")
        XCTAssertEqual(result.steps, 5)
        XCTAssertEqual(result.images, seen.dropFirst().map(\.count).reduce(0, +))
        let stream = loader.batches(fromEpoch: 0)
        let expected = try (0..<6).map { _ in try XCTUnwrap(try stream.next()).batch.sampleIndices }
        XCTAssertEqual(seen, expected, "the loader's batches in order, across the epoch boundary")
        XCTAssertGreaterThan(loader.batchCount(epoch: 0), 1)
        XCTAssertLessThan(loader.batchCount(epoch: 0), 6, "the six batches cross into epoch 1")
        XCTAssertGreaterThan(result.waitShare, 0.5, "an inline loader with an instant trainer: the time is all waiting")
    }

    func testRunMeasuresTakenBatches() throws {
        let result = try LoaderBenchmark.run(try makeInlineLoader(), seconds: 0, progress: false)
        XCTAssertTrue((2...8).contains(result.images), "at least two timed batches of at most 4: \(result.images)")
        XCTAssertGreaterThan(result.imagesPerSecond, 0)
    }
}
