import Data
import Detection
import Support
import XCTest

/// Thresholds, class-wise NMS, cross-class duplicate removal, the caps and the letterbox mapping.
final class DetectionPostprocessorTests: XCTestCase {
    private let screen = InputToSourceMapping.identity(width: 1000, height: 1000)
    private let names = Taxonomy.screenRecognition.classes
    private var icon: Int { names.firstIndex(of: "Icon")! }
    private var picture: Int { names.firstIndex(of: "Picture")! }
    private var text: Int { names.firstIndex(of: "Text")! }

    /// One prior per entry: box x1, y1, x2, y2 and a single non-zero class score.
    private func run(_ entries: [(box: [Float], classIndex: Int, score: Float)], classCount: Int,
                     options: PostprocessOptions = PostprocessOptions(),
                     mapping: InputToSourceMapping? = nil) throws -> [DetectedBox] {
        var probabilities = [Float](repeating: 0, count: entries.count * classCount)
        var boxes: [Float] = []
        for (p, entry) in entries.enumerated() {
            probabilities[p * classCount + entry.classIndex] = entry.score
            boxes += entry.box
        }
        return try DetectionPostprocessor(classCount: classCount, options: options)
            .detections(classProbabilities: probabilities, boxes: boxes, mapping: mapping ?? screen)
    }

    func testClassWiseNMSAtSixTenths() throws {
        // Nested boxes share the height, so IoU = width ratio: 59/100 = 0.59, 61/100 = 0.61.
        let kept = try run([([0, 0, 100, 100], 0, 0.9), ([0, 0, 59, 100], 0, 0.8)], classCount: 2)
        XCTAssertEqual(kept.count, 2)
        let suppressed = try run([([0, 0, 100, 100], 0, 0.9), ([0, 0, 61, 100], 0, 0.8)], classCount: 2)
        XCTAssertEqual(suppressed.map(\.score), [Double(Float(0.9))])
        // Different classes never suppress each other in NMS.
        let twoClasses = try run([([0, 0, 100, 100], 0, 0.9), ([0, 0, 61, 100], 1, 0.8)], classCount: 2)
        XCTAssertEqual(twoClasses.map(\.classIndex), [0, 1])
    }

    func testSimilarClassGroupsFromNames() {
        XCTAssertEqual(SimilarClassGroups.indexGroups(classNames: names), [[4, 6], [7, 10, 2]])
        // A taxonomy lacking Picture loses the first group; names match case-insensitively.
        XCTAssertEqual(SimilarClassGroups.indexGroups(classNames: ["text field", "Icon", "Container", "Text"]), [[0, 2]])
        XCTAssertEqual(SimilarClassGroups.indexGroups(classNames: ["Icon"]), [])
    }

    func testCrossClassDuplicatesWithinAGroupOnly() throws {
        let options = PostprocessOptions(crossClassGroups: SimilarClassGroups.indexGroups(classNames: names))
        let k = names.count
        // Icon over Picture at IoU 0.85 (> 0.8): the lower-scoring one goes, whichever class it is.
        var result = try run([([0, 0, 100, 100], icon, 0.9), ([0, 0, 85, 100], picture, 0.8)], classCount: k, options: options)
        XCTAssertEqual(result.map(\.classIndex), [icon])
        result = try run([([0, 0, 100, 100], icon, 0.7), ([0, 0, 85, 100], picture, 0.8)], classCount: k, options: options)
        XCTAssertEqual(result.map(\.classIndex), [picture])
        // At IoU 0.75 both stay.
        result = try run([([0, 0, 100, 100], icon, 0.9), ([0, 0, 75, 100], picture, 0.8)], classCount: k, options: options)
        XCTAssertEqual(result.map(\.classIndex), [icon, picture])
        // Text and Icon share no group: never removed, even at IoU 1.
        result = try run([([0, 0, 100, 100], icon, 0.9), ([0, 0, 100, 100], text, 0.8)], classCount: k, options: options)
        XCTAssertEqual(result.map(\.classIndex), [icon, text])
        // Without groups nothing crosses classes.
        result = try run([([0, 0, 100, 100], icon, 0.9), ([0, 0, 85, 100], picture, 0.8)], classCount: k)
        XCTAssertEqual(result.count, 2)
    }

