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

    /// A 256×40 list row on the 256×512 grid: its stride-8 candidates have IoU 2560/11776 = 0.217
    /// with their 64×64 priors, stride 16 5120/21504 = 0.238 (all nine inside), stride 32 ≤ 0.156;
    /// mean + std of the 27 lies above 0.238, so the paper's rule gives it no positive (without
    /// the rescue) and the rescue one. `minimumPositives` 3 lowers the threshold to the third
    /// highest inside IoU, 0.238, which all nine stride-16 candidates reach.
    func testMinimumPositivesGiveALongRowItsEqualCandidates() {
        let grid = PointGrid(inputHeight: 512, inputWidth: 256)
        let row = [Annotation(classIndex: 2, box: BoundingBox(x: 0, y: 196, width: 256, height: 40))]
        let paper = ATSSAssigner(priors: PriorBoxes(points: grid), rescuesUnmatchedGroundTruths: false).assign(row)
        XCTAssertEqual(paper.targets.positiveCount, 0)
        XCTAssertGreaterThan(paper.iouThresholds[0], 5120.0 / 21504)
        let lowered = ATSSAssigner(priors: PriorBoxes(points: grid), rescuesUnmatchedGroundTruths: false,
                                   rules: .init(minimumPositives: 3)).assign(row)
        XCTAssertEqual(lowered.iouThresholds[0], 5120.0 / 21504, accuracy: 1e-6)
        XCTAssertEqual(lowered.targets.positiveCount, 9)
        XCTAssertTrue(lowered.targets.positiveIndices.allSatisfy { grid.stride[$0] == 16 })
        // A box the paper's rule already gives enough positives keeps its threshold.
        let icon = [Annotation(classIndex: 4, box: BoundingBox(x: 20, y: 30, width: 17, height: 17))]
        XCTAssertEqual(ATSSAssigner(priors: PriorBoxes(points: grid), rules: .init(minimumPositives: 1)).assign(icon).iouThresholds,
                       ATSSAssigner(priors: PriorBoxes(points: grid)).assign(icon).iouThresholds)
    }

    /// Reach: a 240×24 text field centred at x 128 lies up to 120 px from stride-8 centres near
    /// its middle; with a reach of 7 strides (56 px at stride 8, 112 at 16, 224 at 32) only the
    /// stride-32 priors can stand for it, so every positive is on stride 32 and each of them
    /// reaches all four sides.
    func testReachSkipsPriorsWhoseDistancesWouldBeClamped() {
        let grid = PointGrid(inputHeight: 512, inputWidth: 256)
        let field = [Annotation(classIndex: 10, box: BoundingBox(x: 8, y: 100, width: 240, height: 24))]
        let unlimited = ATSSAssigner(priors: PriorBoxes(points: grid)).assign(field)
        XCTAssertTrue(unlimited.targets.positiveIndices.contains { grid.stride[$0] < 32 })
        let reach = grid.stride.map { $0 * 7 }
        let limited = ATSSAssigner(priors: PriorBoxes(points: grid), rules: .init(minimumPositives: 1, reach: reach)).assign(field)
        XCTAssertFalse(limited.targets.positiveIndices.isEmpty)
        for p in limited.targets.positiveIndices {
            XCTAssertEqual(grid.stride[p], 32)
            let box = field[0].box, x = Double(grid.x[p]), y = Double(grid.y[p])
            XCTAssertLessThanOrEqual(max(x - box.minX, box.maxX - x, y - box.minY, box.maxY - y), Double(reach[p]))
        }
    }

    /// The statistics `data assignment` prints: the 256×40 row (√area 101 px, bucket 64–128) has
    /// no positive before the rescue under the paper's rule and nine with min_positives 3; the
    /// 240×24 field (76 px) has a stride-8 positive beyond the 120-px reach under the paper's rule,
    /// none with within_reach.
    func testAssignmentStatisticsCountTheBoxesAndPositivesOfEachRule() throws {
        let screen = [Annotation(classIndex: 0, box: BoundingBox(x: 0, y: 196, width: 256, height: 40)),
                      Annotation(classIndex: 1, box: BoundingBox(x: 8, y: 100, width: 240, height: 24))]
        let configuration = UIDetectorConfiguration(classCount: 2)
        let paper = try AssignmentStatistics(images: [screen], classCount: 2, configuration: configuration, minimumPositives: 0,
                                             withinReach: false, bucketEdges: [8, 16, 32, 64, 128])
        XCTAssertEqual(paper.cells[0][4].boxes, 1)
        XCTAssertEqual(paper.cells[0][4].withoutPositive, 1)
        XCTAssertEqual(paper.cells[0][4].positives, 1, "the rescue's one")
        XCTAssertEqual(paper.cells[1][4].boxes, 1)
        XCTAssertGreaterThan(paper.cells[1][4].beyondReach, 0)
        let ruled = try AssignmentStatistics(images: [screen], classCount: 2, configuration: configuration, minimumPositives: 3,
                                             withinReach: true, bucketEdges: [8, 16, 32, 64, 128])
        XCTAssertEqual(ruled.cells[0][4].withoutPositive, 0)
        XCTAssertEqual(ruled.cells[0][4].positives, 9)
        XCTAssertEqual(ruled.cells[1][4].beyondReach, 0)
        XCTAssertTrue(ruled.table(classes: ["Container", "Text Field"]).contains("| Container | — | — | — | — | 1 · 0% · 9.0 · 0% | — |"))
    }

    /// Nested boxes: a 40×8 text inside a 64×40 button. The text's positives are the four
    /// stride-8 points inside it (x 20, 28, 36, 44 on row y 220; IoU 0.078 with their 64×64
    /// priors, threshold 0.067). The button claims the middle two by IoU (0.564, above its
    /// threshold ≈ 0.46; the outer two, 0.455, fall under it), so under the paper's rule the text
    /// keeps two. With `smallestWins` it keeps all four, and the button the points outside it.
    func testSmallestWinsGivesNestedTextItsPriors() {
        let grid = PointGrid(inputHeight: 512, inputWidth: 256)
        let button = Annotation(classIndex: 2, box: BoundingBox(x: 0, y: 200, width: 64, height: 40))
        let text = Annotation(classIndex: 9, box: BoundingBox(x: 12, y: 216, width: 40, height: 8))
        func positives(_ result: ATSSAssignment, of g: Int) -> Int { result.targets.groundTruthIndex.filter { $0 == g }.count }
        let paper = ATSSAssigner(priors: PriorBoxes(points: grid)).assign([button, text])
        XCTAssertEqual(positives(paper, of: 1), 2, "the button takes two of the text's four points")
        let nested = ATSSAssigner(priors: PriorBoxes(points: grid), rules: .init(smallestWins: true)).assign([button, text])
        XCTAssertEqual(positives(nested, of: 1), 4)
        XCTAssertGreaterThan(positives(nested, of: 0), 0, "the button keeps the points outside the text")
        for p in nested.targets.positiveIndices where nested.targets.groundTruthIndex[p] == 0 {
            XCTAssertFalse(text.box.contains(x: Double(grid.x[p]), y: Double(grid.y[p])), "a point inside the text went to the button")
        }
    }
}
