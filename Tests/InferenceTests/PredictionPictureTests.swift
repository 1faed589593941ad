import Data
import Evaluation
import Imaging
import XCTest
@testable import Inference

/// The pictures `predict` draws carry a legend of the classes found, with their counts.
final class PredictionPictureTests: XCTestCase {
    let classes = ["Icon", "Text", "Container"]

    func prediction(_ classIndex: Int, x: Double, score: Double) -> PredictedBox {
        PredictedBox(imageIndex: 0, classIndex: classIndex, box: BoundingBox(x: x, y: 30, width: 20, height: 12), score: score)
    }

    func testLegendCountsTheClassesFoundInTheClassesOrder() {
        let found = [prediction(1, x: 10, score: 0.9), prediction(0, x: 40, score: 0.8), prediction(1, x: 70, score: 0.7)]
        let entries = PredictionWriter.legendEntries(found, classes: classes)
        XCTAssertEqual(entries.map(\.label), ["Icon (1)", "Text (2)"])
        XCTAssertEqual(entries.map(\.colorIndex), [0, 1])
    }

    func testThePictureIsTheScreenWithTheLegendBelow() {
        let screen = RGBImage(width: 200, height: 120, fill: RGB(240, 240, 240))
        let found = [prediction(1, x: 10, score: 0.9), prediction(2, x: 40, score: 0.8)]
        let drawn = PredictionWriter.drawn(screen, found, classes: classes)
        XCTAssertEqual(drawn.width, 200)
        XCTAssertGreaterThan(drawn.height, 120)
        XCTAssertEqual(PredictionWriter.drawn(screen, [], classes: classes), screen, "no detections: the screen as it is")
    }
}
