import Foundation
import XCTest
import Data
@testable import Synthetic

/// The true screen-reader elements the generator records beside its labels (TrueElements.swift).
final class SyntheticAccessibilityElementsTests: XCTestCase {
    func screens(mix: ClassMix = .standard, count: Int = 40) throws -> [Sample] {
        let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 21, classMix: mix))
        return (0..<count).map { generator.render(index: $0).sample }
    }

    func testEveryLabelIsInExactlyOneElement() throws {
        for sample in try screens() + screens(mix: try ClassMix.parse("rare-controls")) {
            let elements = try XCTUnwrap(sample.accessibilityElements, sample.id)
            XCTAssertFalse(elements.contains { $0.isEmpty }, sample.id)
            XCTAssertEqual(elements.flatMap { $0 }.sorted(), Array(sample.annotations.indices), sample.id)
        }
    }

    /// A Container or Dialog is grouped with what lies inside it (§5.5 container grouping), a
    /// tab bar item is its icon and title, and an alert is read first.
    func testElementsAreTheUnitsAPersonSees() throws {
        var tabs = 0, dialogs = 0, rows = 0
        for sample in try screens(count: 60) {
            let elements = try XCTUnwrap(sample.accessibilityElements)
            for element in elements {
                let classes = element.map { sample.annotations[$0].classIndex }
                guard let holder = element.first(where: { [ScreenClass.container.rawValue, ScreenClass.dialog.rawValue].contains(sample.annotations[$0].classIndex) }) else { continue }
                rows += 1
                let box = sample.annotations[holder].box
                for member in element {
                    let inner = sample.annotations[member].box
                    XCTAssertTrue(inner.minX >= box.minX - 1 && inner.maxX <= box.maxX + 1 && inner.minY >= box.minY - 1 && inner.maxY <= box.maxY + 1,
                                  "\(sample.id): \(classes) has a member outside its container")
                }
            }
            let bottom = Double(sample.height) * 0.9
            let tabButtons = elements.filter { element in
                element.count == 2 && element.allSatisfy { sample.annotations[$0].box.minY > bottom }
                    && Set(element.map { sample.annotations[$0].classIndex }) == [ScreenClass.icon.rawValue, ScreenClass.text.rawValue]
            }
            tabs += tabButtons.count
            if let dialog = sample.annotations.firstIndex(where: { $0.classIndex == ScreenClass.dialog.rawValue }) {
                dialogs += 1
                XCTAssertTrue(elements[0].contains(dialog), "\(sample.id): the alert is read first")
            }
        }
        XCTAssertGreaterThan(tabs, 0, "some screens have tab bars")
        XCTAssertGreaterThan(dialogs, 0, "some screens have alerts")
        XCTAssertGreaterThan(rows, 0)
    }

    func testYOLOFolderKeepsTheElements() throws {
        let folder = try temporaryFolder()
        let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: 21))
        let dataset = try generator.dataset(count: 5, outputFolder: folder)
        try YOLOWriter.write(dataset, to: folder)
        let text = try String(contentsOf: folder.appendingPathComponent(AccessibilityElementsFile.fileName), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("image\telements\n"))
        let read = try YOLOReader.read(folder)
        XCTAssertEqual(read.samples.map(\.accessibilityElements), dataset.samples.map(\.accessibilityElements))
        XCTAssertEqual(read.samples.map(\.annotations.count), dataset.samples.map(\.annotations.count))  // boxes round to the label text's digits
    }

    func testAMalformedFileNamesItself() throws {
        let url = try temporaryFolder().appendingPathComponent(AccessibilityElementsFile.fileName)
        try "image\telements\na.png\t1,x;2\n".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try AccessibilityElementsFile.read(url)) { error in
            XCTAssertTrue("\(error)".contains(url.path) && "\(error)".contains("line"), "\(error)")
        }
    }
}

extension XCTestCase {
    /// A fresh temporary folder removed at the end of the test.
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-synthetic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
