import XCTest
import Foundation
@testable import Augment

final class PresetTests: XCTestCase {
    func testParsesEverySection() throws {
        let yaml = """
        mosaic: {probability: 0.5, center: [0.4, 1.6], scale: [0.5, 1]}
        mixup: {probability: 0.2, ratio: 0.3}
        copyPaste: {probability: 0.3, maxElements: 4, maxOverlap: 0.05, rarityPower: 0.5, placementAttempts: 10, backgroundClasses: [Card]}
        scaleTranslate: {probability: 1, scale: [0.8, 1.2], translate: 0.1}
        hsv: {probability: 1, hue: 0.015, saturation: 0.5, value: 0.3}
        grayscale: {probability: 0.05}
        flip: {probability: 0}
        boxes: {minVisibleFraction: 0.3, minSide: 2}
        sampling: {repeatThreshold: 0.1}
        """
        let preset = try AugmentPreset.parse(yaml: yaml, file: "x.yaml")
        XCTAssertEqual(preset.mosaic.probability, 0.5)
        XCTAssertEqual(preset.mosaic.center, 0.4...1.6)
        XCTAssertEqual(preset.mixUp.ratio, 0.3)
        XCTAssertEqual(preset.copyPaste.maxElements, 4)
        XCTAssertEqual(preset.copyPaste.rarityPower, 0.5)
        XCTAssertEqual(preset.copyPaste.backgroundClasses, ["Card"])
        XCTAssertEqual(preset.scaleTranslate.scale, 0.8...1.2)
        XCTAssertEqual(preset.hsv.value, 0.3)
        XCTAssertEqual(preset.grayscaleProbability, 0.05)
        XCTAssertEqual(preset.boxes.minVisibleFraction, 0.3)
        XCTAssertEqual(preset.sampling.repeatThreshold, 0.1)
    }

    func testEmptyFileIsEverythingOff() throws {
        XCTAssertEqual(try AugmentPreset.parse(yaml: "", file: "none.yaml"), AugmentPreset())
    }

    func testUnknownKeyNamesKeyFileAndLine() {
        let yaml = "mosaic:\n  probability: 0.5\n  centre: [0.5, 1.5]\n"
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: yaml, file: "Configs/augment/typo.yaml")) { error in
            let text = "\(error)"
            XCTAssertEqual(text, "Configs/augment/typo.yaml:3 (mosaic.centre): unknown key — did you mean 'center'? (known here: center, probability, scale)")
        }
    }

    func testUnknownSectionIsAnError() {
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "mosiac: {probability: 1}\n", file: "p.yaml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("p.yaml:1 (mosiac): unknown key — did you mean 'mosaic'? (known here: boxes, copyPaste,"), "\(error)")
        }
    }

    func testWrongTypeAndRangeAreErrors() {
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "mixup: {probability: often}\n", file: "p.yaml")) { error in
            XCTAssertEqual("\(error)", "p.yaml:1 (mixup.probability): expected a number, found 'often'")
        }
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "hsv: {probability: 1.5}\n", file: "p.yaml")) { error in
            XCTAssertEqual("\(error)", "p.yaml:1 (hsv.probability): 1.5 is out of range; allowed 0.0…1.0")
        }
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "scaleTranslate: {scale: [1.2, 0.8]}\n", file: "p.yaml")) { error in
            XCTAssertTrue("\(error)".contains("low 1.2 is above high 0.8"), "\(error)")
        }
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "copyPaste: {maxElements: 2.5}\n", file: "p.yaml"))
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "mosaic: 0.5\n", file: "p.yaml")) { error in
            XCTAssertTrue("\(error)".contains("(mosaic): expected a mapping of key: value, found '0.5'"), "\(error)")
        }
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "boxes: {minSide: .nan}\n", file: "p.yaml"))
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "copyPaste:\n  backgroundClasses: Container\n", file: "p.yaml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("p.yaml:2 (copyPaste.backgroundClasses): expected a list of names such as [A, B]"), "\(error)")
        }
        XCTAssertThrowsError(try AugmentPreset.parse(yaml: "copyPaste: {backgroundClasses: [Container, [Card]]}\n", file: "p.yaml")) { error in
            XCTAssertTrue("\(error)".contains("(copyPaste.backgroundClasses[1]): expected a name, found a list"), "\(error)")
        }
    }

    func testShippedPresetsLoad() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for name in ["default", "none", "rare-classes"] {
            let preset = try AugmentPreset.load(from: AugmentPreset.url(forName: name, root: root))
            if name == "none" { XCTAssertEqual(preset, AugmentPreset()) }
            if name == "default" {
                XCTAssertEqual(preset.flipProbability, 0, "flip is off by default")
                XCTAssertEqual(preset.copyPaste.backgroundClasses, ["Container", "Dialog"])
            }
        }
    }

    func testPresetNamesResolveAgainstTheRepositoryRootFromAnyFolder() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let expected = root.appendingPathComponent("Configs/augment/default.yaml").standardizedFileURL.path
        let inside = root.appendingPathComponent("Tests/AugmentTests", isDirectory: true)
        XCTAssertEqual(try AugmentPreset.locate("default", from: inside).standardizedFileURL.path, expected)
        // Outside any checkout: the fallback (the executable's checkout) is used.
        let outside = FileManager.default.temporaryDirectory
        XCTAssertEqual(try AugmentPreset.locate("default", from: outside, fallbackRepositories: [inside]).standardizedFileURL.path, expected)
        // A path stays relative to the folder it was typed in.
        XCTAssertEqual(try AugmentPreset.locate("mine/p.yaml", from: outside).path,
                       outside.appendingPathComponent("mine/p.yaml").standardizedFileURL.path)
    }

    func testMisspeltPresetNameListsTheAvailableOnes() {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertThrowsError(try AugmentPreset.locate("defualt", from: root)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("no preset named 'defualt'"), text)
            let presets = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Configs/augment").path)) ?? []
            let names = presets.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
            XCTAssertTrue(names.contains("default") && names.contains("none"), "\(names)")
            XCTAssertTrue(text.contains("available: " + names.joined(separator: ", ") + " (or a path"), text)
        }
        XCTAssertThrowsError(try AugmentPreset.locate("default", from: URL(fileURLWithPath: "/"))) { error in
            XCTAssertTrue("\(error)".contains("no Configs/augment/*.yaml found"), "\(error)")
        }
    }

    /// Issue 15's hostile presets: nesting thousands deep and alias expansion ("billion laughs")
    /// are refused by the shared YAML entry point before any walk, with the file named.
    func testDeeplyNestedAndAliasBombPresetsAreErrorsNotCrashesOrHangs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-preset-hostile-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...20 { laughs += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 3).joined(separator: ", ") + "]\n" }
        let cases = [("deep.yaml", "mosaic: " + String(repeating: "[", count: 20_000), "nested more than"),
                     ("laughs.yaml", laughs, "expands to more than")]
        for (name, text, expected) in cases {
            let url = folder.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            let start = Date()
            XCTAssertThrowsError(try AugmentPreset.load(from: url)) { error in
                XCTAssertTrue("\(error)".contains(expected) && "\(error)".contains(name), "\(error)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "refused before any expansion")
        }
    }
}
