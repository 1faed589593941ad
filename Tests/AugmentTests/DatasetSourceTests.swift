import XCTest
@testable import Augment
import Data
import Imaging
import Support

final class DatasetSourceTests: XCTestCase {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("augment-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testLoadsTheSplitsImagesWithTheirBoxes() throws {
        let root = try temporaryFolder()
        let image = patternedImage(width: 12, height: 20, seed: 5)
        try ImageIO.writePNG(image, to: root.appendingPathComponent("a.png"))
        try ImageIO.writePNG(patternedImage(width: 8, height: 8), to: root.appendingPathComponent("b.png"))
        let dataset = Dataset(root: root, classes: ["Text"], samples: [
            Sample(id: "b", imagePath: "b.png", width: 8, height: 8),
            Sample(id: "a", imagePath: "a.png", width: 12, height: 20, annotations: [annotation(0, 1, 2, 3, 4)]),
        ], splits: ["train": [1], "val": [0]])
        let source = try DatasetSource(dataset: dataset, split: "train")
        XCTAssertEqual(source.count, 1)
        XCTAssertEqual(source.sampleIndex(at: 0), 1)
        let loaded = try source.load(0)
        XCTAssertEqual(loaded.image, image)
        XCTAssertEqual(loaded.annotations, [annotation(0, 1, 2, 3, 4)])
        XCTAssertThrowsError(try DatasetSource(dataset: dataset, split: "tarin")) { XCTAssertTrue("\($0)".contains("tarin")) }
    }

    func testDeclaredSizeMismatchIsAnError() throws {
        let root = try temporaryFolder()
        try ImageIO.writePNG(patternedImage(width: 12, height: 20), to: root.appendingPathComponent("a.png"))
        let dataset = Dataset(root: root, classes: ["Text"], samples: [Sample(id: "a", imagePath: "a.png", width: 24, height: 40)])
        XCTAssertThrowsError(try DatasetSource(dataset: dataset, split: nil).load(0)) { error in
            XCTAssertTrue("\(error)".contains("declares 24×40"), "\(error)")
        }
    }

    /// `data.cache: ram`: every screen that decodes is kept, exactly as `load` decodes it (and
    /// served after its file is gone); one that does not is left out and `load` reports the same
    /// error as without the cache, so the trainer's tolerant source sees the same failures.
    func testCachedScreensAreTheDecodedOnesAndUnreadableOnesStillReport() throws {
        let root = try temporaryFolder()
        let sizes = [(12, 20), (8, 8), (30, 14), (16, 16), (9, 21)]
        for (i, (width, height)) in sizes.enumerated() where i != 1 && i != 3 {
            try ImageIO.writePNG(patternedImage(width: width, height: height, seed: UInt8(i)), to: root.appendingPathComponent("\(i).png"))
        }
        try Data("not an image".utf8).write(to: root.appendingPathComponent("1.png"))  // 3.png is missing
        var samples = sizes.enumerated().map { i, size in
            Sample(id: "\(i)", imagePath: "\(i).png", width: size.0, height: size.1, annotations: [annotation(0, 1, 1, 2, 2)])
        }
        samples[4] = Sample(id: "4", imagePath: "4.png", width: 18, height: 42)  // declares another size than its file's
        let dataset = Dataset(root: root, classes: ["Text"], samples: samples, splits: ["train": [4, 3, 2, 1, 0]])
        let source = try DatasetSource(dataset: dataset, split: "train")
        XCTAssertEqual(DecodedScreenCache.bytesNeeded(for: source), 18 * 42 * 3 + 16 * 16 * 3 + 30 * 14 * 3 + 8 * 8 * 3 + 12 * 20 * 3)

        let lines = LockedStrings()
        let progress = ProgressLine("caching", total: source.count, unit: "screens", isTerminal: false, write: { lines.append($0) })
        let cached = source.cachingDecodedScreens(workers: 2, progress: progress)
        let cache = try XCTUnwrap(cached.cache)
        XCTAssertNil(source.cache, "the source it was made from still reads from disk")
        XCTAssertEqual(progress.done, 5)
        XCTAssertTrue(lines.all.joined().contains("5/5"), "\(lines.all)")
        XCTAssertEqual(cache.failures, 3)
        XCTAssertEqual(cache.bytes, 30 * 14 * 3 + 12 * 20 * 3)
        for position in 0..<source.count {
            switch (Result { try source.load(position) }, Result { try cached.load(position) }) {
            case let (.success(read), .success(kept)):
                XCTAssertEqual(kept.image, read.image, "position \(position)")
                XCTAssertEqual(kept.annotations, read.annotations)
            case let (.failure(read), .failure(kept)):
                XCTAssertEqual("\(kept)", "\(read)", "position \(position): the same error with the cache")
            default:
                XCTFail("position \(position): loads with and without the cache disagree")
            }
        }
        for file in ["0.png", "2.png"] { try FileManager.default.removeItem(at: root.appendingPathComponent(file)) }
        XCTAssertEqual(try cached.load(2).image, patternedImage(width: 30, height: 14, seed: 2), "kept in memory, not read again")
        XCTAssertEqual(try cached.load(4).image, patternedImage(width: 12, height: 20, seed: 0))
        XCTAssertThrowsError(try source.load(4), "the uncached source reads the file, which is gone")
    }

