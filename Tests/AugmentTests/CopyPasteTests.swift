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
        let existing = [box(0, 0, 100, 70), box(0, 70, 70, 30)]
        var random = SeededRandom(seed: 4)
        for _ in 0..<20 {
            guard let spot = CopyPaste.freeSpot(width: 20, height: 20, canvasWidth: 100, canvasHeight: 100, existing: existing,
                                                maxOverlap: 0.1, attempts: 500, random: &random) else { return XCTFail("no spot") }
            let pasted = box(Double(spot.x), Double(spot.y), 20, 20)
            for e in existing { XCTAssertLessThanOrEqual(CopyPaste.overlapShare(pasted, e), 0.1) }
        }
        XCTAssertNil(CopyPaste.freeSpot(width: 40, height: 40, canvasWidth: 100, canvasHeight: 100, existing: existing,
                                        maxOverlap: 0.1, attempts: 200, random: &random))
        XCTAssertNil(CopyPaste.freeSpot(width: 101, height: 5, canvasWidth: 100, canvasHeight: 100, existing: [],
                                        maxOverlap: 1, attempts: 5, random: &random))
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
