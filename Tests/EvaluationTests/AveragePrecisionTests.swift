import XCTest
import Data
@testable import Evaluation

final class AveragePrecisionTests: XCTestCase {
    func testPerfectDetectionsScoreOne() throws {
        let samples = [sample("s", [(0, box(0, 0, 10, 10)), (0, box(20, 0, 10, 10))])]
        let predictions = [prediction(0, 0, box(0, 0, 10, 10), 0.9), prediction(0, 0, box(20, 0, 10, 10), 0.8)]
        for interpolation in Interpolation.allCases {
            let result = try evaluate(samples, predictions, interpolation: interpolation)
            XCTAssertEqual(result.classes[0].ap50!, 1, accuracy: 1e-12)
            XCTAssertEqual(result.classes[0].apCenter!, 1, accuracy: 1e-12)
            XCTAssertNil(result.classes[1].ap50, "class B has no ground truth")
            XCTAssertEqual(result.map50!, 1, accuracy: 1e-12, "classes without ground truth are left out of the mean")
        }
    }

    func testFalsePositiveRankedAboveTheTruePositiveHalvesAP() throws {
        // Ranks: FP (p 0), TP (p 1/2, r 1) → envelope 1/2 over the whole recall range.
        let samples = [sample("s", [(0, box(0, 0, 10, 10))])]
        let predictions = [prediction(0, 0, box(500, 500, 10, 10), 0.9), prediction(0, 0, box(0, 0, 10, 10), 0.8)]
        XCTAssertEqual(try evaluate(samples, predictions).classes[0].ap50!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(try evaluate(samples, predictions, interpolation: .coco101).classes[0].ap50!, 0.5, accuracy: 1e-12)
    }

    func testDuplicateBelowTheMatchDoesNotLowerAP() throws {
        // The duplicate finds its box taken and is a false positive after recall reached 1.
        let samples = [sample("s", [(0, box(0, 0, 10, 10))])]
        let predictions = [prediction(0, 0, box(0, 0, 10, 10), 0.9), prediction(0, 0, box(1, 0, 10, 10), 0.8)]
        let ranked = try DetectionEvaluator(classNames: ["A"], samples: samples, predictions: predictions)
            .rankedDetections(classIndex: 0, criterion: .iou(0.5))
        XCTAssertEqual(ranked.isTruePositive, [true, false])
        XCTAssertEqual(try evaluate(samples, predictions, classes: ["A"]).classes[0].ap50!, 1, accuracy: 1e-12)
    }

    func testMissedBoxCapsRecall() throws {
        let samples = [sample("s", [(0, box(0, 0, 10, 10)), (0, box(50, 50, 10, 10))])]
        let predictions = [prediction(0, 0, box(0, 0, 10, 10), 0.9)]
        XCTAssertEqual(try evaluate(samples, predictions).classes[0].ap50!, 0.5, accuracy: 1e-12)
        // 101-point: thresholds 0, 0.01, …, 0.50 (51 of them) read precision 1, the rest 0.
        XCTAssertEqual(try evaluate(samples, predictions, interpolation: .coco101).classes[0].ap50!, 51.0 / 101, accuracy: 1e-12)
    }

    func testAllPointAndCoco101OnAKnownCurve() {
        // TP FP TP FP TP with 3 ground-truth boxes: precision 1, 1/2, 2/3, 1/2, 3/5; envelope 1, 2/3, 2/3, 3/5, 3/5.
        let hits = [true, false, true, false, true]
        // All-point: (1/3)(1 + 2/3 + 3/5).
        XCTAssertEqual(AveragePrecision.allPoint(hits, groundTruthCount: 3), (1 + 2.0 / 3 + 0.6) / 3, accuracy: 1e-12)
        // 101-point: r ≤ 0.33 → 1 (34 thresholds), 0.34…0.66 → 2/3 (33), 0.67…1 → 3/5 (34).
        XCTAssertEqual(AveragePrecision.coco101(hits, groundTruthCount: 3), (34 + 33 * 2.0 / 3 + 34 * 0.6) / 101, accuracy: 1e-12)
    }

    func testClassWithGroundTruthButNoDetectionsScoresZero() throws {
        let samples = [sample("s", [(0, box(0, 0, 10, 10)), (1, box(50, 50, 10, 10))])]
        let result = try evaluate(samples, [prediction(0, 0, box(0, 0, 10, 10), 0.9)])
        XCTAssertEqual(result.classes[1].ap50, 0)
        XCTAssertEqual(result.map50!, 0.5, accuracy: 1e-12)
    }

    func testMatchingNeedsTheSameClassAndIoUAtLeastTheThreshold() throws {
        // IoU exactly 0.5: boxes 0…10 and 0…15 (w 10 vs 15, h 10 → 100/150 = 2/3); use 0…20 for exactly 1/2.
        let samples = [sample("s", [(0, box(0, 0, 20, 10))])]
        let exact = [prediction(0, 0, box(0, 0, 10, 10), 0.9)]
        XCTAssertEqual(try evaluate(samples, exact).classes[0].ap50, 1, "IoU = 0.5 counts as a match (≥)")
        let below = [prediction(0, 0, box(0, 0, 9.9, 10), 0.9)]
        XCTAssertEqual(try evaluate(samples, below).classes[0].ap50, 0)
        let wrongClass = [prediction(0, 1, box(0, 0, 20, 10), 0.9)]
        XCTAssertEqual(try evaluate(samples, wrongClass).classes[0].ap50, 0)
    }

    func testDetectionTakesTheHighestIoUBoxAndLeavesTheOtherForTheNext() throws {
        // Two boxes; the top detection overlaps both, the better one is B. The second detection can only match A.
        let samples = [sample("s", [(0, box(0, 0, 10, 10)), (0, box(2, 0, 10, 10))])]
        let predictions = [prediction(0, 0, box(2, 0, 10, 10), 0.9), prediction(0, 0, box(0, 0, 10, 10), 0.8)]
        XCTAssertEqual(try evaluate(samples, predictions).classes[0].ap50!, 1, accuracy: 1e-12)
    }

    func testWeightedMeanWeightsByGroundTruthCount() throws {
        // A: 3 boxes, 1 found at the top (AP 1/3); B: 1 box found (AP 1).
        let samples = [sample("s", [(0, box(0, 0, 10, 10)), (0, box(100, 0, 10, 10)), (0, box(200, 0, 10, 10)), (1, box(300, 0, 10, 10))])]
        let result = try evaluate(samples, [prediction(0, 0, box(0, 0, 10, 10), 0.9), prediction(0, 1, box(300, 0, 10, 10), 0.9)])
        XCTAssertEqual(result.map50!, (1.0 / 3 + 1) / 2, accuracy: 1e-12)
        XCTAssertEqual(result.weightedMap50!, (1.0 / 3 * 3 + 1) / 4, accuracy: 1e-12)
    }

    func testMaxDetectionsKeepsTheTopScoresPerImageAndClass() throws {
        // Three boxes, three exact detections; a cap of 2 per image and class drops the lowest one.
        let samples = [sample("s", [(0, box(0, 0, 10, 10)), (0, box(100, 0, 10, 10)), (0, box(200, 0, 10, 10)), (1, box(300, 0, 10, 10))])]
        let predictions = [prediction(0, 0, box(0, 0, 10, 10), 0.7), prediction(0, 0, box(100, 0, 10, 10), 0.9),
                           prediction(0, 0, box(200, 0, 10, 10), 0.8), prediction(0, 1, box(300, 0, 10, 10), 0.1)]
        let capped = try evaluate(samples, predictions, maxDetections: 2)
        XCTAssertEqual(capped.classes[0].detections, 2)
        XCTAssertEqual(capped.classes[0].ap50!, 2.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(capped.classes[1].ap50!, 1, accuracy: 1e-12, "the cap counts per class")
        XCTAssertEqual(try evaluate(samples, predictions).classes[0].ap50!, 1, accuracy: 1e-12, "no cap by default")
    }

    func testBadOptionsAndOutOfRangePredictionsAreRejected() {
        let samples = [sample("s", [(0, box(0, 0, 10, 10))])]
        XCTAssertThrowsError(try evaluate(samples, [prediction(3, 0, box(0, 0, 1, 1), 0.5)]))
        XCTAssertThrowsError(try evaluate(samples, [prediction(0, 0, box(0, 0, 1, 1), .nan)]))
        XCTAssertThrowsError(try evaluate(samples, [], maxDetections: 0))
        XCTAssertThrowsError(try DetectionEvaluator(classNames: ["A"], samples: samples, predictions: [],
                                                    options: EvaluationOptions(iouThreshold: 0)))
    }
}
