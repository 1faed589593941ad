import XCTest
import Data
@testable import Evaluation

/// COCO's summary on cases small enough to work out by hand (one 100×100 box, IoUs placed on
/// and between the thresholds 0.50, 0.55, …, 0.95).
final class COCOSummaryTests: XCTestCase {
    func summary(_ samples: [Sample], _ predictions: [PredictedBox], classes: [String] = ["A", "B"],
                 cap: Int = 300, maxDetections: Int? = nil) throws -> COCOSummary {
        let options = EvaluationOptions(maxDetections: maxDetections, cocoMaxDetections: cap)
        return try XCTUnwrap(try DetectionEvaluator(classNames: classes, samples: samples, predictions: predictions, options: options).evaluate().coco)
    }

    let square = box(0, 0, 100, 100)

    /// coco101 precision is tp / (tp + fp + eps), so "1" is 1 − 2e-16.
    func assertClose(_ ours: [Double]?, _ expected: [Double], file: StaticString = #filePath, line: UInt = #line) {
        guard let ours, ours.count == expected.count else { return XCTFail("\(String(describing: ours)) vs \(expected)", file: file, line: line) }
        for (t, (a, b)) in zip(ours, expected).enumerated() { XCTAssertEqual(a, b, accuracy: 1e-12, "IoU threshold index \(t)", file: file, line: line) }
    }

    func testIoUOnAThresholdCountsAsAMatch() throws {
        // IoU 0.75 exactly (7500 / 10000): a match at 0.50 … 0.75 (6 thresholds), a miss above.
        let s = try summary([sample("s", [(0, square)])], [prediction(0, 0, box(0, 0, 75, 100), 0.9)])
        assertClose(s.classes[0].apPerIoU, [1, 1, 1, 1, 1, 1, 0, 0, 0, 0])
        XCTAssertEqual(s.classes[0].ap!, 0.6, accuracy: 1e-12)
        XCTAssertEqual(s.classes[0].ap75!, 1, accuracy: 1e-12)
        XCTAssertEqual(s.classes[0].recall!.last!, 0.6, accuracy: 1e-12)
        XCTAssertNil(s.classes[1].ap, "class B has no ground truth (pycocotools: -1)")
        XCTAssertEqual(s.map!, 0.6, accuracy: 1e-12, "classes without ground truth are left out of the mean")
    }

    func testIoUPointNineReachesNumpysNinthThreshold() throws {
        // np.linspace gives 0.8999999999999999 for the ninth threshold, so IoU 0.9 passes it.
        let s = try summary([sample("s", [(0, square)])], [prediction(0, 0, box(0, 0, 90, 100), 0.9)])
        assertClose(s.classes[0].apPerIoU, [1, 1, 1, 1, 1, 1, 1, 1, 1, 0])
    }

    func testEachThresholdMatchesAfresh() throws {
        // d1 (0.9) has IoU 0.62, d2 (0.8) IoU 0.92 with the one box. At 0.50–0.60 d1 takes it
        // (AP 1); at 0.65–0.90 only d2 qualifies, ranked second (precision 1/2 at recall 1, AP 0.5);
        // at 0.95 neither (AP 0). AP = (3·1 + 6·0.5) / 10 = 0.6; AR = 9 / 10.
        let s = try summary([sample("s", [(0, square)])],
                            [prediction(0, 0, box(0, 0, 62, 100), 0.9), prediction(0, 0, box(0, 0, 92, 100), 0.8)])
        assertClose(s.classes[0].apPerIoU, [1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0])
        XCTAssertEqual(s.classes[0].ap!, 0.6, accuracy: 1e-12)
        XCTAssertEqual(s.classes[0].ap50!, 1, accuracy: 1e-12)
        XCTAssertEqual(s.classes[0].ap75!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(s.marAtCap!, 0.9, accuracy: 1e-12)
    }

    func testCapCutsEachImageAndClassBeforeMatching() throws {
        // Image 0: a background false positive (0.9) above a perfect hit (0.8); image 1: a perfect hit (0.7).
        // Cap 1 keeps only each image's best: the FP and image 1's hit, ranked FP, TP. Recall stops
        // at 1/2 with precision 1/2: recall thresholds 0 … 0.50 (51 of 101) read 1/2, AP = 25.5 / 101.
        let samples = [sample("a", [(0, square)]), sample("b", [(0, square)])]
        let predictions = [prediction(0, 0, box(500, 500, 50, 50), 0.9), prediction(0, 0, square, 0.8), prediction(1, 0, square, 0.7)]
        let capped = try summary(samples, predictions, cap: 1)
        XCTAssertEqual(capped.caps, [1])
        XCTAssertEqual(capped.classes[0].ap!, 25.5 / 101, accuracy: 1e-12)
        XCTAssertEqual(capped.classes[0].recall!, [0.5])
        // Cap 300: both hits count; AR@1 still sees only each image's best detection.
        let full = try summary(samples, predictions)
        XCTAssertEqual(full.caps, [1, 10, 100, 300])
        XCTAssertEqual(full.classes[0].recall!, [0.5, 1, 1, 1])
        // Ranks FP, TP, TP: 101-point precision 2/3 at every recall threshold.
        XCTAssertEqual(full.classes[0].ap!, 2.0 / 3.0, accuracy: 1e-12)
        // --max-detections 1 lowers the summary's cap to 1: the detections beyond it are gone.
        XCTAssertEqual(try summary(samples, predictions, maxDetections: 1), capped)
    }

    func testClassWithGroundTruthButNoDetectionsScoresZero() throws {
        let s = try summary([sample("s", [(0, square), (1, box(200, 200, 10, 10))])], [prediction(0, 0, square, 0.9)])
        XCTAssertEqual(s.classes[1].ap, 0)
        XCTAssertEqual(s.classes[1].recall!, [0, 0, 0, 0])
        XCTAssertEqual(s.map!, 0.5, accuracy: 1e-12)
    }

    func testCapsListsCOCOsBelowTheCap() {
        XCTAssertEqual(COCOSummary.caps(upTo: 100), [1, 10, 100])
        XCTAssertEqual(COCOSummary.caps(upTo: 300), [1, 10, 100, 300])
        XCTAssertEqual(COCOSummary.caps(upTo: 5), [1, 5])
        XCTAssertEqual(COCOSummary.caps(upTo: 1), [1])
    }

    func testZeroCapIsRefused() {
        let options = EvaluationOptions(cocoMaxDetections: 0)
        XCTAssertThrowsError(try DetectionEvaluator(classNames: ["A"], samples: [sample("s", [])], predictions: [], options: options)) { error in
            XCTAssertTrue("\(error)".contains("at least 1"), "\(error)")
        }
    }
}
