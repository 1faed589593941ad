import Data

/// What became of each box and detection on one screen at a per-class operating point, for
/// drawing a model's errors on the screenshot (`screenlab errors`): the evaluator's matching
/// (per class, highest score first, the unmatched box of highest IoU ≥ the threshold), then
/// each unmatched detection is explained by the box it overlaps best.
public struct ScreenErrors: Equatable {
    public enum DetectionOutcome: String, Equatable, Sendable {
        /// Matched a box of its class at IoU ≥ the threshold.
        case hit
        /// Overlaps a missed box of its class, but below the IoU threshold (at ≥ `placementIoU`).
        case badlyPlaced = "badly placed"
        /// Lies on a box of another class at IoU ≥ the threshold that no detection of its own class found.
        case wrongClass = "wrong class"
        /// None of the above: a detection where there is no element (or a duplicate).
        case falsePositive = "false positive"
    }

    public struct Detection: Equatable {
        public var prediction: PredictedBox
        public var outcome: DetectionOutcome
    }

    public var imageIndex: Int
    /// Detections at or above their class's confidence, most confident first.
    public var detections: [Detection]
    /// Indices into the screen's annotations of the boxes no detection of their class matched.
    public var missed: [Int]

    public var count: (hits: Int, misses: Int, errors: Int) {
        (detections.filter { $0.outcome == .hit }.count, missed.count, detections.filter { $0.outcome != .hit }.count + missed.count)
    }

    /// Below this IoU an overlap explains nothing (a detection beside a box is a false positive).
    public static let placementIoU = 0.1

    /// `confidences[c]`: class c's operating point (nil: none of its detections are kept).
    public init(imageIndex: Int, sample: Sample, predictions: [PredictedBox], confidences: [Double?], iouThreshold: Double = 0.5) {
        self.imageIndex = imageIndex
        let kept = predictions.filter { p in p.imageIndex == imageIndex && confidences.indices.contains(p.classIndex)
            && confidences[p.classIndex].map { p.score >= $0 } == true }
            .sorted { $0.score > $1.score }
        let truths = sample.annotations
        var matched = [Bool](repeating: false, count: truths.count)
        var outcomes = [DetectionOutcome?](repeating: nil, count: kept.count)
        for (d, p) in kept.enumerated() {
            var best = -1, bestIoU = iouThreshold
            for (g, truth) in truths.enumerated() where !matched[g] && truth.classIndex == p.classIndex {
                let overlap = p.box.iou(truth.box)
                if overlap >= bestIoU { best = g; bestIoU = overlap }
            }
            if best >= 0 { matched[best] = true; outcomes[d] = .hit }
        }
        missed = truths.indices.filter { !matched[$0] }
        let missed = missed
        detections = zip(kept, outcomes).map { p, outcome in
            if let outcome { return Detection(prediction: p, outcome: outcome) }
            var explained = DetectionOutcome.falsePositive
            var best = Self.placementIoU
            for g in missed {
                let truth = truths[g], overlap = p.box.iou(truth.box)
                if truth.classIndex == p.classIndex, overlap >= best, overlap < iouThreshold {
                    explained = .badlyPlaced; best = overlap
                } else if truth.classIndex != p.classIndex, overlap >= iouThreshold, explained != .badlyPlaced {
                    explained = .wrongClass
                }
            }
            return Detection(prediction: p, outcome: explained)
        }
    }

    /// Each class's max-F1 confidence on the evaluated split (nil: no ground truth or no match),
    /// so two models are each drawn at their own best operating point.
    public static func maxF1Confidences(_ result: EvaluationResult) -> [Double?] {
        result.classes.map { ThresholdPicker.pick($0.curve, className: $0.name, strategy: .maxF1).point?.confidence }
    }
}
