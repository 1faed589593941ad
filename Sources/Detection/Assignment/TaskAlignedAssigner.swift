import Data
import Foundation

/// Task-aligned assignment (TOOD, Feng et al., ICCV 2021, §3.2), as PP-PicoDet and YOLOv8 use
/// it for anchor-free heads, one image at a time.
///
/// Per ground truth g of class c, the candidates are the points whose centre lies strictly inside
/// g (by more than 1e-9 px, Ultralytics' `select_candidates_in_gts`). For each, the alignment
/// t = s^α · u^β, with s the predicted probability of class c and u the IoU of the predicted box
/// with g (plain IoU as in TOOD; YOLOv8 uses CIoU). The `candidatesPerGroundTruth` candidates of
/// highest t (ties: lower point index) are g's positives. A point positive for several ground
/// truths goes to the one its predicted box overlaps most (YOLOv8's `select_highest_overlaps`;
/// equal IoUs: the lower ground-truth index). YOLOv8 takes that arg-max over every ground truth
/// containing the point, even one that did not select it; here only the ground truths that
/// selected the point compete, as in TOOD's mmdetection assigner.
///
/// The soft class target of a positive p of g is t_p / max t · max u, both maxima over g's final
/// positives (TOOD §3.2's normalized t / YOLOv8's `norm_align_metric`): the best-aligned point of each object
/// learns the object's best IoU, the others proportionally less.
public struct TaskAlignedAssigner: Sendable {
    public let points: PointGrid
    public var candidatesPerGroundTruth: Int
    /// Exponents of the alignment: α on the class score, β on the IoU (TOOD's α = 1, β = 6).
    public var alpha: Float
    public var beta: Float

    /// Ultralytics' margin for "centre inside the ground truth".
    static let centreMargin = 1e-9

    public init(points: PointGrid, candidatesPerGroundTruth: Int = 13, alpha: Float = 1, beta: Float = 6) {
        precondition(candidatesPerGroundTruth > 0, "TaskAlignedAssigner needs k ≥ 1, got \(candidatesPerGroundTruth)")
        self.points = points
        self.candidatesPerGroundTruth = candidatesPerGroundTruth
        self.alpha = alpha
        self.beta = beta
    }

    /// - Parameters:
    ///   - classProbabilities: [P, K] row-major, after the sigmoid, P = `points.count`.
    ///   - predictedBoxes: [P, 4] as x1, y1, x2, y2 in input pixels.
    ///   - groundTruths: boxes in input pixels, class indices in 0..<K.
    public func assign(classProbabilities: UnsafeBufferPointer<Float>, classCount: Int,
                       predictedBoxes: UnsafeBufferPointer<Float>, groundTruths: [Annotation]) -> TaskAlignedAssignment {
        let pointCount = points.count
        precondition(classCount > 0 && classProbabilities.count == pointCount * classCount && predictedBoxes.count == pointCount * 4,
                     "TaskAlignedAssigner: \(classProbabilities.count) probabilities and \(predictedBoxes.count) box values for \(pointCount) points × \(classCount) classes")
        var assigned = [Int](repeating: TargetAssignment.background, count: pointCount)
        var assignedIoU = [Double](repeating: -1, count: pointCount)
        var assignedAlignment = [Double](repeating: 0, count: pointCount)
        var best = TopKSelector()

        func iou(_ p: Int, _ box: BoundingBox) -> Double {
            let value = intersectionOverUnion(x1: Double(predictedBoxes[4 * p]), y1: Double(predictedBoxes[4 * p + 1]),
                                              x2: Double(predictedBoxes[4 * p + 2]), y2: Double(predictedBoxes[4 * p + 3]), box)
            return value.isFinite ? value : 0
        }
        func alignment(score: Float, iou: Double) -> Double {
            let s = Double(score).isFinite ? max(0, Double(score)) : 0
            return pow(s, Double(alpha)) * pow(iou, Double(beta))
        }

        for (g, truth) in groundTruths.enumerated() {
            precondition((0..<classCount).contains(truth.classIndex),
                         "TaskAlignedAssigner: ground truth \(g) has class \(truth.classIndex), outside 0..<\(classCount)")
            let box = truth.box
            best.reset(capacity: candidatesPerGroundTruth)
            points.forEachPoint(strictlyInsideX1: box.minX, y1: box.minY, x2: box.maxX, y2: box.maxY, margin: Self.centreMargin) { p in
                best.offer(alignment(score: classProbabilities[p * classCount + truth.classIndex], iou: iou(p, box)), index: p)
            }
            for (rank, p) in best.indices.enumerated() {
                let u = iou(p, box)
                guard u > assignedIoU[p] else { continue }
                assigned[p] = g
                assignedIoU[p] = u
                assignedAlignment[p] = best.values[rank]
            }
        }

        var maxAlignment = [Double](repeating: 0, count: groundTruths.count)
        var maxIoU = [Double](repeating: 0, count: groundTruths.count)
        for p in 0..<pointCount where assigned[p] != TargetAssignment.background {
            let g = assigned[p]
            maxAlignment[g] = max(maxAlignment[g], assignedAlignment[p])
            maxIoU[g] = max(maxIoU[g], assignedIoU[p])
        }
        var softTargets = [Float](repeating: 0, count: pointCount)
        var overlaps = [Float](repeating: 0, count: pointCount)
        for p in 0..<pointCount where assigned[p] != TargetAssignment.background {
            let g = assigned[p]
            overlaps[p] = Float(assignedIoU[p])
            // A ground truth whose positives all align to 0 (zero score or no overlap) teaches 0.
            if maxAlignment[g] > 0 { softTargets[p] = Float(assignedAlignment[p] / maxAlignment[g] * maxIoU[g]) }
        }
        return TaskAlignedAssignment(targets: TargetAssignment(groundTruthIndex: assigned), softTargets: softTargets,
                                     predictedIoU: overlaps)
    }

    public func assign(classProbabilities: [Float], classCount: Int, predictedBoxes: [Float],
                       groundTruths: [Annotation]) -> TaskAlignedAssignment {
        classProbabilities.withUnsafeBufferPointer { probabilities in
            predictedBoxes.withUnsafeBufferPointer { boxes in
                assign(classProbabilities: probabilities, classCount: classCount, predictedBoxes: boxes, groundTruths: groundTruths)
            }
        }
    }
}

/// A task-aligned result: the assignment plus, per point, the soft class target and the IoU
/// of the predicted box with the assigned ground truth (both 0 for background points).
public struct TaskAlignedAssignment: Equatable, Sendable {
    public let targets: TargetAssignment
    /// The target of the assigned ground truth's class channel for the quality / varifocal loss.
    public let softTargets: [Float]
    public let predictedIoU: [Float]
}