    /// Scoring's setting removes no cross-class duplicate: two identical boxes (IoU exactly 1) of
    /// grouped classes both stay, where the deployment default keeps only the higher score.
    func testScoringKeepsIdenticalBoxesOfSimilarClasses() throws {
        let twins: [(box: [Float], classIndex: Int, score: Float)] = [([10, 10, 50, 50], 0, 0.9), ([10, 10, 50, 50], 1, 0.4)]
        var options = PostprocessOptions(crossClassGroups: [[0, 1]])
        XCTAssertEqual(try run(twins, classCount: 2, options: options).map(\.classIndex), [0])
        options.crossClassIoU = PostprocessOptions.scoringCrossClassIoU
        XCTAssertEqual(try run(twins, classCount: 2, options: options).map(\.classIndex), [0, 1])
    }

    func testPerClassConfidenceThresholds() throws {
        let options = PostprocessOptions(scoreThreshold: 0.05, classConfidenceThresholds: [0.5, nil])
        let result = try run([([0, 0, 10, 10], 0, 0.4), ([20, 0, 30, 10], 0, 0.5),
                              ([40, 0, 50, 10], 1, 0.06), ([60, 0, 70, 10], 1, 0.04)], classCount: 2, options: options)
        // Class 0 keeps 0.5 (equal to its threshold) and drops 0.4; class 1 falls back to 0.05.
        XCTAssertEqual(result.map(\.classIndex), [0, 1])
        XCTAssertEqual(result.map(\.box.x), [20, 40])
        XCTAssertThrowsError(try DetectionPostprocessor(classCount: 3, options: options)) { error in
            XCTAssertEqual("\(error)", "post-processing option classConfidenceThresholds is 2 entries; it must be empty or one per class (3)")
        }
        XCTAssertThrowsError(try DetectionPostprocessor(classCount: 2, options: PostprocessOptions(crossClassGroups: [[0, 2]])))
    }

    func testCapsAndOrder() throws {
        // 400 disjoint 10 px boxes, distinct scores: the 300 best, best first.
        let entries = (0..<400).map { i -> (box: [Float], classIndex: Int, score: Float) in
            let x = Float(i % 20) * 20, y = Float(i / 20) * 20
            return ([x, y, x + 10, y + 10], i % 3, 0.1 + Float(i) / 1000)
        }
        let capped = try run(entries, classCount: 3)
        XCTAssertEqual(capped.count, 300)
        XCTAssertEqual(capped.first?.score, Double(Float(0.1) + Float(399) / 1000))
        XCTAssertEqual(capped.last?.score, Double(Float(0.1) + Float(100) / 1000))
        XCTAssertEqual(try run(entries, classCount: 3, options: PostprocessOptions(preNMSTopK: 5)).count, 5)
        // Equal scores: class, then prior index.
        let tied = try run([([0, 0, 10, 10], 1, 0.7), ([20, 0, 30, 10], 0, 0.7), ([40, 0, 50, 10], 0, 0.7)], classCount: 2)
        XCTAssertEqual(tied.map(\.classIndex), [0, 0, 1])
        XCTAssertEqual(tied.map(\.box.x), [20, 40, 0])
    }

    func testLetterboxMappingBackToTheSource() throws {
        // A 390×844 screen in a 256×512 input: scale 512/844, resized 237×512, padding 9 left, 0 top.
        let mapping = InputToSourceMapping(sourceWidth: 390, sourceHeight: 844, resizedWidth: 237, resizedHeight: 512,
                                           padLeft: 9, padTop: 0)
        XCTAssertEqual(mapping.scaleX, 237.0 / 390)
        // Source box x 130…260, y 211…422 is input x 9 + 130·237/390 = 88 … 167, y 128 … 256.
        XCTAssertEqual(mapping.sourceBox(x1: 88, y1: 128, x2: 167, y2: 256), BoundingBox(x: 130, y: 211, width: 130, height: 211))
        // Reaching into the left padding: clipped at 0; x2 = 11·390/237, y2 = 10·844/512.
        let clipped = try XCTUnwrap(mapping.sourceBox(x1: 0, y1: 0, x2: 20, y2: 10))
        XCTAssertEqual(clipped.x, 0)
        XCTAssertEqual(clipped.width, 11.0 * 390 / 237, accuracy: 1e-12)
        XCTAssertEqual(clipped.height, 16.484375)
        // Entirely in the right padding (x ≥ 246): nothing left after clipping.
        XCTAssertNil(mapping.sourceBox(x1: 250, y1: 0, x2: 255, y2: 10))
        let detections = try run([([88, 128, 167, 256], 0, 0.9), ([250, 0, 255, 10], 0, 0.8)], classCount: 1, mapping: mapping)
        XCTAssertEqual(detections, [DetectedBox(classIndex: 0, score: Double(Float(0.9)), box: BoundingBox(x: 130, y: 211, width: 130, height: 211))])
    }

