import XCTest
@testable import Evaluation

final class ThresholdTests: XCTestCase {
    /// Scores 0.9…0.5 with hits T T F T F and 4 boxes:
    /// conf 0.9: P 1, R .25 | 0.8: P 1, R .5 | 0.7: P 2/3, R .5 | 0.6: P .75, R .75 (best F1 .75) | 0.5: P .6, R .75.
    let curve = OperatingCurve(RankedDetections(scores: [0.9, 0.8, 0.7, 0.6, 0.5],
                                                isTruePositive: [true, true, false, true, false], groundTruthCount: 4))

    func testOperatingPoints() {
        XCTAssertEqual(curve.points.map(\.confidence), [0.9, 0.8, 0.7, 0.6, 0.5])
        XCTAssertEqual(curve.points[3].f1, 0.75, accuracy: 1e-12)
        XCTAssertEqual(curve.point(atConfidence: 0.65).truePositives, 2)
        XCTAssertEqual(curve.point(atConfidence: 0.6).truePositives, 3, "score ≥ threshold is kept")
        XCTAssertEqual(curve.point(atConfidence: 0.95).recall, 0)
        XCTAssertEqual(curve.point(atConfidence: 0).falsePositives, 2)
    }

    func testTiedScoresFormOnePoint() {
        let tied = OperatingCurve(RankedDetections(scores: [0.9, 0.9, 0.5], isTruePositive: [true, false, true], groundTruthCount: 2))
        XCTAssertEqual(tied.points.map(\.confidence), [0.9, 0.5])
        XCTAssertEqual(tied.points[0].precision, 0.5)
    }

    func testStrategies() throws {
        func confidence(_ strategy: String) throws -> (Double?, Bool) {
            let picked = ThresholdPicker.pick(curve, className: "A", strategy: try ThresholdStrategy(parsing: strategy))
            return (picked.point?.confidence, picked.fellBack)
        }
        XCTAssertEqual(try confidence("max-f1").0, 0.6)
        XCTAssertEqual(try confidence("precision:0.90").0, 0.8, "lowest confidence that keeps precision ≥ 0.9")
        XCTAssertEqual(try confidence("precision:0.75").0, 0.6)
        XCTAssertEqual(try confidence("recall:0.5").0, 0.8, "highest confidence that reaches recall 0.5")
        XCTAssertEqual(try confidence("recall:0.7").0, 0.6)
        let fallback = try confidence("recall:0.80")
        XCTAssertEqual(fallback.0, 0.6)
        XCTAssertTrue(fallback.1, "recall 0.8 is never reached: max-F1 with a warning")
        XCTAssertFalse(try confidence("precision:1").1)
    }

    /// Precision dips and recovers; the two lowest confidences have the same recall.
    /// conf .9: P 1, R .25 | .8: P .5, R .25 | .7: P 1/3, R .25 | .6: P .5, R .5 | .5: P .6, R .75 | .4: P .5, R .75.
    let dipping = OperatingCurve(RankedDetections(scores: [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
                                                  isTruePositive: [true, false, false, true, true, false], groundTruthCount: 4))

    func testPrecisionTargetTakesTheMostRecallAtTheHighestConfidence() {
        func pick(_ strategy: ThresholdStrategy) -> OperatingPoint? { ThresholdPicker.pick(dipping, className: "A", strategy: strategy).point }
        // P ≥ .5 holds at .9, .8, .6, .5 and .4; the most recall (.75) is at .5 and .4: .4 only adds a false positive.
        XCTAssertEqual(pick(.precision(0.5))?.confidence, 0.5)
        XCTAssertEqual(pick(.precision(0.5))?.falsePositives, 2)
        // P ≥ .6 at .9 (R .25) and .5 (R .75), not in between: the recovered point wins.
        XCTAssertEqual(pick(.precision(0.6))?.confidence, 0.5)
        XCTAssertEqual(pick(.precision(0.7))?.confidence, 0.9)
        // Recall targets: the highest confidence reaching them.
        XCTAssertEqual(pick(.recall(0.75))?.confidence, 0.5)
        XCTAssertEqual(pick(.recall(0.25))?.confidence, 0.9)
        XCTAssertEqual(pick(.recall(0.5))?.confidence, 0.6)
    }

    func testAClassThatNeverMatchesGetsNoThresholdWithAReason() {
        let misses = OperatingCurve(RankedDetections(scores: [0.9, 0.5], isTruePositive: [false, false], groundTruthCount: 3))
        for strategy in [ThresholdStrategy.maxF1, .precision(0.9), .recall(0.5)] {
            let picked = ThresholdPicker.pick(misses, className: "A", strategy: strategy, split: "screens split 'val'")
            XCTAssertNil(picked.point, "\(strategy): a confidence that finds nothing is not a choice")
            XCTAssertFalse(picked.fellBack)
            XCTAssertTrue(picked.note?.contains("F1 is 0 at every confidence") == true && picked.note?.contains("screens split 'val'") == true,
                          picked.note ?? "no note")
        }
    }

    func testMaxF1TiesKeepTheHigherConfidence() {
        let flat = OperatingCurve(RankedDetections(scores: [0.9, 0.8, 0.7, 0.6], isTruePositive: [true, false, true, false], groundTruthCount: 2))
        // F1: .667, .5, .8, .667 → 0.7; now make two equal maxima.
        XCTAssertEqual(ThresholdPicker.pick(flat, className: "A", strategy: .maxF1).point?.confidence, 0.7)
        let twin = OperatingCurve(points: [
            OperatingPoint(confidence: 0.9, truePositives: 1, falsePositives: 0, precision: 1, recall: 0.5, f1: 0.8),
            OperatingPoint(confidence: 0.4, truePositives: 1, falsePositives: 0, precision: 1, recall: 0.5, f1: 0.8),
        ], groundTruthCount: 2)
        XCTAssertEqual(ThresholdPicker.pick(twin, className: "A", strategy: .maxF1).point?.confidence, 0.9)
    }

    func testClassesWithoutDetectionsOrGroundTruthGetNoThreshold() {
        let none = OperatingCurve(points: [], groundTruthCount: 3)
        XCTAssertNil(ThresholdPicker.pick(none, className: "A", strategy: .maxF1).point)
        let noTruth = OperatingCurve(RankedDetections(scores: [0.5], isTruePositive: [false], groundTruthCount: 0))
        let picked = ThresholdPicker.pick(noTruth, className: "A", strategy: .maxF1, split: "d split 'val'")
        XCTAssertNil(picked.point)
        XCTAssertEqual(picked.note, "no ground truth on d split 'val'", "the note names the split it was picked on")
    }

    func testStrategyParsingErrors() {
        for bad in ["f1", "precision", "precision:1.5", "recall:x", "accuracy:0.5", "precision:0"] {
            XCTAssertThrowsError(try ThresholdStrategy(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains(bad), "the error names the bad value")
            }
        }
    }
}
