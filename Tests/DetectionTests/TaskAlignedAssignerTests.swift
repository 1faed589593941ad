import Data
import Detection
import XCTest

/// Task-aligned assignment on a hand-built scene: 32×32 input, stride 8 only (points 0–15 at
/// centres 4, 12, 20, 28, row-major), 2 classes, k = 3 so the top-k cut shows.
final class TaskAlignedAssignerTests: XCTestCase {
    private let points = PointGrid(inputHeight: 32, inputWidth: 32, strides: [8])
    // gt0 class 0, x 0…16, y 0…16: points strictly inside 0, 1, 4, 5.
    // gt1 class 1, x 8…24, y 0…16: points 1, 2, 5, 6.
    private let truths = [Annotation(classIndex: 0, box: BoundingBox(x: 0, y: 0, width: 16, height: 16)),
                          Annotation(classIndex: 1, box: BoundingBox(x: 8, y: 0, width: 16, height: 16))]

    /// Predictions: (box x1, y1, x2, y2; p(class 0), p(class 1)); other points far away, scores 0.
    /// t = s · u⁶:
    /// gt0: p0 u = 204.8/256 = 0.8, t = 0.5·0.8⁶ = 0.131072; p1 u = 192/320 = 0.6, t = 0.9·0.6⁶ = 0.0419904;
    ///      p4 u = 128/384 = 1/3, t = 0.8/729 = 0.0010974; p5 u = 1/3, t = 0.9/729 = 0.0012346 → top 3: p0, p1, p5.
    /// gt1: p1 u = 0.6, t = 0.0419904; p2 u = 0.6, t = 0.5·0.6⁶ = 0.023328; p5 u = 1, t = 0.6;
    ///      p6 u = 64/448 = 1/7, t = 0.9/7⁶ = 7.65e-6 → top 3: p5, p1, p2.
    /// Conflicts: p1 has IoU 0.6 with both (exact tie) → gt0, the lower index; p5 has 1/3 vs 1 → gt1.
    /// Final: gt0 {p0, p1}, max t 0.131072, max u 0.8; gt1 {p2, p5}, max t 0.6, max u 1.
    /// Soft targets: p0 0.8; p1 0.0419904/0.131072·0.8 = 0.2562891; p5 1; p2 0.023328/0.6·1 = 0.03888.
    private func scene() -> (probabilities: [Float], boxes: [Float]) {
        var probabilities = [Float](repeating: 0, count: 16 * 2)
        var boxes = [Float](repeating: 0, count: 16 * 4)
        for p in 0..<16 { boxes.replaceSubrange((4 * p)..<(4 * p + 4), with: [100, 100, 110, 110]) }
        let predictions: [(Int, [Float], Float, Float)] = [
            (0, [0, 0, 16, 12.8], 0.5, 0.1), (1, [4, 0, 20, 16], 0.9, 0.9), (2, [12, 0, 28, 16], 0.1, 0.5),
            (4, [0, 8, 16, 24], 0.8, 0.1), (5, [8, 0, 24, 16], 0.9, 0.6), (6, [16, 8, 32, 24], 0.1, 0.9),
        ]
        for (p, box, s0, s1) in predictions {
            boxes.replaceSubrange((4 * p)..<(4 * p + 4), with: box)
            probabilities[2 * p] = s0
            probabilities[2 * p + 1] = s1
        }
        return (probabilities, boxes)
    }

    func testHandBuiltSceneTopKConflictsAndSoftTargets() {
        let (probabilities, boxes) = scene()
        let result = TaskAlignedAssigner(points: points, candidatesPerGroundTruth: 3)
            .assign(classProbabilities: probabilities, classCount: 2, predictedBoxes: boxes, groundTruths: truths)
        var expected = [Int](repeating: -1, count: 16)
        expected[0] = 0; expected[1] = 0; expected[2] = 1; expected[5] = 1
        XCTAssertEqual(result.targets.groundTruthIndex, expected)
        let soft: [Int: Float] = [0: 0.8, 1: 0.2562891, 2: 0.03888, 5: 1]
        for p in 0..<16 { XCTAssertEqual(result.softTargets[p], soft[p] ?? 0, accuracy: 1e-5, "point \(p)") }
        XCTAssertEqual(result.predictedIoU[1], 0.6, accuracy: 1e-6)
        XCTAssertEqual(result.predictedIoU[5], 1, accuracy: 1e-6)
        XCTAssertEqual(result.predictedIoU[4], 0)
        XCTAssertEqual(result.targets.targetClasses(truths), [0, 0, 1, -1, -1, 1] + [Int](repeating: -1, count: 10))
    }

    func testDefaultKTakesEveryCandidateInside() {
        // k = 13 ≥ 4 candidates each: gt0 claims 0, 1, 4, 5; gt1 claims 1, 2, 5, 6. p1 ties → gt0,
        // p5 → gt1 (1 > 1/3).
        let (probabilities, boxes) = scene()
        let result = TaskAlignedAssigner(points: points)
            .assign(classProbabilities: probabilities, classCount: 2, predictedBoxes: boxes, groundTruths: truths)
        XCTAssertEqual(result.targets.positiveIndices.map { result.targets.groundTruthIndex[$0] }, [0, 0, 1, 0, 1, 1])
        XCTAssertEqual(result.targets.positiveIndices, [0, 1, 2, 4, 5, 6])
    }

    func testNoGroundTruthsAndZeroScores() {
        let (probabilities, boxes) = scene()
        let assigner = TaskAlignedAssigner(points: points)
        let empty = assigner.assign(classProbabilities: probabilities, classCount: 2, predictedBoxes: boxes, groundTruths: [])
        XCTAssertEqual(empty.targets.positiveCount, 0)
        XCTAssertEqual(empty.softTargets, [Float](repeating: 0, count: 16))
        // An untrained head scoring 0 everywhere: positives still chosen (ties by index), soft target 0.
        let zeros = assigner.assign(classProbabilities: [Float](repeating: 0, count: 32), classCount: 2,
                                    predictedBoxes: boxes, groundTruths: [truths[0]])
        XCTAssertEqual(zeros.targets.positiveIndices, [0, 1, 4, 5])
        XCTAssertEqual(zeros.softTargets, [Float](repeating: 0, count: 16))
    }
}
