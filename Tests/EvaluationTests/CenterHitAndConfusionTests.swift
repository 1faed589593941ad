import XCTest
import Data
@testable import Evaluation

final class CenterHitAndConfusionTests: XCTestCase {
    func testCenterOnTheBoundaryCountsAsInside() throws {
        // Detection 5…15 × 0…10 has its center (10, 5) on the box's right edge; IoU is only 1/3.
        let samples = [sample("s", [(0, box(0, 0, 10, 10))])]
        let onEdge = try evaluate(samples, [prediction(0, 0, box(5, 0, 10, 10), 0.9)])
        XCTAssertEqual(onEdge.classes[0].ap50, 0)
        XCTAssertEqual(onEdge.classes[0].apCenter, 1)
        let outside = try evaluate(samples, [prediction(0, 0, box(5.5, 0, 10, 10), 0.9)])
        XCTAssertEqual(outside.classes[0].apCenter, 0)
    }

    func testAmongContainingBoxesTheHighestIoUIsTaken() throws {
        // The first detection's center (50, 50) is inside A (the screen-sized box) and B (the small one);
        // it must take B (IoU 0.69), leaving A for the second detection whose center (10, 10) is only in A.
        let samples = [sample("s", [(0, box(0, 0, 100, 100)), (0, box(40, 40, 20, 20))])]
        let predictions = [prediction(0, 0, box(38, 38, 24, 24), 0.9), prediction(0, 0, box(0, 0, 20, 20), 0.8)]
        let evaluator = try DetectionEvaluator(classNames: ["A"], samples: samples, predictions: predictions)
        XCTAssertEqual(evaluator.rankedDetections(classIndex: 0, criterion: .centerHit).isTruePositive, [true, true])
        XCTAssertEqual(evaluator.evaluate().classes[0].apCenter!, 1, accuracy: 1e-12)
        XCTAssertEqual(evaluator.rankedDetections(classIndex: 0, criterion: .iou(0.5)).isTruePositive, [true, false])
    }

    func testConfusionCellsAndSums() throws {
        let samples = [
            sample("a", [(0, box(0, 0, 10, 10)), (1, box(100, 0, 10, 10)), (1, box(200, 0, 10, 10)), (2, box(300, 0, 10, 10))]),
            sample("b", [(0, box(0, 0, 10, 10)), (2, box(50, 50, 30, 30))]),
        ]
        let predictions = [
            prediction(0, 0, box(0, 0, 10, 10), 0.9),      // A → A
            prediction(0, 0, box(0, 0, 10, 10), 0.85),     // duplicate: background → A
            prediction(0, 0, box(100, 0, 10, 10), 0.8),    // B predicted as A
            prediction(0, 2, box(600, 0, 10, 10), 0.7),    // nothing there: background → C
            prediction(0, 1, box(200, 0, 10, 10), 0.2),    // below the 0.3 threshold: dropped
            prediction(1, 2, box(50, 50, 30, 30), 0.95),   // C → C
            prediction(1, 1, box(1, 0, 10, 10), 0.6),      // A predicted as B (IoU 0.82)
        ]
        let evaluator = try DetectionEvaluator(classNames: ["A", "B", "C"], samples: samples, predictions: predictions)
        let matrix = try evaluator.confusionMatrix(thresholds: [0.3, 0.3, 0.3])
        XCTAssertEqual(matrix.labels, ["A", "B", "C", "background"])
        XCTAssertEqual(matrix.counts, [
            [1, 1, 0, 0],   // A: one found, one taken for B
            [1, 0, 0, 1],   // B: one taken for A, one missed (its detection was below threshold)
            [0, 0, 1, 1],   // C: one found, one missed
            [1, 0, 1, 0],   // background: the duplicate A and the empty-space C
        ])
        let groundTruth = [2, 2, 2]
        for c in 0..<3 { XCTAssertEqual(matrix.counts[c].reduce(0, +), groundTruth[c], "row sum = ground-truth count") }
        let keptPerClass = [3, 1, 2]
        for c in 0..<3 { XCTAssertEqual(matrix.counts.map { $0[c] }.reduce(0, +), keptPerClass[c], "column sum = kept detections") }
        XCTAssertEqual(matrix.rowNormalized[1], [0.5, 0, 0, 0.5])
        // Per-class thresholds: raising B to 0.7 drops the A→B confusion, so that A box is missed.
        let perClass = try evaluator.confusionMatrix(thresholds: [0.3, 0.7, 0.3])
        XCTAssertEqual(perClass.counts[0], [1, 0, 0, 1])
        XCTAssertThrowsError(try evaluator.confusionMatrix(thresholds: [0.5]))
    }

    func testConfusionSumsOnARandomScene() throws {
        var random = SeededRandomForTests(seed: 7)
        var samples: [Sample] = []
        var predictions: [PredictedBox] = []
        for image in 0..<20 {
            var annotations: [(Int, BoundingBox)] = []
            for _ in 0..<15 {
                let b = box(random.next(500), random.next(500), 10 + random.next(80), 10 + random.next(80))
                annotations.append((Int(random.next(4)), b))
                if random.next(1) < 0.8 {
                    let jitter = box(b.x + random.next(6) - 3, b.y + random.next(6) - 3, b.width, b.height)
                    predictions.append(prediction(image, Int(random.next(4)), jitter, random.next(1)))
                }
            }
            samples.append(sample("i\(image)", annotations))
        }
        let evaluator = try DetectionEvaluator(classNames: ["A", "B", "C", "D"], samples: samples, predictions: predictions)
        let matrix = try evaluator.confusionMatrix(thresholds: [0.2, 0.4, 0.6, 0.0])
        let result = evaluator.evaluate()
        for c in 0..<4 {
            XCTAssertEqual(matrix.counts[c].reduce(0, +), result.classes[c].groundTruth)
            let kept = predictions.filter { $0.classIndex == c && $0.score >= [0.2, 0.4, 0.6, 0.0][c] }.count
            XCTAssertEqual(matrix.counts.map { $0[c] }.reduce(0, +), kept)
        }
        XCTAssertEqual(matrix.counts[4][4], 0)
    }
}

/// A tiny LCG so this test does not depend on the Support RNG's sequence.
struct SeededRandomForTests {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ scale: Double) -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53) * scale
    }
}
