import Foundation
import XCTest
@testable import Data

final class DatasetLoaderTests: XCTestCase {
    func testReferenceParsing() {
        XCTAssertEqual(DatasetReference.parse("Configs/datasets/vins-ui.yaml:val"), DatasetReference(path: "Configs/datasets/vins-ui.yaml", split: "val"))
        XCTAssertEqual(DatasetReference.parse("data/yolo"), DatasetReference(path: "data/yolo"))
        XCTAssertEqual(DatasetReference.parse("data/yolo:"), DatasetReference(path: "data/yolo:"))
        XCTAssertEqual(DatasetReference.parse("a:b/c"), DatasetReference(path: "a:b/c"))
        XCTAssertEqual(DatasetReference.parse("x.json:test").description, "x.json:test")
    }

    func testLoadsEachFormatAndNarrowsToASplit() throws {
        let yolo = try Fixtures.url("yolo-basic").path
        XCTAssertEqual(try DatasetLoader.load(yolo).samples.count, 3)
        let train = try DatasetLoader.load("\(yolo):train")
        XCTAssertEqual(train.samples.map(\.id), ["screen1", "screen2"])
        XCTAssertEqual(train.splits, ["train": [0, 1]])
        XCTAssertEqual(try DatasetLoader.load(try Fixtures.url("coco-basic/instances.json").path).samples.count, 2)
    }

    func testUnknownSplitAndMissingPathAreClearErrors() throws {
        let yolo = try Fixtures.url("yolo-basic").path
        XCTAssertThrowsError(try DatasetLoader.load("\(yolo):tset")) { error in
            XCTAssertEqual("\(error)", "unknown split 'tset'; this dataset has: train, val")
        }
        XCTAssertThrowsError(try DatasetLoader.load("/nonexistent/data")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/data: does not exist"), "\(error)")
        }
        XCTAssertThrowsError(try DatasetLoader.load(try Fixtures.url("make_fixtures.py").path)) { error in
            XCTAssertTrue("\(error)".contains("unknown dataset kind"), "\(error)")
        }
    }

    func testLenientLoadCollectsIssuesInsteadOfThrowing() throws {
        let issues = IssueCollector(strict: false)
        let dataset = try DatasetLoader.loadAll(try Fixtures.url("yolo-problems"), issues: issues)
        // corrupt.png and missing.png are dropped; shared.png is one sample in two splits; the
        // second listing of ok.png is left out (the load does not look at image ends: `check` does).
        XCTAssertEqual(dataset.samples.map(\.id), ["ok", "dup", "shared", "cut", "undecodable"])
        XCTAssertEqual(dataset.splits, ["train": [0, 1, 2, 3, 4], "val": [2]])
        XCTAssertEqual(issues.issues.map(\.kind), [.unknownClass, .malformedLine, .malformedLine, .malformedLine,
                                                   .unreadableImage, .missingImage, .duplicateListEntry])
        let missing = issues.issues[5]
        XCTAssertTrue(missing.file.hasSuffix("splits/train.txt") && missing.line == 4, missing.description)
        XCTAssertThrowsError(try DatasetLoader.load(try Fixtures.url("yolo-problems").path)) { error in
            XCTAssertTrue("\(error)".contains("ok.txt:4: unknown class"), "\(error)")  // strict: the first problem
        }
    }
}
