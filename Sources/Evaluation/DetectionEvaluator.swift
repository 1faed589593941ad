import Data

/// Scores of one class.
public struct ClassEvaluation: Equatable {
    public var name: String
    public var groundTruth: Int
    /// Detections scored (after the optional per-image cap).
    public var detections: Int
    /// nil when the class has no ground truth.
    public var ap50: Double?
    public var apCenter: Double?
    /// Operating points under IoU matching (thresholds are picked on these).
    public var curve: OperatingCurve
    public var centerCurve: OperatingCurve
}

/// Per-class AP at the IoU threshold and center-hit AP, with plain and ground-truth-weighted means.
public struct EvaluationResult: Equatable {
    public var options: EvaluationOptions
    public var imageCount: Int
    public var classes: [ClassEvaluation]
    /// COCO's summary (mAP@0.5:0.95, AP75, AR@caps) at `options.effectiveCOCOMaxDetections`.
    public var coco: COCOSummary?
    /// One per `options.sizeSchemes`.
    public var sizes: [SizeBreakdown] = []

    /// Mean over classes that have ground truth.
    public var map50: Double? { Self.mean(classes.map { ($0.ap50, $0.groundTruth) }, weighted: false) }
    public var mapCenter: Double? { Self.mean(classes.map { ($0.apCenter, $0.groundTruth) }, weighted: false) }
    /// Σ AP_c · n_c / Σ n_c with n_c the ground-truth count (the paper's "weighted mean").
    public var weightedMap50: Double? { Self.mean(classes.map { ($0.ap50, $0.groundTruth) }, weighted: true) }
    public var weightedMapCenter: Double? { Self.mean(classes.map { ($0.apCenter, $0.groundTruth) }, weighted: true) }

    static func mean(_ values: [(Double?, Int)], weighted: Bool) -> Double? {
        var sum = 0.0, weight = 0.0
        for case let (value?, count) in values {
            let w = weighted ? Double(count) : 1
            sum += value * w
            weight += w
        }
        return weight > 0 ? sum / weight : nil
    }
}

/// Scores detections against ground truth. Build once, then ask for metrics and confusion matrices.
public struct DetectionEvaluator {
    public let classNames: [String]
    public let options: EvaluationOptions
    let index: EvaluationIndex
    let samples: [Sample]

    public init(classNames: [String], samples: [Sample], predictions: [PredictedBox], options: EvaluationOptions = .init()) throws {
        guard options.iouThreshold > 0, options.iouThreshold <= 1 else {
            throw EvaluationError.invalidOption("IoU threshold must be in (0, 1], got \(options.iouThreshold)")
        }
        if let cap = options.maxDetections, cap < 1 {
            throw EvaluationError.invalidOption("max detections must be at least 1, got \(cap)")
        }
        guard options.cocoMaxDetections >= 1 else {
            throw EvaluationError.invalidOption("the COCO summary's detection cap must be at least 1, got \(options.cocoMaxDetections)")
        }
        for (i, p) in predictions.enumerated() {
            guard (0..<samples.count).contains(p.imageIndex), (0..<classNames.count).contains(p.classIndex), p.score.isFinite else {
                throw EvaluationError.invalidOption("prediction \(i) refers to image \(p.imageIndex) of \(samples.count), class \(p.classIndex) of \(classNames.count), score \(p.score)")
            }
        }
        for sample in samples {
            if let bad = sample.annotations.first(where: { !(0..<classNames.count).contains($0.classIndex) }) {
                throw EvaluationError.invalidOption("image '\(sample.id)' has an annotation of class index \(bad.classIndex), but there are \(classNames.count) classes")
            }
        }
        self.classNames = classNames
        self.options = options
        self.samples = samples
        index = EvaluationIndex(samples: samples, classCount: classNames.count, predictions: predictions,
                                maxDetections: options.maxDetections)
    }

    public func rankedDetections(classIndex: Int, criterion: MatchCriterion) -> RankedDetections {
        var matched = [Bool](repeating: false, count: index.gtClass.count)
        return index.rank(classIndex: classIndex, criterion: criterion, matched: &matched)
    }

    public func evaluate() -> EvaluationResult {
        var matched = [Bool](repeating: false, count: index.gtClass.count)
        var classes: [ClassEvaluation] = []
        for (c, name) in classNames.enumerated() {
            let byIoU = index.rank(classIndex: c, criterion: .iou(options.iouThreshold), matched: &matched)
            let byCenter = index.rank(classIndex: c, criterion: .centerHit, matched: &matched)
            classes.append(ClassEvaluation(
                name: name, groundTruth: index.gtCount[c], detections: byIoU.scores.count,
                ap50: AveragePrecision.compute(byIoU, interpolation: options.interpolation),
                apCenter: AveragePrecision.compute(byCenter, interpolation: options.interpolation),
                curve: OperatingCurve(byIoU), centerCurve: OperatingCurve(byCenter)))
        }
        let cap = options.effectiveCOCOMaxDetections
        return EvaluationResult(options: options, imageCount: index.imageCount, classes: classes, coco: index.cocoSummary(cap: cap),
                                sizes: options.sizeSchemes.map { index.sizeBreakdown($0, samples: samples, cap: cap, interpolation: options.interpolation) })
    }

    /// Confusion matrix at one confidence per class (same value everywhere for a global threshold).
    public func confusionMatrix(thresholds: [Double]) throws -> ConfusionMatrix {
        guard thresholds.count == classNames.count else {
            throw EvaluationError.invalidOption("need one confidence threshold per class (\(classNames.count)), got \(thresholds.count)")
        }
        return index.confusion(thresholds: thresholds, iouThreshold: options.iouThreshold, classNames: classNames)
    }

    /// What each cell of `confusionMatrix(thresholds:)` holds, entry by entry (same matching).
    public func confusionEntries(thresholds: [Double]) throws -> [ConfusionEntry] {
        guard thresholds.count == classNames.count else {
            throw EvaluationError.invalidOption("need one confidence threshold per class (\(classNames.count)), got \(thresholds.count)")
        }
        return index.confusionEntries(thresholds: thresholds, iouThreshold: options.iouThreshold)
    }
}
