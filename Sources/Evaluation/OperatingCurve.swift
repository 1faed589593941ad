/// Precision, recall and F1 when keeping the detections with score ≥ a confidence.
public struct OperatingPoint: Equatable, Codable {
    public var confidence: Double
    public var truePositives: Int
    public var falsePositives: Int
    public var precision: Double
    public var recall: Double
    public var f1: Double

    public init(confidence: Double, truePositives: Int, falsePositives: Int, groundTruthCount: Int) {
        self.confidence = confidence
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        let kept = truePositives + falsePositives
        precision = kept > 0 ? Double(truePositives) / Double(kept) : 0
        recall = groundTruthCount > 0 ? Double(truePositives) / Double(groundTruthCount) : 0
        f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
    }

    public init(confidence: Double, truePositives: Int, falsePositives: Int, precision: Double, recall: Double, f1: Double) {
        self.confidence = confidence; self.truePositives = truePositives; self.falsePositives = falsePositives
        self.precision = precision; self.recall = recall; self.f1 = f1
    }
}

/// The operating points a confidence threshold can reach: one per distinct score (a threshold
/// cannot split detections with equal scores), from the highest confidence down.
public struct OperatingCurve: Equatable {
    public var points: [OperatingPoint]
    public var groundTruthCount: Int

    public init(points: [OperatingPoint], groundTruthCount: Int) {
        self.points = points
        self.groundTruthCount = groundTruthCount
    }

    public init(_ ranked: RankedDetections) {
        var points: [OperatingPoint] = []
        var tp = 0, fp = 0
        let count = ranked.scores.count
        for k in 0..<count {
            if ranked.isTruePositive[k] { tp += 1 } else { fp += 1 }
            if k == count - 1 || ranked.scores[k + 1] != ranked.scores[k] {
                points.append(OperatingPoint(confidence: ranked.scores[k], truePositives: tp, falsePositives: fp,
                                             groundTruthCount: ranked.groundTruthCount))
            }
        }
        self.init(points: points, groundTruthCount: ranked.groundTruthCount)
    }

    /// The point for "keep detections with score ≥ confidence"; a confidence above every score
    /// keeps nothing (precision, recall and F1 are then 0).
    public func point(atConfidence confidence: Double) -> OperatingPoint {
        // Points run from high to low confidence: find the last one still ≥ confidence.
        var low = 0, high = points.count
        while low < high {
            let mid = (low + high) / 2
            if points[mid].confidence >= confidence { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else {
            return OperatingPoint(confidence: confidence, truePositives: 0, falsePositives: 0, groundTruthCount: groundTruthCount)
        }
        var point = points[low - 1]
        point.confidence = confidence
        return point
    }
}
