import Data

/// Which ground-truth boxes a detection may claim.
public enum MatchCriterion: Equatable {
    /// IoU ≥ threshold; among several, the highest IoU.
    case iou(Double)
    /// The detection's center lies inside the box (boundary included); among several, the highest IoU.
    case centerHit
}

/// One class's detections in ranking order with their match outcome.
public struct RankedDetections: Equatable {
    /// Scores, non-increasing.
    public var scores: [Double]
    public var isTruePositive: [Bool]
    public var groundTruthCount: Int

    public init(scores: [Double], isTruePositive: [Bool], groundTruthCount: Int) {
        self.scores = scores
        self.isTruePositive = isTruePositive
        self.groundTruthCount = groundTruthCount
    }
}

extension EvaluationIndex {
    /// Greedy matching of one class: detections in (score desc, image rank, input order); each takes
    /// the unmatched ground truth of its class and image that passes `criterion` with the highest
    /// IoU. Exact IoU ties go to the box listed later, as in pycocotools' evaluateImg (it keeps
    /// replacing the candidate while `iou >= best`). Within one image this is the same as
    /// pycocotools' per-image loop, because a detection only competes with higher-ranked ones.
    func rank(classIndex c: Int, criterion: MatchCriterion, matched: inout [Bool]) -> RankedDetections {
        let range = classStart[c]..<classStart[c + 1]
        var scores = [Double](repeating: 0, count: range.count)
        var hits = [Bool](repeating: false, count: range.count)
        var touched: [Int] = []
        for (rank, d) in range.enumerated() {
            let p = det[d]
            scores[rank] = p.score
            let candidates = gtRange(image: p.imageIndex, classIndex: c)
            if candidates.isEmpty { continue }
            let boxArea = p.box.width * p.box.height
            var best = -1
            switch criterion {
            case .iou(let threshold):
                var bestIoU = threshold
                for g in candidates where !matched[g] {
                    let overlap = iou(p.box, boxArea: boxArea, gt: g)
                    if overlap < bestIoU { continue }
                    bestIoU = overlap
                    best = g
                }
            case .centerHit:
                let cx = p.box.x + p.box.width / 2, cy = p.box.y + p.box.height / 2
                var bestIoU = -1.0
                for g in candidates where !matched[g] {
                    guard cx >= gtMinX[g], cx <= gtMaxX[g], cy >= gtMinY[g], cy <= gtMaxY[g] else { continue }
                    let overlap = iou(p.box, boxArea: boxArea, gt: g)
                    if overlap < bestIoU { continue }
                    bestIoU = overlap
                    best = g
                }
            }
            if best >= 0 {
                matched[best] = true
                touched.append(best)
                hits[rank] = true
            }
        }
        for g in touched { matched[g] = false }
        return RankedDetections(scores: scores, isTruePositive: hits, groundTruthCount: gtCount[c])
    }
}
