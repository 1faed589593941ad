import XCTest
import Foundation
@testable import Augment
import Data
import Support

/// close_mosaic: from its epoch on the loader serves exactly what a loader of the unmixed preset
/// serves, and before it exactly what the plain loader serves — so a resumed run crosses the
/// switch as an uninterrupted one does.
final class CloseMosaicTests: XCTestCase {
    let source = syntheticSource(count: 11)

    var preset: AugmentPreset {
        var preset = AugmentPreset()
        preset.mosaic.probability = 1
        preset.mixUp.probability = 0.5
        preset.copyPaste.probability = 0.5
        preset.hsv.probability = 1
        preset.hsv.value = 0.3
        preset.sampling.repeatThreshold = 0.5
        return preset
    }

    func loader(_ preset: AugmentPreset, closingFrom epoch: Int? = nil) throws -> DataLoader {
        var options = DataLoader.Options()
        options.batchSize = 4
        options.workers = 1
        options.seed = 3
        func pipeline(_ p: AugmentPreset) -> AugmentPipeline { AugmentPipeline(preset: p, source: source, outputWidth: 32, outputHeight: 64) }
        return try DataLoader(source: source, pipeline: pipeline(preset), options: options,
                              closing: epoch.map { ($0, pipeline(preset.unmixed)) })
    }

    func images(_ loader: DataLoader, epoch: Int) throws -> [[Float]] {
        let batches = loader.epoch(epoch)
        var all: [[Float]] = []
        while let batch = try batches.next() { all.append(batch.images.values) }
        return all
    }

    func testEpochsBeforeTheSwitchArePlainAndAfterItUnmixed() throws {
        let closing = try loader(preset, closingFrom: 2), plain = try loader(preset), unmixed = try loader(preset.unmixed)
        XCTAssertEqual(preset.unmixed.mosaic.probability, 0)
        XCTAssertEqual(preset.unmixed.hsv, preset.hsv, "the rest of the preset stays")
        for epoch in 0..<2 { XCTAssertEqual(try images(closing, epoch: epoch), try images(plain, epoch: epoch)) }
        XCTAssertEqual(try images(closing, epoch: 2), try images(unmixed, epoch: 2))
        XCTAssertNotEqual(try images(closing, epoch: 2), try images(plain, epoch: 2))
        XCTAssertEqual(closing.batchCount(epoch: 2), plain.batchCount(epoch: 2), "sampling is the first pipeline's")
    }

    func testAResumedStreamCrossesTheSwitchAsTheUninterruptedOne() throws {
        let closing = try loader(preset, closingFrom: 2)
        let count = closing.batchCount(epoch: 1)
        let resumed = try closing.batches(fromEpoch: 1, startingAtBatch: count - 1)
        defer { resumed.cancel() }
        _ = try resumed.next()
        let expected = try images(closing, epoch: 2)
        for values in expected {
            let (epoch, _, batch) = try XCTUnwrap(try resumed.next())
            XCTAssertEqual(epoch, 2)
            XCTAssertEqual(batch.images.values, values)
        }
    }
}