    /// The pipeline (mosaic, copy-paste, mixup, in-place colour jitter) gives the same samples from
    /// the cached screens, and never writes into them.
    func testThePipelineGivesTheSameSamplesFromCachedScreens() throws {
        let root = try temporaryFolder()
        var samples: [Sample] = []
        for i in 0..<6 {
            try ImageIO.writePNG(patternedImage(width: 40, height: 80, seed: UInt8(3 * i)), to: root.appendingPathComponent("\(i).png"))
            samples.append(Sample(id: "\(i)", imagePath: "\(i).png", width: 40, height: 80,
                                  annotations: [annotation(i % 2, 4, 6, 20, 10), annotation(1 - i % 2, 10, 40, 12, 30)]))
        }
        let source = try DatasetSource(dataset: Dataset(root: root, classes: ["Text", "Icon"], samples: samples), split: nil)
        let cached = source.cachingDecodedScreens(workers: 3)
        var preset = AugmentPreset()
        preset.mosaic.probability = 0.5
        preset.copyPaste.probability = 0.5
        preset.mixUp.probability = 0.3
        preset.scaleTranslate.probability = 0.5
        preset.hsv.probability = 1
        preset.hsv.value = 0.4
        preset.grayscaleProbability = 0.3
        preset.flipProbability = 0.5
        let pipeline = AugmentPipeline(preset: preset, source: source, classNames: ["Text", "Icon"], outputWidth: 40, outputHeight: 80)
        for seed in 0..<24 {
            var a = SeededRandom(seed: UInt64(seed)), b = SeededRandom(seed: UInt64(seed))
            let read = try pipeline.augment(seed % 6, from: source, random: &a)
            let kept = try pipeline.augment(seed % 6, from: cached, random: &b)
            XCTAssertEqual(kept.image, read.image, "seed \(seed)")
            XCTAssertEqual(kept.annotations, read.annotations, "seed \(seed)")
        }
        for position in 0..<6 { XCTAssertEqual(try cached.load(position).image, try source.load(position).image, "screen \(position) unchanged") }
    }

    func testCachingIsRefusedWhenTheScreensWouldTakeOverHalfTheAvailableMemory() throws {
        XCTAssertNil(DecodedScreenCache.refusal(needed: 1_570_000_000, available: 4_000_000_000))
        let refusal = try XCTUnwrap(DecodedScreenCache.refusal(needed: 1_570_000_000, available: 3_000_000_000))
        XCTAssertTrue(refusal.contains("1.57 GB") && refusal.contains("3.00 GB"), refusal)
        XCTAssertTrue(try XCTUnwrap(DecodedScreenCache.refusal(needed: 1, available: nil)).contains("/proc/meminfo"))
        #if os(Linux)
        XCTAssertGreaterThan(try XCTUnwrap(DecodedScreenCache.availableMemory()), 0)
        #endif
    }
}

/// Lines a progress line writes from any thread.
final class LockedStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
