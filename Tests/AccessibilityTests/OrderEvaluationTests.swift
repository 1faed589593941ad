import Detection
import Foundation
import Imaging
import TestSupport
import Weights
import XCTest
@testable import Accessibility

/// §5.6's order metric on a screen small enough to work out by hand (`evaluate-order` itself:
/// `Tests/ScreenLabCLITests/EvaluateOrderCommandTests`).
final class OrderEvaluationTests: XCTestCase {
    /// Two Texts on a row, then a Picture with its caption 5 px under it (under 0.03 of the
    /// 200 px screen, so picture subtitle groups them): the view reads 0, 1, {2, 3}.
    func view() -> AccessibilityView {
        let boxes: [(String, BoundingBox)] = [("Text", BoundingBox(x: 10, y: 10, width: 30, height: 10)), ("Text", BoundingBox(x: 60, y: 10, width: 30, height: 10)),
                                             ("Picture", BoundingBox(x: 10, y: 50, width: 80, height: 40)), ("Text", BoundingBox(x: 10, y: 95, width: 40, height: 8))]
        let detections = boxes.enumerated().map { ScreenDetection(classIndex: $0.offset, className: $0.element.0, box: $0.element.1, score: 1) }
        return AccessibilityView(detections: detections, screen: ScreenSize(width: 100, height: 200))
    }

    func testTheTrueOrderScoresPerfect() {
        let view = view()
        XCTAssertEqual(view.elements.map(\.members), [[0], [1], [2, 3]])
        let score = OrderEvaluation.score(view, truth: [[0], [1], [2, 3]])
        XCTAssertEqual(score.insertions, 0)
        XCTAssertEqual(score.reproduced, 3)
        XCTAssertTrue(score.perfect)
    }

    func testOneElementOutOfPlaceIsOneInsertion() {
        let score = OrderEvaluation.score(view(), truth: [[2, 3], [0], [1]])
        XCTAssertEqual(score.producedOrder, [1, 2, 0])
        XCTAssertEqual(score.insertions, 1)
        XCTAssertEqual(score.reproduced, 3)
    }

    func testGroupingAndOrderAreScoredApart() {
        // The truth joins the two Texts and keeps the caption apart: no true element is
        // reproduced, but the reader still meets them in the true order (the caption after
        // the picture, inside the produced group).
        let score = OrderEvaluation.score(view(), truth: [[0, 1], [2], [3]])
        XCTAssertEqual(score.producedOrder, [0, 1, 2])
        XCTAssertEqual(score.insertions, 0)
        XCTAssertEqual(score.reproduced, 0)
        // A true element the view never shows (no such detection) is one step.
        XCTAssertEqual(OrderEvaluation.score(view(), truth: [[0], [1], [2, 3], [9]]).insertions, 1)
    }

    func testSummaryGivesThePapersNumbers() {
        func score(_ insertions: Int) -> OrderEvaluation.Score {
            OrderEvaluation.Score(trueElements: 10, producedElements: 8, insertions: insertions, reproduced: 5, producedOrder: [])
        }
        let summary = OrderEvaluation.Summary([score(0), score(0), score(1), score(3)])
        XCTAssertEqual(summary.screens, 4)
        XCTAssertEqual(summary.perfectShare, 0.5)
        XCTAssertEqual(summary.underOnePerTenShare, 0.5, "1 error in 10 elements is not under 1 per 10")
        XCTAssertEqual(summary.meanErrors, 1)
        XCTAssertEqual(summary.maximumErrors, 3)
        XCTAssertEqual(summary.groupAgreement, 0.5)
        XCTAssertTrue(summary.text.contains("73.7 %"))
    }

    func testTrueViewDrawsTheTruth() {
        let truth = OrderEvaluation.trueView(view(), truth: [[2, 3], [0], [1]])
        XCTAssertEqual(truth.elements.map(\.members), [[2, 3], [0], [1]])
        XCTAssertEqual(truth.elements[0].box, BoundingBox(minX: 10, minY: 50, maxX: 90, maxY: 103))
    }

    /// The truth restated over detections: greedy by IoU, one detection per true box, any class.
    func testTrueElementsAreMatchedOntoDetectionsByIoU() {
        let trueBoxes = [
            BoundingBox(x: 0, y: 0, width: 100, height: 20),     // 0: found exactly
            BoundingBox(x: 0, y: 30, width: 100, height: 20),    // 1: found shifted by 5 px (IoU 0.6), as an Icon
            BoundingBox(x: 0, y: 60, width: 100, height: 20),    // 2: missed
            BoundingBox(x: 200, y: 0, width: 50, height: 50),    // 3 and 4 overlap; one detection between them
            BoundingBox(x: 205, y: 0, width: 50, height: 50),    // 4: the detection is nearer to this one
        ]
        let found = [
            detection("Icon", 0, 35, 100, 20),                  // 0 → true 1
            detection("Text", 0, 0, 100, 20),                   // 1 → true 0
            detection("Picture", 204, 0, 50, 50),               // 2 → true 4 (IoU 0.96 beats 0.85)
            detection("Text", 300, 300, 10, 10),                // 3: nothing there
        ]
        let truth = OrderEvaluation.truth([[0, 1], [2], [3], [4]], trueBoxes: trueBoxes, detections: found)
        XCTAssertEqual(truth, [[1, 0], [], [], [2]])
        // Scored: the missed elements are one step each; the rest reads in order.
        let view = AccessibilityView(detections: found, screen: phone)
        let score = OrderEvaluation.score(view, truth: truth)
        XCTAssertEqual(score.insertions, 2)
        XCTAssertEqual(score.missing, 2)
        XCTAssertEqual(score.orderInsertions, 0, "what was found reads in order")
        let summary = OrderEvaluation.Summary([score, OrderEvaluation.score(view, truth: [[0], [1], [2]])])
        XCTAssertEqual(summary.meanMissing, 1)
        XCTAssertEqual(summary.reachedInOrderShare, 0.5, "the second screen: the view reads detection 1 before 0")
        XCTAssertTrue(summary.text.contains("order of what was found"), summary.text)
        XCTAssertEqual(OrderEvaluation.truth([[0]], trueBoxes: trueBoxes, detections: found, minimumIoU: 0.99), [[1]])
        XCTAssertEqual(OrderEvaluation.truth([[1]], trueBoxes: trueBoxes, detections: found, minimumIoU: 0.99), [[]])
    }
}
