/// Average precision of one ranked list of detections.
public enum AveragePrecision {
    /// nil when the class has no ground truth (AP is undefined, and left out of means).
    public static func compute(_ ranked: RankedDetections, interpolation: Interpolation) -> Double? {
        guard ranked.groundTruthCount > 0 else { return nil }
        switch interpolation {
        case .allPoint: return allPoint(ranked.isTruePositive, groundTruthCount: ranked.groundTruthCount)
        case .coco101: return coco101(ranked.isTruePositive, groundTruthCount: ranked.groundTruthCount)
        }
    }

    /// Σ_k (r_k − r_{k−1}) · max_{j ≥ k} p_j over ranks k, with r_0 = 0 (PASCAL VOC 2010+).
    /// Recall only grows at true positives, so only those ranks add area.
    public static func allPoint(_ hits: [Bool], groundTruthCount n: Int) -> Double {
        let count = hits.count
        guard count > 0, n > 0 else { return 0 }
        var precision = [Double](repeating: 0, count: count)
        var tp = 0
        for k in 0..<count {
            if hits[k] { tp += 1 }
            precision[k] = Double(tp) / Double(k + 1)
        }
        for k in stride(from: count - 2, through: 0, by: -1) where precision[k] < precision[k + 1] {
            precision[k] = precision[k + 1]
        }
        var area = 0.0, previousRecall = 0.0
        tp = 0
        for k in 0..<count where hits[k] {
            tp += 1
            let recall = Double(tp) / Double(n)
            area += (recall - previousRecall) * precision[k]
            previousRecall = recall
        }
        return area
    }

    /// pycocotools COCOeval.accumulate for one class, one IoU threshold and one area range,
    /// reproduced operation by operation: precision = tp / (tp + fp + eps) with eps = np.spacing(1),
    /// made non-increasing from the right, then read at the first rank whose recall reaches each
    /// threshold i · 0.01 (np.searchsorted side='left'); thresholds past the last recall read 0.
    public static func coco101(_ hits: [Bool], groundTruthCount n: Int) -> Double {
        let count = hits.count
        let thresholds = recallThresholds
        guard n > 0 else { return 0 }
        var precision = [Double](repeating: 0, count: count)
        var recall = [Double](repeating: 0, count: count)
        var tp = 0, fp = 0
        for k in 0..<count {
            if hits[k] { tp += 1 } else { fp += 1 }
            recall[k] = Double(tp) / Double(n)
            precision[k] = Double(tp) / (Double(fp + tp) + Double.ulpOfOne)
        }
        if count > 1 {
            for k in stride(from: count - 1, through: 1, by: -1) where precision[k] > precision[k - 1] {
                precision[k - 1] = precision[k]
            }
        }
        var sum = 0.0
        var k = 0
        for threshold in thresholds {
            while k < count && recall[k] < threshold { k += 1 }
            if k < count { sum += precision[k] }
        }
        return sum / Double(thresholds.count)
    }

    /// np.linspace(0, 1, 101): i · (1/100) with the last value exactly 1.
    public static let recallThresholds: [Double] = (0...100).map { $0 == 100 ? 1.0 : Double($0) * (1.0 / 100.0) }
}
