import Data

/// Counts of (true class, predicted class) with a background row and column, last.
public struct ConfusionMatrix: Equatable {
    /// Class names followed by "background".
    public var labels: [String]
    /// counts[true][predicted]; the background row holds unmatched detections, the background
    /// column missed ground truth, and [background][background] is always 0.
    public var counts: [[Int]]
    /// Per-class confidence used (detections below it were dropped before matching).
    public var thresholds: [Double]
    public var iouThreshold: Double

    public var classCount: Int { labels.count - 1 }

    /// Each row divided by its sum (rows with no entries stay 0).
    public var rowNormalized: [[Double]] {
        counts.map { row in
            let total = row.reduce(0, +)
            return row.map { total > 0 ? Double($0) / Double(total) : 0 }
        }
    }
}

/// One cell entry of the confusion matrix: a ground-truth box and the detection that took it,
/// a missed box (no detection), or a detection that took no box (no truth). `screenlab serve`
/// lists a cell's entries to show the screens behind it.
public struct ConfusionEntry: Equatable {
    public var imageIndex: Int
    /// The true class, or the background index (`classCount`) for a detection on no box.
    public var trueClass: Int
    /// The predicted class, or the background index for a missed box.
    public var predictedClass: Int
    public var truth: BoundingBox?
    public var detection: PredictedBox?
}

extension EvaluationIndex {
    /// Class-agnostic greedy matching per image: detections with score ≥ their class's threshold,
    /// by score (ties: input order), each take the unmatched ground truth of any class with the
    /// highest IoU ≥ the IoU threshold; exact IoU ties prefer the detection's own class, then the
    /// box listed later. Every ground-truth box and kept detection lands in exactly one cell.
    func confusion(thresholds: [Double], iouThreshold: Double, classNames: [String]) -> ConfusionMatrix {
        var counts = [[Int]](repeating: [Int](repeating: 0, count: classCount + 1), count: classCount + 1)
        for entry in confusionEntries(thresholds: thresholds, iouThreshold: iouThreshold) {
            counts[entry.trueClass][entry.predictedClass] += 1
        }
        return ConfusionMatrix(labels: classNames + ["background"], counts: counts, thresholds: thresholds, iouThreshold: iouThreshold)
    }

    /// The matching behind `confusion`, one entry per ground-truth box and kept detection, by
    /// image, then detections in score order, then the image's missed boxes.
    func confusionEntries(thresholds: [Double], iouThreshold: Double) -> [ConfusionEntry] {
        let background = classCount
        var entries: [ConfusionEntry] = []
        // Detections per image, kept in (score desc, input order) via a stable bucket by image.
        var byImage = [[Int]](repeating: [], count: imageCount)
        var kept: [Int] = []
        for d in det.indices where det[d].score >= thresholds[det[d].classIndex] { kept.append(d) }
        kept.sort { a, b in det[a].score != det[b].score ? det[a].score > det[b].score : a < b }
        for d in kept { byImage[det[d].imageIndex].append(d) }
        var matched = [Bool](repeating: false, count: gtClass.count)
        func truthBox(_ g: Int) -> BoundingBox { BoundingBox(x: gtMinX[g], y: gtMinY[g], width: gtMaxX[g] - gtMinX[g], height: gtMaxY[g] - gtMinY[g]) }
        for image in 0..<imageCount {
            let truths = gtByImage[image]
            for d in byImage[image] {
                let p = det[d]
                let boxArea = p.box.width * p.box.height
                var best = -1, bestIoU = iouThreshold, bestSameClass = false
                for g in truths where !matched[g] {
                    let overlap = iou(p.box, boxArea: boxArea, gt: g)
                    if overlap < bestIoU { continue }
                    let sameClass = gtClass[g] == p.classIndex
                    if overlap == bestIoU && best >= 0 && bestSameClass && !sameClass { continue }
                    bestIoU = overlap; best = g; bestSameClass = sameClass
                }
                if best >= 0 {
                    matched[best] = true
                    entries.append(ConfusionEntry(imageIndex: image, trueClass: gtClass[best], predictedClass: p.classIndex, truth: truthBox(best), detection: p))
                } else {
                    entries.append(ConfusionEntry(imageIndex: image, trueClass: background, predictedClass: p.classIndex, truth: nil, detection: p))
                }
            }
            for g in truths where !matched[g] {
                entries.append(ConfusionEntry(imageIndex: image, trueClass: gtClass[g], predictedClass: background, truth: truthBox(g), detection: nil))
            }
        }
        return entries
    }
}
