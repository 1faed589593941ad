import Data
import Detection
import XCTest

/// ATSS on a hand-built scene: a 32×32 input, one level of stride 8 (points 0–15 at centres
/// 4, 12, 20, 28, row-major), priors 16×16 squares (anchorScale 2), k = 9.
final class ATSSAssignerTests: XCTestCase {
    private let points = PointGrid(inputHeight: 32, inputWidth: 32, strides: [8])
    private var assigner: ATSSAssigner { ATSSAssigner(priors: PriorBoxes(points: points, anchorScale: 2)) }

    // gt0: x 8…20, y 8…20, centre (14, 14). Nearest centres: p5 (12,12) d²=8; p6, p9 d²=40;
    // p10 d²=72; p4, p1 d²=104; p8, p2 d²=136; then p0, p7, p13 tie at d²=200 → p0 (lowest index).
    // IoUs (prior ∩ gt / union): p5 144/256 = 0.5625; p6, p9 96/304 = 0.315789; p10 64/336 = 0.190476;
    // p1, p4 48/352 = 0.136364; p2, p8 32/368 = 0.086957; p0 16/384 = 0.041667.
    // mean 0.208096, sample std (n − 1) 0.164487 → threshold 0.372583: only p5 (centre inside).
    private let gt0 = Annotation(classIndex: 0, box: BoundingBox(x: 8, y: 8, width: 12, height: 12))
    // gt1: x 0…16, y 0…16, centre (8, 8). Candidates p0, p1, p4, p5 (d²=32), p2, p6, p8, p9 (160), p10 (288).
    // IoUs: p0, p1, p4, p5 144/368 = 0.391304; p2, p6, p8, p9 48/464 = 0.103448; p10 16/496 = 0.032258.
    // mean 0.223474, std 0.160801 → threshold 0.384276: p0, p1, p4, p5 (centres inside).
    // p5 is claimed by gt0 (IoU 0.5625) and gt1 (0.391304): it goes to gt0.
    private let gt1 = Annotation(classIndex: 1, box: BoundingBox(x: 0, y: 0, width: 16, height: 16))
    // gt2: a 4×4 box x 5…9, y 26…30 between centres: none inside. Candidates p12 (4,28) d²=9, p13
    // d²=25, p8, p9, p14, p10, p4, p5, p6; IoUs p12, p13 16/256 = 0.0625, p8, p9 8/264 = 0.030303, rest 0.
    // mean 0.020623, std 0.026975 → threshold 0.047598; p12, p13 pass it but contain no centre.
    // Rescue: the unclaimed candidate of highest IoU, the p12/p13 tie → p12.
    private let gt2 = Annotation(classIndex: 2, box: BoundingBox(x: 5, y: 26, width: 4, height: 4))

    func testHandBuiltSceneThresholdsPositivesAndConflict() {
        let result = assigner.assign([gt0, gt1, gt2])
        XCTAssertEqual(result.iouThresholds.count, 3)
        XCTAssertEqual(result.iouThresholds[0], 0.372583, accuracy: 1e-6)
        XCTAssertEqual(result.iouThresholds[1], 0.384276, accuracy: 1e-6)
        XCTAssertEqual(result.iouThresholds[2], 0.047598, accuracy: 1e-6)
        var expected = [Int](repeating: -1, count: 16)
        expected[5] = 0
        expected[0] = 1; expected[1] = 1; expected[4] = 1
        expected[12] = 2
        XCTAssertEqual(result.targets.groundTruthIndex, expected)
        XCTAssertEqual(result.rescuedGroundTruths, [2])
        XCTAssertEqual(result.targets.positiveIndices, [0, 1, 4, 5, 12])
        XCTAssertEqual(result.targets.targetClasses([gt0, gt1, gt2])[4], 1)
        XCTAssertEqual(result.targets.groundTruth(ofPrior: 5, in: [gt0, gt1, gt2]), gt0)
        XCTAssertNil(result.targets.groundTruth(ofPrior: 3, in: [gt0, gt1, gt2]))
    }

    func testWithoutRescueASubCellBoxGetsNoPositive() {
        let result = ATSSAssigner(priors: PriorBoxes(points: points, anchorScale: 2), rescuesUnmatchedGroundTruths: false)
            .assign([gt0, gt1, gt2])
        XCTAssertEqual(result.targets.positiveIndices, [0, 1, 4, 5])
        XCTAssertEqual(result.rescuedGroundTruths, [])
    }

    func testNoGroundTruthsMeansAllBackground() {
        let result = assigner.assign([])
        XCTAssertEqual(result.targets.groundTruthIndex, [Int](repeating: -1, count: 16))
        XCTAssertEqual(result.targets.positiveCount, 0)
        XCTAssertEqual(result.iouThresholds, [])
    }

    func testOrderOfGroundTruthsDoesNotChangeWhoGetsAPrior() {
        let result = assigner.assign([gt1, gt0])
        XCTAssertEqual(result.targets.groundTruthIndex[5], 1)  // gt0, now at index 1, keeps p5
        XCTAssertEqual(result.targets.positiveIndices, [0, 1, 4, 5])
    }

    /// Full-size grid with the paper's defaults (anchorScale 8, k = 9 per level): every positive
    /// contains its ground truth's centre rule, and a typical icon and text line get positives.
    func testDefaultGridOnAScreenSizedInput() {
        let grid = PointGrid(inputHeight: 512, inputWidth: 256)
        let atss = ATSSAssigner(priors: PriorBoxes(points: grid))
        let truths = [Annotation(classIndex: 4, box: BoundingBox(x: 20, y: 30, width: 17, height: 17)),
                      Annotation(classIndex: 9, box: BoundingBox(x: 50, y: 30, width: 180, height: 12)),
                      Annotation(classIndex: 2, box: BoundingBox(x: 0, y: 100, width: 256, height: 300))]
        let result = atss.assign(truths)
        var perTruth = [Int](repeating: 0, count: truths.count)
        for p in result.targets.positiveIndices {
            let g = result.targets.groundTruthIndex[p]
            perTruth[g] += 1
            XCTAssertTrue(truths[g].box.contains(x: Double(grid.x[p]), y: Double(grid.y[p])))
        }
        XCTAssertTrue(perTruth.allSatisfy { $0 > 0 }, "\(perTruth)")
        XCTAssertEqual(result.rescuedGroundTruths, [])
    }
}
