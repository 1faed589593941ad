import XCTest
@testable import Augment
import Data
import Imaging
import Support

final class CopyPasteTests: XCTestCase {
    func donor() -> AnnotatedImage {
        AnnotatedImage(image: patternedImage(width: 50, height: 50, seed: 9), annotations: [
            annotation(3, 10.5, 10, 20, 10),  // the element
            annotation(4, 12, 12, 5, 5),      // an icon inside it: comes along
            annotation(2, 0, 0, 50, 50),      // the screen-sized container around it: 8% inside → dropped
        ])
    }

    func testCropRoundsOutToWholePixelsAndCarriesInnerBoxes() throws {
        let patch = try XCTUnwrap(CopyPaste.crop(donor(), element: box(10.5, 10, 20, 10), rules: .init()))
        XCTAssertEqual(patch.width, 21); XCTAssertEqual(patch.height, 10)
        XCTAssertEqual(patch.annotations.map(\.classIndex), [3, 4])
        assertBoxesEqual(patch.annotations.map(\.box), [box(0.5, 0, 20, 10), box(2, 2, 5, 5)])
        XCTAssertEqual(patch.image[0, 0], donor().image[10, 10])
    }

    func testPasteAtAFixedSpot() throws {
        let patch = try XCTUnwrap(CopyPaste.crop(donor(), element: box(10.5, 10, 20, 10), rules: .init()))
        var target = AnnotatedImage(image: RGBImage(width: 100, height: 100, fill: RGB(1, 2, 3)),
                                    annotations: [annotation(0, 0, 0, 10, 10)])
        let added = CopyPaste.paste(patch, scale: 1, atX: 40, y: 60, into: &target, rules: .init())
        assertBoxesEqual(added.map(\.box), [box(40.5, 60, 20, 10), box(42, 62, 5, 5)])
        XCTAssertEqual(target.annotations.map(\.classIndex), [0, 3, 4])
        for (x, y) in [(0, 0), (20, 9), (5, 5)] { XCTAssertEqual(target.image[40 + x, 60 + y], donor().image[10 + x, 10 + y]) }
        XCTAssertEqual(target.image[39, 60], RGB(1, 2, 3))
        XCTAssertEqual(target.image[61, 60], RGB(1, 2, 3))
    }

    func testPasteAtScaleTwo() throws {
        let patch = try XCTUnwrap(CopyPaste.crop(donor(), element: box(10.5, 10, 20, 10), rules: .init()))
        var target = AnnotatedImage(image: RGBImage(width: 100, height: 100), annotations: [])
        CopyPaste.paste(patch, scale: 2, atX: 10, y: 20, into: &target, rules: .init())
        assertBoxesEqual(target.annotations.map(\.box), [box(11, 20, 40, 20), box(14, 24, 10, 10)])
    }

    func testFreeSpotAvoidsExistingBoxes() {
        // Boxes cover all of a 100×100 canvas but the 30×30 square at its bottom-right corner.
        let existing = [annotation(0, 0, 0, 100, 70), annotation(0, 0, 70, 70, 30)]
        let canvas = [box(0, 0, 100, 100)]
        var random = SeededRandom(seed: 4)
        for _ in 0..<20 {
            guard let spot = CopyPaste.freeSpot(width: 20, height: 20, within: canvas, existing: existing, backgroundClasses: [],
                                                maxOverlap: 0.1, attempts: 500, random: &random) else { return XCTFail("no spot") }
            let pasted = box(Double(spot.x), Double(spot.y), 20, 20)
            for e in existing { XCTAssertLessThanOrEqual(CopyPaste.overlapShare(pasted, e.box), 0.1) }
        }
        XCTAssertNil(CopyPaste.freeSpot(width: 40, height: 40, within: canvas, existing: existing, backgroundClasses: [],
                                        maxOverlap: 0.1, attempts: 200, random: &random))
        XCTAssertNil(CopyPaste.freeSpot(width: 101, height: 5, within: canvas, existing: [], backgroundClasses: [],
                                        maxOverlap: 1, attempts: 5, random: &random))
    }

