import Foundation
import XCTest
@testable import Data

/// vins-ui through Configs/datasets/vins-ui.yaml; counts from its SOURCE.md.
final class VinsUITests: XCTestCase {
    func testLoadsThroughConfigWithSourceMdCounts() throws {
        _ = try Fixtures.vinsUI()
        let configURL = Fixtures.repoRoot.appendingPathComponent("Configs/datasets/vins-ui.yaml")
        let start = Date()
        let dataset = try DatasetLoader.load(configURL.path)
        let seconds = Date().timeIntervalSince(start)
        print("vins-ui loaded in \(String(format: "%.2f", seconds)) s")
        XCTAssertEqual(dataset.samples.count, 2673)
        XCTAssertEqual(dataset.splits["train"]?.count, 2125)
        XCTAssertEqual(dataset.splits["val"]?.count, 264)
        XCTAssertEqual(dataset.splits["test"]?.count, 284)
        XCTAssertEqual(dataset.classes.count, 14)
        XCTAssertEqual(Array(dataset.classes.prefix(13)), Taxonomy.screenRecognition.classes)
        let boxes = dataset.samples.flatMap(\.annotations)
        // 40,670 source boxes minus 1,943 + 242 + 261 UpperTaskBar boxes (ignored).
        XCTAssertEqual(boxes.count, 40670 - (1943 + 242 + 261))
        let text = dataset.classes.firstIndex(of: "Text")!
        XCTAssertEqual(boxes.filter { $0.classIndex == text }.count, 14732 + 1748 + 2009)
        let toggle = dataset.classes.firstIndex(of: "Toggle")!
        XCTAssertEqual(boxes.filter { $0.classIndex == toggle }.count, 98 + 10 + 27)
        let train = try dataset.samples(inSplit: "train").flatMap(\.annotations)
        let picture = dataset.classes.firstIndex(of: "Picture")!
        XCTAssertEqual(train.filter { $0.classIndex == picture }.count, 3108 + 348)
        // SOURCE.md: shrunk to 385x640, 360x640 or 295x640 (the manifest has 3 screens at 384/386 wide).
        XCTAssertTrue(dataset.samples.allSatisfy { (295...386).contains($0.width) && $0.height == 640 })
    }

    func testRawFolderHasNineteenClassesAndAllBoxes() throws {
        let dataset = try YOLOReader.read(try Fixtures.vinsUI())
        XCTAssertEqual(dataset.classes.count, 19)
        XCTAssertEqual(dataset.samples.flatMap(\.annotations).count, 40670)
    }
}
