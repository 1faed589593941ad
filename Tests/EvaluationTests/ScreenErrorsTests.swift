import XCTest
import Data
@testable import Evaluation

/// What `screenlab errors` draws: each kept detection and box of a screen classified by hand-worked overlaps.
final class ScreenErrorsTests: XCTestCase {
    // Boxes: t0 Text 0…100 × 0…20, t1 Text 0…100 × 40…60, i2 Icon 200…220 × 0…20, i3 Icon 300…320 × 0…20.
    let screen = sample("s", [(0, box(0, 0, 100, 20)), (0, box(0, 40, 100, 20)), (1, box(200, 0, 20, 20)), (1, box(300, 0, 20, 20))])

    func testEachDetectionIsExplainedByTheBoxItOverlaps() {
        let predictions = [
            prediction(0, 0, box(0, 0, 100, 20), 0.9),     // hit t0
            prediction(0, 0, box(0, 0, 100, 20), 0.8),     // duplicate of t0: false positive
            prediction(0, 0, box(0, 40, 30, 20), 0.7),     // IoU 0.3 with missed t1: badly placed
            prediction(0, 0, box(200, 0, 20, 20), 0.6),    // Text on Icon i2, which no Icon found: wrong class
            prediction(0, 1, box(500, 500, 20, 20), 0.95), // Icon on nothing: false positive
            prediction(0, 1, box(300, 0, 20, 20), 0.2),    // below Icon's confidence 0.5: not kept
            prediction(1, 0, box(0, 0, 100, 20), 0.99),    // another screen: ignored
        ]
        let errors = ScreenErrors(imageIndex: 0, sample: screen, predictions: predictions, confidences: [0.5, 0.5])
        XCTAssertEqual(errors.detections.map(\.outcome), [.falsePositive, .hit, .falsePositive, .badlyPlaced, .wrongClass])
        XCTAssertEqual(errors.detections.map(\.prediction.score), [0.95, 0.9, 0.8, 0.7, 0.6])
        XCTAssertEqual(errors.missed, [1, 2, 3])
        XCTAssertTrue(errors.count == (hits: 1, misses: 3, errors: 7))
    }

    func testAClassWithoutAnOperatingPointKeepsNothing() {
        let errors = ScreenErrors(imageIndex: 0, sample: screen, predictions: [prediction(0, 1, box(200, 0, 20, 20), 0.9)], confidences: [0.5, nil])
        XCTAssertEqual(errors.detections, [])
        XCTAssertEqual(errors.missed, [0, 1, 2, 3])
    }

    /// max-F1 per class on the split: Text's best F1 keeps both of its hits (confidence 0.4), B has no box.
    func testMaxF1Confidences() throws {
        let result = try evaluate([sample("a", [(0, box(0, 0, 10, 10)), (0, box(20, 0, 10, 10))])],
                                  [prediction(0, 0, box(0, 0, 10, 10), 0.9), prediction(0, 0, box(50, 0, 10, 10), 0.6), prediction(0, 0, box(20, 0, 10, 10), 0.4)])
        XCTAssertEqual(ScreenErrors.maxF1Confidences(result), [0.4, nil])
    }
}
