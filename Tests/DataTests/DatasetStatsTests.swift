import Foundation
import XCTest
@testable import Data
import Support

final class DatasetStatsTests: XCTestCase {
    /// yolo-basic: train = screen1 (Text 20x10, Icon 4x4) + screen2 (Container 12x6); val = screen3 (no boxes).
    func testCountsAndShapesOfTheBasicFixture() throws {
        let stats = DatasetStats.compute(try YOLOReader.read(try Fixtures.url("yolo-basic")))
        XCTAssertEqual(stats.splits.map(\.name), ["train", "val", "all"])
        XCTAssertEqual(stats.splits[0].boxesPerClass, [1, 1, 1])
        XCTAssertEqual(stats.splits[0].imagesPerClass, [1, 1, 1])
        XCTAssertEqual(stats.splits[0].boxesPerImage, [2, 1])
        XCTAssertEqual(stats.splits[1].boxCount, 0)
        XCTAssertEqual(stats.splits[1].emptyImageCount, 1)
        XCTAssertEqual(stats.splits[2].imageCount, 3)
        // Text 20x10 on 40x20: side √200, relative √(200/800) = 0.5, aspect 2.
        let text = try XCTUnwrap(stats.shapes[0])
        XCTAssertEqual(text.medianSide, 200.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(text.medianRelativeSide, 0.5, accuracy: 1e-9)
        XCTAssertEqual(text.medianAspect, 2, accuracy: 1e-9)
        // Container 12x6 on 30x30: aspect 2, side √72.
        XCTAssertEqual(try XCTUnwrap(stats.shapes[2]).medianSide, 72.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(stats.boxSides.count, 3)
        XCTAssertEqual(stats.classTable().rows.last, ["total boxes (images)", "3 (2)", "0 (1)", "3 (3)"])
    }

    func testMedianAndPercentile() {
        XCTAssertEqual(DatasetStats.median([3, 1, 2]), 2)
        XCTAssertEqual(DatasetStats.median([4, 1, 3, 2]), 2.5)
        XCTAssertEqual(DatasetStats.median([]), 0)
        XCTAssertEqual(DatasetStats.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9), 9)
        XCTAssertEqual(DatasetStats.percentile([5], 0.5), 5)
    }

    func testBoxesPerImageBinsAreWholeNumbers() {
        // 0..63 boxes: 64 values in 30 bins -> width 3, 22 bins; bin 0 holds 0, 1 and 2.
        var samples = (0..<64).map { Sample(id: "\($0)", imagePath: "\($0).png", width: 10, height: 10,
                                            annotations: Array(repeating: Annotation(classIndex: 0, box: BoundingBox(x: 0, y: 0, width: 1, height: 1)), count: $0)) }
        samples.append(samples[1])
        let stats = DatasetStats.compute(Dataset(root: URL(fileURLWithPath: "/"), classes: ["Text"], samples: samples))
        let histogram = stats.boxesPerImageHistogram
        XCTAssertEqual(histogram.counts.count, 22)
        XCTAssertEqual(histogram.counts[0], 4)
        XCTAssertEqual(histogram.counts.reduce(0, +), 65)
        XCTAssertEqual(stats.boxesPerImageTable().rows[0][0], "0 – 2")
    }

    func testTablesAlignForTheTerminalAndRenderMarkdown() {
        let table = TextTable(header: ["class", "n"], rows: [["Text", "12"], ["Page Control", "3"]])
        XCTAssertEqual(table.terminal(), "class          n\n------------  --\nText          12\nPage Control   3")
        XCTAssertEqual(table.markdown(), "| class | n |\n| :--- | ---: |\n| Text | 12 |\n| Page Control | 3 |")
    }

    func testReportWritesMarkdownAndFourCharts() throws {
        let stats = DatasetStats.compute(try YOLOReader.read(try Fixtures.url("yolo-basic")))
        let folder = try Fixtures.temporaryFolder(self)
        try stats.writeReport(title: "basic", to: folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(files, ["aspects.svg", "box-sides.svg", "boxes-per-image.svg", "class-counts.svg", "report.md"])
        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        XCTAssertTrue(markdown.contains("| Text | 1 (1) | 0 (0) | 1 (1) |"), markdown)
        XCTAssertTrue(try String(contentsOf: folder.appendingPathComponent("class-counts.svg"), encoding: .utf8).hasPrefix("<svg"))
    }
}
