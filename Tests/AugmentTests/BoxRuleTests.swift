import XCTest
@testable import Augment
import Data

final class BoxRuleTests: XCTestCase {
    let rules: AugmentPreset.BoxRules = {
        var rules = AugmentPreset.BoxRules()
        rules.minVisibleFraction = 0.4
        rules.minSide = 2
        return rules
    }()

    func testClipsToCanvasAndKeepsLargeEnoughParts() {
        // 40×10 box with its left 10 px outside: 75% visible → kept, clipped.
        let result = rules.clipAndDrop([annotation(0, -10, 5, 40, 10)], fractions: [1], width: 100, height: 50)
        assertBoxesEqual(result.annotations.map(\.box), [box(0, 5, 30, 10)])
        XCTAssertEqual(result.fractions[0], 0.75, accuracy: 1e-12)
    }

    func testDropsBelowVisibleFraction() {
        // 30% visible (< 0.4) → dropped; exactly 40% → kept.
        let result = rules.clipAndDrop([annotation(0, -70, 0, 100, 10), annotation(1, -60, 20, 100, 10)],
                                       fractions: [1, 1], width: 200, height: 50)
        XCTAssertEqual(result.annotations.map(\.classIndex), [1])
    }

    func testVisibleFractionCompoundsOverSteps() {
        // 60% visible earlier, now 60% of that again = 36% < 40% → dropped.
        let result = rules.clipAndDrop([annotation(0, -4, 0, 10, 10)], fractions: [0.6], width: 100, height: 100)
        XCTAssertTrue(result.annotations.isEmpty)
    }

    func testDropsSliversUnderTwoPixelsInEitherDimension() {
        let tall = annotation(0, 98.5, 0, 30, 30)  // 1.5 px wide after clipping at x = 100 (fraction rule off)
        let flat = annotation(1, 0, 48.5, 30, 30)   // 1.5 px high after clipping at y = 50
        var lenient = rules
        lenient.minVisibleFraction = 0
        let result = lenient.clipAndDrop([tall, flat, annotation(2, 10, 10, 2, 2)], fractions: [1, 1, 1], width: 100, height: 50)
        XCTAssertEqual(result.annotations.map(\.classIndex), [2], "a 2×2 box inside stays; 1.5 px slivers go")
    }

    func testLongThinTextLineSurvives() {
        // A 3 px high, 400 px long line (aspect 133:1), half of it outside: kept — no aspect-ratio rule.
        let line = annotation(9, 50, 20, 400, 3)
        let divider = annotation(9, 0, 30, 250, 2)
        let result = rules.clipAndDrop([line, divider], fractions: [1, 1], width: 250, height: 50)
        assertBoxesEqual(result.annotations.map(\.box), [box(50, 20, 200, 3), box(0, 30, 250, 2)])
    }

    func testBoxEntirelyOutsideIsDropped() {
        let result = rules.clipAndDrop([annotation(0, 120, 10, 10, 10)], fractions: [1], width: 100, height: 100)
        XCTAssertTrue(result.annotations.isEmpty)
    }
}
