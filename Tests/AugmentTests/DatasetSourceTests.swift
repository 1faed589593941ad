import XCTest
@testable import Augment
import Data
import Imaging

final class DatasetSourceTests: XCTestCase {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("augment-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testLoadsTheSplitsImagesWithTheirBoxes() throws {
        let root = try temporaryFolder()
        let image = patternedImage(width: 12, height: 20, seed: 5)
        try ImageIO.writePNG(image, to: root.appendingPathComponent("a.png"))
        try ImageIO.writePNG(patternedImage(width: 8, height: 8), to: root.appendingPathComponent("b.png"))
        let dataset = Dataset(root: root, classes: ["Text"], samples: [
            Sample(id: "b", imagePath: "b.png", width: 8, height: 8),
            Sample(id: "a", imagePath: "a.png", width: 12, height: 20, annotations: [annotation(0, 1, 2, 3, 4)]),
        ], splits: ["train": [1], "val": [0]])
        let source = try DatasetSource(dataset: dataset, split: "train")
        XCTAssertEqual(source.count, 1)
        XCTAssertEqual(source.sampleIndex(at: 0), 1)
        let loaded = try source.load(0)
        XCTAssertEqual(loaded.image, image)
        XCTAssertEqual(loaded.annotations, [annotation(0, 1, 2, 3, 4)])
        XCTAssertThrowsError(try DatasetSource(dataset: dataset, split: "tarin")) { XCTAssertTrue("\($0)".contains("tarin")) }
    }

    func testDeclaredSizeMismatchIsAnError() throws {
        let root = try temporaryFolder()
        try ImageIO.writePNG(patternedImage(width: 12, height: 20), to: root.appendingPathComponent("a.png"))
        let dataset = Dataset(root: root, classes: ["Text"], samples: [Sample(id: "a", imagePath: "a.png", width: 24, height: 40)])
        XCTAssertThrowsError(try DatasetSource(dataset: dataset, split: nil).load(0)) { error in
            XCTAssertTrue("\(error)".contains("declares 24×40"), "\(error)")
        }
    }
}
