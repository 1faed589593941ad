import Foundation
import XCTest
import Imaging
import Data
import Support
@testable import Synthetic

final class SyntheticScreenTests: XCTestCase {
    private static let screens = 60
    /// Rendered once for the whole class: 60 small screens are the corpus for the frequency tests.
    private static let corpus: [(image: RGBImage, sample: Sample)] = {
        let generator = try! SyntheticScreenGenerator(config: SyntheticConfig(seed: 11))
        return (0..<screens).map { generator.render(index: $0) }
    }()

    func testClassEnumMatchesTheTaxonomyOrder() {
        let names = Taxonomy.screenRecognition.classes
        XCTAssertEqual(ScreenClass.allCases.count, names.count)
        XCTAssertEqual(names[ScreenClass.checkboxSelected.rawValue], "Checkbox (Selected)")
        XCTAssertEqual(names[ScreenClass.pageControl.rawValue], "Page Control")
        XCTAssertEqual(names[ScreenClass.slider.rawValue], "Slider")
        XCTAssertEqual(names[ScreenClass.text.rawValue], "Text")
        XCTAssertEqual(names[ScreenClass.toggleUnselected.rawValue], "Toggle (Unselected)")
    }

    func testSameSeedAndIndexGiveIdenticalPixelsAndBoxes() throws {
        let a = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 5))
        let b = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 5))
        let first = a.render(index: 7), again = b.render(index: 7)
        XCTAssertEqual(first.image, again.image)
        XCTAssertEqual(first.sample, again.sample)
        // Rendering other screens in between does not disturb a screen (no shared state).
        _ = a.render(index: 8)
        XCTAssertEqual(a.render(index: 7).image, first.image)
    }

    /// FNV-1a over the pixels and boxes of screens 0..<6 of seed 11, as generator version 1 drew
    /// them before the class mix and FreeType existed (commit 0dcc2ad): with the bitmap font, the
    /// default mix changes no pixel or box.
    func testDefaultMixWithTheBitmapFontDrawsTheScreensOfVersionOne() throws {
        let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 11, classMix: try ClassMix([:]), text: .bitmap))
        var hash = FNV1a()
        for index in 0..<6 {
            let (image, sample) = generator.render(index: index)
            hash.mix(image.pixels)
            for annotation in sample.annotations { hash.mix("\(annotation.classIndex) \(annotation.box) \(String(describing: annotation.selected))".utf8) }
        }
        XCTAssertEqual(String(hash.value, radix: 16), "592f609f082369a6")
    }

    func testDifferentSeedOrIndexGivesADifferentScreen() throws {
        let a = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 5))
        let b = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 6))
        XCTAssertNotEqual(a.render(index: 7).image, b.render(index: 7).image)
        XCTAssertNotEqual(a.render(index: 7).image, a.render(index: 9).image)
    }

    func testEveryBoxLiesInsideTheImageWithPositiveAreaAndDrawnContent() {
        for (image, sample) in Self.corpus {
            XCTAssertEqual(sample.width, 390); XCTAssertEqual(sample.height, 844)
            XCTAssertFalse(sample.annotations.isEmpty, sample.id)
            for annotation in sample.annotations {
                let box = annotation.box
                XCTAssert(box.width > 0 && box.height > 0, "\(sample.id): empty box \(box)")
                XCTAssert(box.minX >= 0 && box.minY >= 0 && box.maxX <= 390 && box.maxY <= 844, "\(sample.id): box \(box) leaves the image")
                XCTAssert((0..<13).contains(annotation.classIndex))
                // Every labelled element left ink: its box is not one flat colour.
                let x0 = Int(box.minX), y0 = Int(box.minY), x1 = Int(box.maxX.rounded(.up)), y1 = Int(box.maxY.rounded(.up))
                var colors = Set<RGB>()
                for y in y0..<min(y1, 844) { for x in x0..<min(x1, 390) { colors.insert(image[x, y]); if colors.count > 1 { break } } }
                XCTAssertGreaterThan(colors.count, 1, "\(sample.id): nothing drawn in \(box) (class \(annotation.classIndex))")
            }
        }
    }

    func testStatesAndFixedSizeControlsAreExact() {
        var toggles = 0
        for (_, sample) in Self.corpus {
            for annotation in sample.annotations {
                switch ScreenClass(rawValue: annotation.classIndex)! {
                case .toggleSelected, .toggleUnselected:
                    toggles += 1
                    XCTAssertEqual(annotation.selected, annotation.classIndex == ScreenClass.toggleSelected.rawValue)
                    XCTAssertEqual(annotation.box.width, 51); XCTAssertEqual(annotation.box.height, 31)
                case .checkboxSelected, .checkboxUnselected:
                    XCTAssertEqual(annotation.selected, annotation.classIndex == ScreenClass.checkboxSelected.rawValue)
                    XCTAssertEqual(annotation.box.width, annotation.box.height)
                case .text:
                    // A line's box is its ink: no taller than the largest font's line (34 px).
                    XCTAssert((1...42).contains(annotation.box.height), "text height \(annotation.box.height)")
                default: break
                }
            }
        }
        XCTAssertGreaterThan(toggles, 0)
    }

    /// A dialog over part of a label: the box shrinks to the visible part when that part is a
    /// rectangle, and keeps its extent when the dialog covers a corner or the middle.
    func testVisibleExtentUnderADialog() {
        let box = BoundingBox(x: 10, y: 10, width: 100, height: 40)
        func visible(_ cover: BoundingBox) -> BoundingBox { ScreenBuilder.visibleExtent(of: box, under: cover) }
        XCTAssertEqual(visible(BoundingBox(x: 0, y: 40, width: 200, height: 100)), BoundingBox(x: 10, y: 10, width: 100, height: 30))  // bottom hidden
        XCTAssertEqual(visible(BoundingBox(x: 0, y: 0, width: 200, height: 15)), BoundingBox(x: 10, y: 15, width: 100, height: 35))   // top hidden
        XCTAssertEqual(visible(BoundingBox(x: 80, y: 0, width: 100, height: 100)), BoundingBox(x: 10, y: 10, width: 70, height: 40))  // right hidden
        XCTAssertEqual(visible(BoundingBox(x: 0, y: 0, width: 30, height: 100)), BoundingBox(x: 30, y: 10, width: 80, height: 40))    // left hidden
        XCTAssertEqual(visible(BoundingBox(x: 80, y: 40, width: 100, height: 100)), box)   // a corner: L-shaped, same extent
        XCTAssertEqual(visible(BoundingBox(x: 0, y: 20, width: 200, height: 10)), box)     // a band through the middle
        XCTAssertEqual(visible(BoundingBox(x: 300, y: 0, width: 10, height: 10)), box)     // no overlap
    }

    func testAllClassesAppearAndFrequenciesFollowThePaperOrder() {
        var counts = [Int](repeating: 0, count: 13)
        for (_, sample) in Self.corpus { for annotation in sample.annotations { counts[annotation.classIndex] += 1 } }
        let names = Taxonomy.screenRecognition.classes
        for (name, count) in zip(names, counts) { XCTAssertGreaterThan(count, 0, "no \(name) in \(Self.screens) screens") }
        let text = counts[ScreenClass.text.rawValue], icon = counts[ScreenClass.icon.rawValue]
        let container = counts[ScreenClass.container.rawValue], picture = counts[ScreenClass.picture.rawValue]
        XCTAssertEqual(counts.max(), text, "Text is the most frequent class: \(counts)")
        XCTAssertGreaterThan(text, icon); XCTAssertGreaterThan(icon, container); XCTAssertGreaterThan(container, picture)
        // Table 1's four big classes dwarf the nine small ones.
        let rare = counts.enumerated().filter { ![ScreenClass.text, .icon, .container, .picture].map(\.rawValue).contains($0.offset) }
        XCTAssert(rare.allSatisfy { $0.element * 4 < picture }, "\(counts)")
        let slider = counts[ScreenClass.slider.rawValue]
        XCTAssertLessThanOrEqual(counts.filter { $0 < slider }.count, 3, "Slider is among the rarest: \(counts)")
    }

    func testScreensCarryAppGroupsFromSeveralApps() {
        let groups = Self.corpus.compactMap(\.sample.group)
        XCTAssertEqual(groups.count, Self.screens)
        XCTAssertGreaterThanOrEqual(Set(groups).count, 10)
        XCTAssert(groups.allSatisfy { $0.hasPrefix("app-") })
    }

    func testAppSplitsKeepEveryAppInOneSplit() throws {
        let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 11))
        let samples = Self.corpus.map(\.sample)
        let splits = try generator.appSplits(of: samples, valFraction: 0.2, testFraction: 0.1)
        XCTAssertEqual(Set(splits.keys), ["train", "val", "test"])
        XCTAssertEqual(splits.values.flatMap { $0 }.sorted(), Array(0..<samples.count))
        var splitOfGroup: [String: String] = [:]
        for (name, indices) in splits {
            XCTAssertFalse(indices.isEmpty, name)
            for index in indices {
                let group = samples[index].group!
                XCTAssertEqual(splitOfGroup[group, default: name], name, "\(group) is in two splits")
                splitOfGroup[group] = name
            }
        }
        XCTAssertThrowsError(try generator.appSplits(of: samples, valFraction: 0.6, testFraction: 0.5))
        XCTAssertThrowsError(try generator.appSplits(of: samples, valFraction: .nan, testFraction: 0))
    }

    func testBadSettingsAreRejectedByName() {
        XCTAssertThrowsError(try SyntheticScreenGenerator(config: SyntheticConfig(scale: 0))) { error in
            XCTAssert("\(error)".contains("scale"), "\(error)")
        }
        XCTAssertThrowsError(try SyntheticScreenGenerator(config: SyntheticConfig(appCount: 0))) { error in
            XCTAssert("\(error)".contains("appCount"), "\(error)")
        }
        XCTAssertThrowsError(try SyntheticScreenGenerator(config: SyntheticConfig(dialogProbability: 1.5)))
    }

    /// With the bitmap font, whose glyphs scale exactly (FreeType hints a font twice the size to
    /// widths that are not exactly double, so a fitted line can keep another word).
    func testScaleTwoDoublesTheImageAndEveryBox() throws {
        let one = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 3, scale: 1, text: .bitmap)).render(index: 2).sample
        let two = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 3, scale: 2, text: .bitmap)).render(index: 2).sample
        XCTAssertEqual(two.width, 780); XCTAssertEqual(two.height, 1688)
        // Same layout: text cells snap to whole pixels, so positions agree within a pixel at scale 1.
        XCTAssertEqual(one.annotations.map(\.classIndex), two.annotations.map(\.classIndex))
        for (a, b) in zip(one.annotations, two.annotations) {
            XCTAssertEqual(a.box.x * 2, b.box.x, accuracy: 1.01); XCTAssertEqual(a.box.width * 2, b.box.width, accuracy: 2.01)
        }
    }

    func testDatasetWritesTheSameFilesWhateverTheThreadCount() throws {
        let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 2))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-synth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let single = try generator.dataset(count: 4, outputFolder: root.appendingPathComponent("one"), threads: 1)
        let multi = try generator.dataset(count: 4, outputFolder: root.appendingPathComponent("three"), threads: 3)
        XCTAssertEqual(single.samples, multi.samples)
        XCTAssertEqual(single.classes, Taxonomy.screenRecognition.classes)
        for sample in single.samples {
            let a = try Data(contentsOf: single.imageURL(of: sample)), b = try Data(contentsOf: multi.imageURL(of: sample))
            XCTAssertEqual(a, b, sample.id)
            XCTAssertEqual(try ImageIO.read(single.imageURL(of: sample)), generator.render(index: Int(sample.id.dropFirst(6))!).image)
        }
    }
}