    func testFreeSpotStaysInsideTheContentRegions() {
        // A letterboxed 100×200 canvas whose screen fills y 50.5…150 only, and a second, narrow region
        // too small for the paste: every spot lies wholly in the first one.
        let regions = [box(0, 50.5, 100, 99.5), box(0, 160, 10, 40)]
        var random = SeededRandom(seed: 8)
        var seenTop = Int.max, seenBottom = Int.min
        for _ in 0..<300 {
            guard let spot = CopyPaste.freeSpot(width: 20, height: 30, within: regions, existing: [], backgroundClasses: [],
                                                maxOverlap: 0.1, attempts: 1, random: &random) else { return XCTFail("no spot") }
            XCTAssert((0...80).contains(spot.x) && (51...120).contains(spot.y), "\(spot)")
            seenTop = min(seenTop, spot.y); seenBottom = max(seenBottom, spot.y)
        }
        XCTAssertEqual(seenTop, 51, "the first whole-pixel row inside the region is reachable")
        XCTAssertEqual(seenBottom, 120, "the last corner that keeps the paste inside is reachable")
        XCTAssertNil(CopyPaste.freeSpot(width: 20, height: 30, within: [box(0, 0, 19, 200)], existing: [], backgroundClasses: [],
                                        maxOverlap: 1, attempts: 5, random: &random), "no region fits the paste")
    }

    func testPasteMayLandInsideAContainerButNeverOverText() {
        // A card (class 2) fills the canvas; a text line (class 9) fills its top half.
        let container = annotation(2, 0, 0, 100, 100), text = annotation(9, 0, 0, 100, 50)
        var random = SeededRandom(seed: 5)
        for _ in 0..<100 {
            guard let spot = CopyPaste.freeSpot(width: 20, height: 20, within: [box(0, 0, 100, 100)], existing: [container, text],
                                                backgroundClasses: [2], maxOverlap: 0.1, attempts: 50, random: &random)
            else { return XCTFail("a free spot inside the card exists") }
            XCTAssertLessThanOrEqual(CopyPaste.overlapShare(box(Double(spot.x), Double(spot.y), 20, 20), text.box), 0.1)
            XCTAssertGreaterThanOrEqual(spot.y, 48, "at most 2 of 20 rows on the text")
        }
        XCTAssertNil(CopyPaste.freeSpot(width: 20, height: 20, within: [box(0, 0, 100, 100)], existing: [container, text],
                                        backgroundClasses: [], maxOverlap: 0.1, attempts: 200, random: &random),
                     "without the background exemption the card blocks every spot")
        XCTAssertNil(CopyPaste.freeSpot(width: 20, height: 20, within: [box(0, 0, 100, 100)], existing: [container, text],
                                        backgroundClasses: [9], maxOverlap: 0.1, attempts: 200, random: &random),
                     "a background class is exempt only where it contains the whole paste; the card still blocks")
    }

    func testPipelinePastesOnlyOnTheLetterboxedScreen() throws {
        // 60×60 screens letterboxed into 60×120: the screen fills rows 30…90, the rest is padding.
        // Each screen is one full-size Container holding a small Text, as real screens are.
        let items = (0..<6).map { i in
            AnnotatedImage(image: patternedImage(width: 60, height: 60, seed: UInt8(i)),
                           annotations: [annotation(0, 0, 0, 60, 60), annotation(1, 5, 5, 12, 6)])
        }
        let source = InMemorySource(items)
        var preset = AugmentPreset()
        preset.copyPaste.probability = 1
        preset.copyPaste.maxElements = 3
        preset.copyPaste.placementAttempts = 50
        let pipeline = AugmentPipeline(preset: preset, source: source, classNames: ["Container", "Text"], outputWidth: 60, outputHeight: 120)
        XCTAssertEqual(pipeline.pasteBackgroundClasses, [0])
        var pasted = 0
        for seed in 0..<60 {
            var random = SeededRandom(seed: UInt64(seed))
            let output = try pipeline.augment(seed % source.count, from: source, random: &random)
            XCTAssertEqual(output.contentRegions, [box(0, 30, 60, 60)])
            for extra in output.annotations.dropFirst(2) {
                pasted += 1
                XCTAssert(extra.box.minY >= 30 && extra.box.maxY <= 90, "seed \(seed): pasted \(extra.box) on the padding")
                XCTAssertEqual(output.image[Int(extra.box.minX), Int(extra.box.minY)] == pipeline.fill, false,
                               "seed \(seed): pixels pasted at \(extra.box)")
            }
        }
        XCTAssertGreaterThan(pasted, 30, "pastes must happen for the test to mean something")
    }

    func testDonorIndexPrefersRareClasses() {
        // 90 boxes of class 0 and 10 of class 1: power 1 draws each class half the time, power 0 by frequency.
        let annotations = [Array(repeating: annotation(0, 0, 0, 5, 5), count: 90) + Array(repeating: annotation(1, 0, 0, 5, 5), count: 10)]
        for (power, expected) in [(1.0, 0.5), (0.0, 0.1)] {
            let index = DonorIndex(annotations: annotations, rarityPower: power)
            var random = SeededRandom(seed: 1)
            var rare = 0
            for _ in 0..<4000 where index.draw(&random)!.classIndex == 1 { rare += 1 }
            XCTAssertEqual(Double(rare) / 4000, expected, accuracy: 0.03, "power \(power)")
        }
    }
}
