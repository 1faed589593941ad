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
        // Multi_Tab strips are Containers (the paper boxes each segment; see the YAML), so no Segmented Control.
        let segmented = dataset.classes.firstIndex(of: "Segmented Control")!, container = dataset.classes.firstIndex(of: "Container")!
        XCTAssertEqual(boxes.filter { $0.classIndex == segmented }.count, 0)
        // SOURCE.md's train/val/test counts of the classes mapped to Container; the first four are clickable.
        let clickableSources: [Int] = [1713, 199, 228, /* TextImageButton */ 1324, 119, 178, /* ImageButton */ 197, 23, 24,
                                       /* CheckedTextView */ 471, 103, 55]
        let otherSources: [Int] = [/* Card */ 158, 8, 25, /* List */ 470, 72, 66, /* Toolbar */ 413, 61, 49, /* Drawer */ 181, 26, 33,
                                   /* Bottom_Navigation */ 161, 7, 23, /* Multi_Tab */ 100, 16, 18]
        let clickableCount = clickableSources.reduce(0, +), containerCount = clickableCount + otherSources.reduce(0, +)
        XCTAssertEqual(boxes.filter { $0.classIndex == container }.count, containerCount)
        XCTAssertEqual(boxes.filter { $0.classIndex == container && $0.clickable == true }.count, clickableCount)
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
