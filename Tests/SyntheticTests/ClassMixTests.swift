import XCTest
import Imaging
import Data
@testable import Synthetic

final class ClassMixTests: XCTestCase {
    func testMultiplierOneKeepsEveryProbabilityExactly() {
        for p in stride(from: 0.0, through: 1.0, by: 0.01) + [0.08, 0.12, 0.22, 0.35, 0.38, 0.55] {
            XCTAssertEqual(ClassMix.boosted(p, by: 1), p)
            XCTAssertEqual(ClassMix.selectedShare(p, selected: 1, unselected: 1), p)
            XCTAssertEqual(ClassMix.selectedShare(p, selected: 3, unselected: 3), p)
            XCTAssertEqual(ClassMix.extra(p, by: 1), 0)
        }
        for kind in ScreenKind.allCases { XCTAssertEqual(ClassMix.standard.kindFactor(kind), 1) }
    }

    func testMappingStaysAProbabilityAndGrowsWithTheMultiplier() {
        for p in stride(from: 0.0, through: 1.0, by: 0.05) {
            var previous = -1.0
            for m in [0, 0.25, 0.5, 1, 2, 4, 8, 100, ClassMix.maximum] {
                let boosted = ClassMix.boosted(p, by: m)
                XCTAssert((0...1).contains(boosted), "p \(p) m \(m) → \(boosted)")
                XCTAssertGreaterThanOrEqual(boosted, previous, "p \(p) m \(m)")
                previous = boosted
                XCTAssert((0...1).contains(ClassMix.selectedShare(p, selected: m, unselected: 1)))
                XCTAssert((0...1).contains(ClassMix.selectedShare(p, selected: 1, unselected: m)))
                XCTAssert((0..<max(p, 1e-12)).contains(ClassMix.extra(p, by: m)) || ClassMix.extra(p, by: m) == 0)
            }
        }
        XCTAssertEqual(ClassMix.boosted(0.3, by: 0), 0)
        XCTAssertEqual(ClassMix.boosted(0.1, by: 2), 1 - 0.9 * 0.9, accuracy: 1e-12)
        // Odds 0.35/0.65 scaled by 4: 1.4/(1.4 + 0.65).
        XCTAssertEqual(ClassMix.selectedShare(0.35, selected: 4, unselected: 1), 1.4 / 2.05, accuracy: 1e-12)
        XCTAssertEqual(ClassMix.extra(0.3, by: 4), 0.225, accuracy: 1e-12)
    }

    func testNamesAreReadLooselyAndMistakesAreNamed() throws {
        let mix = try ClassMix(["slider": 4, "Page_Control": 2, "TOGGLE (SELECTED)": 0])
        XCTAssertEqual(mix[.slider], 4); XCTAssertEqual(mix[.pageControl], 2); XCTAssertEqual(mix[.toggleSelected], 0)
        XCTAssertEqual(mix[.text], 1)
        XCTAssertEqual(try ClassMix([:]), .standard)
        XCTAssertThrowsError(try ClassMix(["Slidr": 2])) { error in
            XCTAssertEqual(error as? ClassMixError, .unknownClass("Slidr", suggestion: "Slider"))
            XCTAssert("\(error)".contains("did you mean 'Slider'"), "\(error)")
        }
        XCTAssertThrowsError(try ClassMix(["Dialog": -1])) { error in XCTAssert("\(error)".contains("Dialog = -1.0"), "\(error)") }
        XCTAssertThrowsError(try ClassMix(["Dialog": .infinity]))
        XCTAssertEqual(try ClassMix.parse("rare-controls"), ClassMix.preset(named: "rare-controls"))
        XCTAssertEqual(try ClassMix.parse("Slider=4, dialog=3"), try ClassMix(["Slider": 4, "Dialog": 3]))
        XCTAssertThrowsError(try ClassMix.parse("rare")) { error in XCTAssert("\(error)".contains("rare-controls"), "\(error)") }
        XCTAssertThrowsError(try ClassMix.parse("Slider=lots"))
    }

    func testTagsAndCacheTagsChangeWithTheMix() throws {
        XCTAssertEqual(ClassMix.standard.tag, "default")
        XCTAssertEqual(ClassMix.preset(named: "rare-controls")!.tag, "rare-controls")
        let a = try ClassMix(["Slider": 4]).tag, b = try ClassMix(["Slider": 4.5]).tag
        XCTAssertNotEqual(a, b); XCTAssert(a.hasPrefix("custom-"))
        XCTAssertEqual(a, try ClassMix(["slider": 4]).tag)
        XCTAssertNotEqual(SyntheticConfig(classMix: try ClassMix(["Slider": 4])).cacheTag, SyntheticConfig().cacheTag)
        XCTAssertNotEqual(SyntheticConfig(scale: 2).cacheTag, SyntheticConfig().cacheTag)
    }

    func testBoostingRaisesTheRareClassesWithinCoherentScreens() throws {
        func counts(_ mix: ClassMix) throws -> [Int] {
            let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 4, appCount: 10, classMix: mix))
            var counts = [Int](repeating: 0, count: 13)
            for index in 0..<40 { for annotation in generator.render(index: index).sample.annotations { counts[annotation.classIndex] += 1 } }
            return counts
        }
        let plain = try counts(.standard), boosted = try counts(ClassMix.preset(named: "rare-controls")!)
        for kind in [ScreenClass.checkboxSelected, .slider, .toggleSelected, .dialog, .pageControl] {
            XCTAssertGreaterThan(boosted[kind.rawValue], plain[kind.rawValue], "\(kind): \(plain) → \(boosted)")
        }
        // Suppressing a class removes every layout that draws it.
        let none = try counts(ClassMix(["Slider": 0, "Dialog": 0]))
        XCTAssertEqual(none[ScreenClass.slider.rawValue], 0); XCTAssertEqual(none[ScreenClass.dialog.rawValue], 0)
    }
}