    /// The one-pass implementation against the steps written out one after the other.
    func testMatchesAStepByStepReference() throws {
        var rng = SeededRandom(seed: 7)
        let priorCount = 400, classCount = 3
        var probabilities: [Float] = [], boxes: [Float] = []
        for _ in 0..<priorCount {
            // Boxes clustered on a few spots so NMS and cross-class removal both fire.
            let cx = Float(rng.int(in: 0..<4)) * 60 + Float(rng.uniform(-6, 6)), cy = Float(rng.uniform(-6, 6)) + 50
            let w = Float(rng.uniform(20, 40)), h = Float(rng.uniform(20, 40))
            boxes += [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
            for _ in 0..<classCount { probabilities.append(Float(rng.uniform(0, 0.3)) * Float(rng.uniform(0, 1))) }
        }
        let options = PostprocessOptions(scoreThreshold: 0.02, preNMSTopK: 200, nmsIoU: 0.5, crossClassGroups: [[0, 2]],
                                         crossClassIoU: 0.6, maxDetections: 40)
        let mapping = InputToSourceMapping(scaleX: 0.5, scaleY: 0.5, padLeft: 10, padTop: 0, sourceWidth: 400, sourceHeight: 300)
        let fast = try DetectionPostprocessor(classCount: classCount, options: options)
            .detections(classProbabilities: probabilities, boxes: boxes, mapping: mapping)

        var candidates: [(score: Float, classIndex: Int, prior: Int)] = []
        for p in 0..<priorCount {
            for c in 0..<classCount where Double(probabilities[p * classCount + c]) >= options.scoreThreshold {
                candidates.append((probabilities[p * classCount + c], c, p))
            }
        }
        candidates.sort { ($0.score, -$0.classIndex, -$0.prior) > ($1.score, -$1.classIndex, -$1.prior) }
        let mapped = candidates.prefix(options.preNMSTopK).compactMap { candidate -> DetectedBox? in
            let b = boxes[(4 * candidate.prior)..<(4 * candidate.prior + 4)].map { Double($0) }
            return mapping.sourceBox(x1: b[0], y1: b[1], x2: b[2], y2: b[3])
                .map { DetectedBox(classIndex: candidate.classIndex, score: Double(candidate.score), box: $0) }
        }
        var afterNMS: [DetectedBox] = []
        for d in mapped where !afterNMS.contains(where: { $0.classIndex == d.classIndex && $0.box.iou(d.box) > options.nmsIoU }) {
            afterNMS.append(d)
        }
        let grouped: Set<Int> = [0, 2]
        var afterCrossClass: [DetectedBox] = []
        for d in afterNMS where !(grouped.contains(d.classIndex) && afterCrossClass.contains(where: {
            grouped.contains($0.classIndex) && $0.box.iou(d.box) > options.crossClassIoU
        })) {
            afterCrossClass.append(d)
        }
        let reference = Array(afterCrossClass.prefix(options.maxDetections))
        XCTAssertGreaterThan(mapped.count, afterNMS.count)
        XCTAssertGreaterThan(afterNMS.count, afterCrossClass.count)
        XCTAssertEqual(fast, reference)
    }

    /// A screen-sized head (10,752 points × 13 classes) at the evaluation threshold: ~140k
    /// candidates before NMS. Checks the invariants, not the time.
    func testManyCandidatesAtTheEvaluationThreshold() throws {
        let grid = PointGrid(inputHeight: 512, inputWidth: 256)
        var rng = SeededRandom(seed: 11)
        let classCount = 13
        let probabilities = (0..<(grid.count * classCount)).map { _ in rng.uniformFloat() * 0.5 }
        var boxes: [Float] = []
        for p in 0..<grid.count {
            let half = grid.stride[p] * Float(rng.uniform(0.5, 3))
            boxes += [grid.x[p] - half, grid.y[p] - half / 2, grid.x[p] + half, grid.y[p] + half / 2]
        }
        let options = PostprocessOptions(scoreThreshold: 0.001)
        let result = try DetectionPostprocessor(classCount: classCount, options: options)
            .detections(classProbabilities: probabilities, boxes: boxes, mapping: .identity(width: 256, height: 512))
        XCTAssertEqual(result.count, 300)
        XCTAssertTrue(zip(result, result.dropFirst()).allSatisfy { $0.score >= $1.score })
        for (i, a) in result.enumerated() {
            for b in result[(i + 1)...] where a.classIndex == b.classIndex { XCTAssertLessThanOrEqual(a.box.iou(b.box), 0.6) }
        }
    }
}
