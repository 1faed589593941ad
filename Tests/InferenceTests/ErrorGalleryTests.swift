import Data
import Evaluation
import Foundation
import Imaging
import XCTest
@testable import Inference

/// `screenlab errors`: screens ranked where the first model trails the second most, totals per
/// class, and the side-by-side picture with each outcome in its colour.
final class ErrorGalleryTests: XCTestCase {
    /// Three 100×200 screens with two Text boxes each; model A finds both on screen 0, one on
    /// screen 1 and none on screen 2; model B finds both everywhere.
    func gallery(root: URL) throws -> ErrorGallery {
        let boxes = [BoundingBox(x: 10, y: 10, width: 60, height: 20), BoundingBox(x: 10, y: 100, width: 60, height: 20)]
        let samples = (0..<3).map { i in
            Sample(id: "s\(i)", imagePath: "s\(i).png", width: 100, height: 200, annotations: boxes.map { Annotation(classIndex: 0, box: $0) })
        }
        let dataset = Dataset(root: root, classes: ["Text", "Icon"], samples: samples)
        func found(_ image: Int, _ box: BoundingBox) -> PredictedBox { PredictedBox(imageIndex: image, classIndex: 0, box: box, score: 0.9) }
        let a = [found(0, boxes[0]), found(0, boxes[1]), found(1, boxes[0]),
                 PredictedBox(imageIndex: 2, classIndex: 1, box: BoundingBox(x: 50, y: 150, width: 10, height: 10), score: 0.8)]
        let b = (0..<3).flatMap { i in boxes.map { found(i, $0) } }
        return try ErrorGallery(dataset: dataset, predictions: [("A", a), ("B", b)])
    }

    func testRankingTotalsAndIndex() throws {
        let g = try gallery(root: URL(fileURLWithPath: "/nowhere"))
        XCTAssertEqual(g.ranking(), [2, 1, 0])
        XCTAssertEqual(g.models.map { $0.screens.map(\.missed.count) }, [[0, 1, 2], [0, 0, 0]])
        let totals = g.classTotals()
        XCTAssertEqual(totals[0][0].missed, 3)
        XCTAssertEqual(totals[0][1].falsePositives, 0, "Icon has no box, so no operating point: its detection is not kept")
        XCTAssertEqual(totals[1][0].missed, 0)
        let index = g.markdown(pictured: [(2, "screens/01-s2.png")], data: "test")
        XCTAssertTrue(index.contains("| A | 0.500 |"), index)
        XCTAssertTrue(index.contains("| 1 | [s2](screens/01-s2.png) | 0 / 2 / 0 | 2 / 0 / 0 |"), index)
        XCTAssertTrue(index.contains("where A trails B most"))
    }

    func testPictureShowsBothModelsWithMissedBoxesInBlue() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("error-gallery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for i in 0..<3 { try ImageIO.encodePNG(RGBImage(width: 100, height: 200, fill: RGB(255, 255, 255))).write(to: root.appendingPathComponent("s\(i).png")) }
        let picture = try gallery(root: root).picture(screen: 2, height: 200)
        XCTAssertGreaterThan(picture.width, 200, "two panels side by side")
        let blue = BoxOverlay.color(forIndex: ErrorPicture.missed), green = BoxOverlay.color(forIndex: ErrorPicture.hit)
        var colours = Set<RGB>()
        for y in 0..<picture.height { for x in 0..<picture.width { colours.insert(picture[x, y]) } }
        XCTAssertTrue(colours.contains(blue), "A's missed boxes")
        XCTAssertTrue(colours.contains(green), "B's hits")
        XCTAssertThrowsError(try gallery(root: URL(fileURLWithPath: "/nowhere")).picture(screen: 0), "a screen that cannot be read is an error")
    }
}
