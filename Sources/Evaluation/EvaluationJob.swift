import Data
import Foundation

/// Everything `screenlab evaluate` does between parsing arguments and printing: read the
/// predictions, score them, apply thresholds, build the report.
public struct EvaluationJob {
    /// The evaluated images (already restricted to the split).
    public var dataset: Dataset
    public var data: EvaluationReport.SplitReference
    public var predictionsPath: String
    public var options: EvaluationOptions
    public var lenient: Bool
    public var thresholds: ThresholdFile?
    public var thresholdsPath: String?
    /// Confusion-matrix confidence for every class when no thresholds file is given.
    public var confidence: Double
    /// The dataset's images outside the evaluated split: predictions on them are dropped and
    /// counted instead of being errors (a results file may cover the whole dataset).
    public var outsideSplit: [Sample] = []

    public init(dataset: Dataset, data: EvaluationReport.SplitReference, predictionsPath: String, options: EvaluationOptions,
                lenient: Bool = false, thresholds: ThresholdFile? = nil, thresholdsPath: String? = nil, confidence: Double = 0.5,
                outsideSplit: [Sample] = []) {
        self.dataset = dataset; self.data = data; self.predictionsPath = predictionsPath; self.options = options
        self.outsideSplit = outsideSplit
        self.lenient = lenient; self.thresholds = thresholds; self.thresholdsPath = thresholdsPath; self.confidence = confidence
    }
}

public struct EvaluationOutcome {
    public var report: EvaluationReport
    public var result: EvaluationResult
    public var confusion: ConfusionMatrix
    /// Things the user must know (same split for picking and reporting, fallbacks, skipped entries).
    public var warnings: [String]
}

extension EvaluationJob {
    public func run() throws -> EvaluationOutcome {
        try run(predictions: try readPredictions())
    }

    public func readPredictions() throws -> PredictionSet {
        let reader = COCOResultsReader(samples: dataset.samples, cocoImageIDs: dataset.samples.map(\.cocoImageID),
                                       classNames: dataset.classes, cocoCategoryIDs: dataset.cocoCategoryIDs,
                                       outsideSplit: outsideSplit, splitName: data.split)
        return try reader.read(URL(fileURLWithPath: predictionsPath), lenient: lenient)
    }

    public func run(predictions set: PredictionSet) throws -> EvaluationOutcome {
        guard confidence.isFinite else { throw EvaluationError.invalidOption("confidence must be a finite number") }
        var warnings: [String] = []
        if set.skippedCount > 0 {
            let reasons = set.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            warnings.append("skipped \(set.skippedCount) of \(set.entries) prediction entries (--lenient): \(reasons)")
        }
        let evaluator = try DetectionEvaluator(classNames: dataset.classes, samples: dataset.samples,
                                               predictions: set.predictions, options: options)
        let result = evaluator.evaluate()
        var classes = result.classes.enumerated().map { c, evaluation in
            var report = EvaluationReport.ClassReport(name: evaluation.name, groundTruth: evaluation.groundTruth, detections: evaluation.detections,
                                                      ap50: evaluation.ap50, apCenter: evaluation.apCenter,
                                                      curveCSV: "curves/\(ReportFiles.slugs(dataset.classes)[c]).csv")
            if let coco = result.coco { report.coco = .init(coco.classes[c], caps: coco.caps) }
            return report
        }
        var confidences = [Double](repeating: confidence, count: dataset.classes.count)
        var source: EvaluationReport.ThresholdSource?
        if let thresholds {
            let missing = dataset.classes.filter { thresholds.entry(named: $0) == nil }
            guard missing.isEmpty else {
                throw EvaluationError.badThresholds(file: thresholdsPath ?? "thresholds", reason: "no entry for class\(missing.count > 1 ? "es" : "") \(missing.map { "'\($0)'" }.joined(separator: ", ")); pick thresholds on a report of the same classes")
            }
            for (c, name) in dataset.classes.enumerated() {
                let entry = thresholds.entry(named: name)!
                guard let chosen = entry.confidence else {
                    confidences[c] = .infinity
                    // Files written before notes named their split say "this split": that is the pick split.
                    let reason = (entry.note ?? "none picked").replacingOccurrences(of: "this split", with: thresholds.pickedOn.description)
                    warnings.append("class '\(name)' has no threshold in \(thresholdsPath ?? "the thresholds file") (at picking: \(reason)); its detections are left out of the confusion matrix")
                    continue
                }
                confidences[c] = chosen
                let point = result.classes[c].curve.point(atConfidence: chosen)
                classes[c].threshold = chosen
                classes[c].keptDetections = point.truePositives + point.falsePositives
                if result.classes[c].groundTruth > 0 {
                    classes[c].precision = point.precision; classes[c].recall = point.recall; classes[c].f1 = point.f1
                }
            }
            let same = thresholds.pickedOn.isSameSplit(as: data)
            if same {
                warnings.append("thresholds were picked on the split they are reported on (\(data.description)): precision/recall/F1 are optimistic; pick on val and report on test")
            }
            if thresholds.iouThreshold != options.iouThreshold {
                warnings.append("thresholds were picked at IoU \(thresholds.iouThreshold) but this evaluation uses IoU \(options.iouThreshold)")
            }
            source = .init(file: thresholdsPath ?? "", strategy: thresholds.strategy, pickedOn: thresholds.pickedOn, reportedOn: data, sameSplit: same)
        }
        let matrix = try evaluator.confusionMatrix(thresholds: confidences)
        let report = EvaluationReport(
            format: EvaluationReport.currentFormat, data: data, predictions: predictionsPath, predictionsRead: set.predictions.count,
            predictionsSkipped: set.skipped, iouThreshold: options.iouThreshold, interpolation: options.interpolation.rawValue,
            maxDetections: options.maxDetections, images: result.imageCount, classes: classes,
            map50: result.map50, mapCenter: result.mapCenter, weightedMap50: result.weightedMap50, weightedMapCenter: result.weightedMapCenter,
            thresholds: source,
            confusion: .init(labels: matrix.labels, thresholds: confidences.map { $0.isFinite ? $0 : nil }, counts: matrix.counts),
            notes: dataset.notes + set.notes, coco: result.coco.map(COCOSummaryReport.init), sizes: result.sizes.isEmpty ? nil : result.sizes)
        return EvaluationOutcome(report: report, result: result, confusion: matrix, warnings: warnings)
    }
}
