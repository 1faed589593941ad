import XCTest
import Data
import Imaging
import Support
import Typography
@testable import Synthetic

/// The `ios` style: iOS chrome on classic and notched phones, Hangul among its languages, action
/// sheets and steppers — and the mixed style left exactly as it was.
final class IOSStyleTests: XCTestCase {
    private static let config = SyntheticConfig(seed: 3, appCount: 40, classMix: ClassMix.preset(named: "rare-controls")!, style: .ios)
    private static let corpus: [(image: RGBImage, sample: Sample)] = {
        let generator = try! SyntheticScreenGenerator(config: config)
        return (0..<48).map { generator.render(index: $0) }
    }()

    /// FNV-1a over screens 0..<6 of seed 11 in the default FreeType mix, pinned when the ios style
    /// came: `data synth --count 6 --apps 100 --seed 11` wrote the same bytes (images, labels,
    /// accessibility elements) at commit c008f17, before it, so the style changed no mixed screen.
    func testTheMixedStyleDrawsVersionTwosScreens() throws {
        let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 11))
        var hash = FNV1a()
        for index in 0..<6 {
            let (image, sample) = generator.render(index: index)
            hash.mix(image.pixels)
            for annotation in sample.annotations { hash.mix("\(annotation.classIndex) \(annotation.box) \(String(describing: annotation.selected))".utf8) }
            hash.mix("\(sample.accessibilityElements ?? [])".utf8)
        }
        XCTAssertEqual(String(hash.value, radix: 16), "aa5383c090e36822")
    }

    func testScreensAreDeterministicOnTwoPhonesWithEveryBoxInside() throws {
        let again = try SyntheticScreenGenerator(config: Self.config)
        for index in [0, 17] { XCTAssertEqual(again.render(index: index).image, Self.corpus[index].image) }
        var sizes = Set<String>()
        for (image, sample) in Self.corpus {
            sizes.insert("\(sample.width)x\(sample.height)")
            XCTAssertEqual(image.width, sample.width); XCTAssertEqual(image.height, sample.height)
            XCTAssertFalse(sample.annotations.isEmpty, sample.id)
            for box in sample.annotations.map(\.box) {
                XCTAssert(box.width > 0 && box.height > 0 && box.minX >= 0 && box.minY >= 0
                          && box.maxX <= Double(sample.width) && box.maxY <= Double(sample.height), "\(sample.id): \(box)")
            }
        }
        XCTAssertEqual(sizes, ["375x667", "390x844"])
    }

    func testAppsFollowIOSMetricsAndSpeakKorean() {
        let themes = (0..<200).map { AppTheme(seed: 3, appIndex: $0, style: .ios) }
        let codes = Set(themes.map(\.words.code))
        XCTAssert(codes.isSuperset(of: ["en", "ko", "zh", "ja"]), "\(codes)")
        XCTAssertFalse(codes.contains("el"))
        for theme in themes {
            XCTAssertEqual(theme.largeTitleFactor, 4)
            XCTAssertEqual(theme.fonts?.sizes[3] ?? 0 >= 32, true)
            XCTAssertEqual(theme.fonts.map { FontFamily.cjk.contains($0.family) }, theme.words.needsCJKFont, theme.words.code)
            XCTAssertEqual(theme.device.statusBarHeight, theme.device.classic ? 20 : 47)
            if theme.navigationBarFill != nil { XCTAssert(theme.device.classic && !theme.dark) }
        }
        let classic = themes.filter(\.device.classic).count, dark = themes.filter(\.dark).count
        XCTAssert((70...130).contains(classic), "\(classic) classic phones of 200")
        XCTAssert((40...100).contains(dark), "\(dark) dark apps of 200")
        // The mixed style's themes keep their notched phone at the config's size.
        XCTAssertEqual(AppTheme(seed: 3, appIndex: 0, screenPoints: (400, 900)).device, Device(widthPoints: 400, heightPoints: 900, classic: false))
    }

    func testActionSheetIsADialogAboveTheHomeIndicatorThatHidesWhatItCovers() throws {
        let theme = try XCTUnwrap((0..<100).lazy.map { AppTheme(seed: 3, appIndex: $0, style: .ios) }.first { !$0.device.classic })
        var builder = ScreenBuilder(widthPoints: 390, heightPoints: 844, scale: 1, theme: theme, rng: SeededRandom.stream(seed: 4, index: 0))
        _ = builder.listRows(y: 500, bottom: 800, settings: true)
        let rows = builder.annotations.filter { $0.classIndex == ScreenClass.container.rawValue }
        XCTAssertFalse(rows.isEmpty)
        builder.actionSheet()
        let dialog = try XCTUnwrap(builder.annotations.first { $0.classIndex == ScreenClass.dialog.rawValue }).box
        XCTAssertEqual(dialog.minX, 8); XCTAssertEqual(dialog.maxX, 382)
        XCTAssertEqual(dialog.maxY, 844 - 34 - 8)
        // The rows under the sheet are gone or cut to what shows above it.
        for row in builder.annotations where row.classIndex == ScreenClass.container.rawValue {
            XCTAssertLessThanOrEqual(row.box.maxY, dialog.minY, "\(row.box)")
        }
        let choices = builder.annotations.filter { $0.classIndex == ScreenClass.text.rawValue && inside($0.box, dialog) && $0.clickable == true }
        XCTAssert((3...5).contains(choices.count), "\(choices.count) choices and Cancel")
        // A screen reader meets the sheet first: its element leads the reading order.
        let dialogIndex = try XCTUnwrap(builder.annotations.firstIndex { $0.classIndex == ScreenClass.dialog.rawValue })
        XCTAssertEqual(builder.elements.first?.contains(dialogIndex), true)
    }

    private func inside(_ box: BoundingBox, _ outer: BoundingBox) -> Bool {
        box.minX >= outer.minX && box.minY >= outer.minY && box.maxX <= outer.maxX && box.maxY <= outer.maxY
    }

    func testAStepperIsTwoIconsAndLeavesRoomForTheTitle() throws {
        let theme = AppTheme(seed: 3, appIndex: 0, style: .ios)
        var builder = ScreenBuilder(widthPoints: 390, heightPoints: 844, scale: 2, theme: theme, rng: SeededRandom.stream(seed: 4, index: 0))
        let left = builder.stepper(right: 374, centerY: 100)
        XCTAssertEqual(left, 374 - 94 - 10)
        let icons = builder.annotations.map(\.box)
        XCTAssertEqual(builder.annotations.map(\.classIndex), [ScreenClass.icon.rawValue, ScreenClass.icon.rawValue])
        XCTAssertEqual(icons.map(\.width), [36, 36])  // 18 points at 2 pixels per point
        XCTAssertEqual(icons[1].minX - icons[0].minX, 94)  // half the stepper's 94 points apart
        XCTAssertEqual(icons[0].centerY, 200)
    }

    func testIOSStyleNeedsRealFontsAndHasItsOwnCache() {
        XCTAssertThrowsError(try SyntheticConfig(text: .bitmap, style: .ios).validate()) { error in
            XCTAssertEqual(error as? SyntheticError, .badSetting("text", "bitmap", "the ios style needs text: freetype"))
        }
        XCTAssertTrue(SyntheticConfig(style: .ios).cacheTag.contains("-ios"))
        XCTAssertEqual(SyntheticConfig().cacheTag, "g\(SyntheticScreenGenerator.version)-freetype-mix-default")
    }

    func testSheetsStepperAndClassicChromeOccurInTheCorpus() {
        let heights = Self.corpus.map { ($0.sample.height, $0.sample.annotations) }
        let sheets = heights.filter { height, annotations in
            annotations.contains { $0.classIndex == ScreenClass.dialog.rawValue && $0.box.minX == 8 && $0.box.maxY > Double(height) - 60 }
        }
        XCTAssertFalse(sheets.isEmpty, "no action sheet in \(Self.corpus.count) screens")
        // The classic status bar is 20 points: nothing is labelled in it.
        for (image, sample) in Self.corpus where sample.height == 667 {
            XCTAssertFalse(sample.annotations.contains { $0.box.maxY <= 20 }, sample.id)
            XCTAssertEqual(image.height, 667)
        }
    }
}
