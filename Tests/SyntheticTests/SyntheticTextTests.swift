import XCTest
import Imaging
import Support
import Typography
import Data
@testable import Synthetic

/// FreeType text on synthetic screens: labels fit the ink, languages have their glyphs.
final class SyntheticTextTests: XCTestCase {
    /// The first app of each language among the first 200 of seed 1.
    private static let themes: [String: AppTheme] = {
        var found: [String: AppTheme] = [:]
        for app in 0..<200 {
            let theme = AppTheme(seed: 1, appIndex: app)
            if found[theme.words.code] == nil { found[theme.words.code] = theme }
        }
        return found
    }()

    func testEveryLanguageOccursAndItsWordsHaveGlyphsInItsFonts() throws {
        XCTAssertEqual(Set(Self.themes.keys), ["en", "ru", "el", "zh", "ja"])
        let lexicons = (Lexicon.shares + Lexicon.iosShares).map(\.0)
        XCTAssertEqual(Set(lexicons.map(\.code)), ["en", "ru", "el", "zh", "ja", "ko"])
        for lexicon in lexicons {
            let strings = lexicon.screenTitles + lexicon.settingsTitles + lexicon.rowLabels + lexicon.names + lexicon.buttonLabels
                + lexicon.fieldLabels.flatMap { [$0.0, $0.1] } + lexicon.segmentLabels.flatMap { $0 } + lexicon.dialogTitles
                + lexicon.dialogButtons.flatMap { $0 } + lexicon.filler + lexicon.shortInfo + lexicon.sliderCaptions
                + lexicon.checkboxCaptions + lexicon.signInButtons + lexicon.loginFields + lexicon.loginLinks + [lexicon.welcome("Atlas"), lexicon.searchPrefix]
            XCTAssertEqual(lexicon.dialogTitles.count, lexicon.dialogButtons.count, lexicon.code)
            let scalars = Set(strings.flatMap { $0.unicodeScalars }).subtracting(" ".unicodeScalars)
            for family in lexicon.needsCJKFont ? FontFamily.cjk : FontFamily.alphabetic {
                for face in family.faces {
                    let missing = try scalars.filter { !(try GlyphCache.shared.covers(face, $0)) }
                    XCTAssert(missing.isEmpty, "\(face) lacks \(missing.map { String($0) }.sorted().joined()) for \(lexicon.code)")
                }
            }
        }
    }

    func testATextLabelIsTheBoundingBoxOfItsInk() throws {
        for (code, theme) in Self.themes.sorted(by: { $0.key < $1.key }) {
            for scale in [1, 2] {
                for factor in 1...4 {
                    for bold in [false, true] {
                        var builder = ScreenBuilder(widthPoints: 390, heightPoints: 844, scale: scale, theme: theme,
                                                    rng: SeededRandom.stream(seed: 9, index: UInt64(factor)))
                        builder.image = RGBImage(width: builder.image.width, height: 120 * scale, fill: RGB(255, 255, 255))
                        let string = theme.words.screenTitles[factor] + theme.words.separator + theme.words.filler[factor]
                        let size = builder.text(string, x: 20.5, centerY: 50, factor: factor, color: RGBA(0, 0, 0), bold: bold)
                        let box = try XCTUnwrap(builder.annotations.first?.box, code)
                        var ink: (Int, Int, Int, Int)?
                        for y in 0..<builder.image.height {
                            for x in 0..<builder.image.width where builder.image[x, y] != RGB(255, 255, 255) {
                                ink = ink.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
                            }
                        }
                        let drawn = try XCTUnwrap(ink, code)
                        let context = "\(code) \(string) scale \(scale) factor \(factor) bold \(bold)"
                        XCTAssertEqual(box, BoundingBox(x: Double(drawn.0), y: Double(drawn.1), width: Double(drawn.2 - drawn.0), height: Double(drawn.3 - drawn.1)), context)
                        // measure() gives the drawn width (layouts centre and fit with it), ink starts at x.
                        XCTAssertEqual(builder.measure(string, factor: factor, bold: bold).width * Double(scale), box.width, context)
                        XCTAssertEqual(size.width * Double(scale), box.width, context)
                        XCTAssertEqual(box.minX, (20.5 * Double(scale)).rounded(), context)
                    }
                }
            }
        }
    }

    func testLongCJKTextIsCutByCharactersToFit() throws {
        let theme = try XCTUnwrap(Self.themes["zh"])
        let builder = ScreenBuilder(widthPoints: 390, heightPoints: 844, scale: 1, theme: theme, rng: SeededRandom.stream(seed: 1, index: 0))
        let long = String(repeating: "菜谱旅行", count: 20)
        let fitted = try XCTUnwrap(builder.fitting(long, factor: 2, maxWidth: 120))
        XCTAssert(long.hasPrefix(fitted) && fitted.count >= 2 && fitted.count < long.count, fitted)
        XCTAssertLessThanOrEqual(builder.measure(fitted, factor: 2).width, 120)
        XCTAssertGreaterThan(builder.measure(long.prefix(fitted.count + 1).description, factor: 2).width, 120)
    }

    func testFreeTypeScreensAreDeterministicAndDifferFromTheBitmapOnes() throws {
        let a = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 21))
        let b = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 21))
        for index in [0, 5, 13] {
            let first = a.render(index: index), again = b.render(index: index)
            XCTAssertEqual(first.image, again.image); XCTAssertEqual(first.sample, again.sample)
        }
        let bitmap = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 21, text: .bitmap))
        XCTAssertNotEqual(a.render(index: 0).image, bitmap.render(index: 0).image)
        XCTAssertNotEqual(SyntheticConfig(text: .bitmap).cacheTag, SyntheticConfig().cacheTag)
    }
}
