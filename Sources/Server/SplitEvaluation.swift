import Data
import Evaluation
import Foundation
import Registry

/// A run's predictions on one split scored again, kept for the pages that need more than the
/// report's files: the screens behind a confusion cell (`ConfusionEntry`, the report's own
/// matching at the report's own thresholds) and exact operating points at any confidence.
/// Built from what the run left — its report (`metrics.json`), the predictions file it names
/// and the dataset it was scored on — so it always agrees with the report.
final class SplitEvaluation: @unchecked Sendable {
    let runID: String
    let split: String
    let report: EvaluationReport
    let reportFolder: URL
    let dataset: Dataset
    let result: EvaluationResult
    /// The confidence per class the report's confusion matrix used (∞: the class kept nothing).
    let confusionThresholds: [Double]
    let entries: [ConfusionEntry]

    init(runID: String, split: String, report: EvaluationReport, reportFolder: URL, dataset: Dataset, result: EvaluationResult,
         confusionThresholds: [Double], entries: [ConfusionEntry]) {
        self.runID = runID; self.split = split; self.report = report; self.reportFolder = reportFolder; self.dataset = dataset
        self.result = result; self.confusionThresholds = confusionThresholds; self.entries = entries
    }

    /// Reads and scores; every missing piece is a `WorkbenchError` saying which file and what to do.
    static func load(run: RunResults, split: String, registryFile: URL) throws -> SplitEvaluation {
        let (report, folder) = try RunFiles.report(of: run, split: split)
        let predictions = URL(fileURLWithPath: report.predictions)
        guard FileManager.default.fileExists(atPath: predictions.path) else {
            throw WorkbenchError.gone("the predictions of run \(run.run.id) on \(split) (\(predictions.path)) are gone; "
                                      + "score the run again with `screenlab evaluate` to see its screens")
        }
        let reference = RunFiles.datasetReference(report.data, run: run, registryFile: registryFile)
        let whole: Dataset
        do {
            whole = try DatasetLoader.load(DatasetReference(path: reference))
        } catch {
            throw WorkbenchError.gone("the dataset run \(run.run.id) was scored on (\(report.data.description)) cannot be read here: \(error)")
        }
        let dataset = try report.data.split.map { try whole.subset(split: $0) } ?? whole
        var outside: [Sample] = []
        if let name = report.data.split {
            let inside = Set(whole.splits[name] ?? [])
            outside = whole.samples.indices.filter { !inside.contains($0) }.map { whole.samples[$0] }
        }
        let reader = COCOResultsReader(samples: dataset.samples, cocoImageIDs: dataset.samples.map(\.cocoImageID), classNames: dataset.classes,
                                       cocoCategoryIDs: dataset.cocoCategoryIDs, outsideSplit: outside, splitName: report.data.split)
        let set = try reader.read(predictions, lenient: true)
        var options = EvaluationOptions()
        options.iouThreshold = report.iouThreshold
        options.maxDetections = report.maxDetections
        options.interpolation = Interpolation(rawValue: report.interpolation) ?? .allPoint
        let evaluator = try DetectionEvaluator(classNames: dataset.classes, samples: dataset.samples, predictions: set.predictions, options: options)
        let thresholds = report.confusion.thresholds.map { $0 ?? .infinity }
        guard thresholds.count == dataset.classes.count else {
            throw WorkbenchError.gone("\(folder.path)/metrics.json has \(thresholds.count) confusion thresholds for \(dataset.classes.count) classes: "
                                      + "the report and its dataset disagree; score the run again with `screenlab evaluate`")
        }
        return SplitEvaluation(runID: run.run.id, split: split, report: report, reportFolder: folder, dataset: dataset,
                               result: evaluator.evaluate(), confusionThresholds: thresholds,
                               entries: try evaluator.confusionEntries(thresholds: thresholds))
    }

    /// The screens behind some entries, worst first: most entries, then dataset order.
    func screens(matching keep: (ConfusionEntry) -> Bool) -> [(imageIndex: Int, entries: [ConfusionEntry])] {
        var byImage: [Int: [ConfusionEntry]] = [:]
        for entry in entries where keep(entry) { byImage[entry.imageIndex, default: []].append(entry) }
        return byImage.map { ($0.key, $0.value) }.sorted { $0.entries.count != $1.entries.count ? $0.entries.count > $1.entries.count : $0.imageIndex < $1.imageIndex }
    }
}

/// Scored splits by (run, split): scoring vins-ui's test split takes a second or two, and the
/// examples page asks for one picture per screen.
actor SplitEvaluationCache {
    private var loaded: [String: SplitEvaluation] = [:]
    private var order: [String] = []
    private let capacity: Int

    init(capacity: Int = 8) { self.capacity = capacity }

    func evaluation(run: RunResults, split: String, registryFile: URL) async throws -> SplitEvaluation {
        // The run's folder and report time stamp are part of the key: a resumed or re-scored run is scored again.
        let metrics = run.artifacts.first { $0.kind == "report" && $0.name == split }.map { $0.path + "/metrics.json" }
        let stamp = metrics.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }
        let key = "\(run.run.id)\u{0}\(split)\u{0}\(stamp?.timeIntervalSince1970 ?? 0)"
        if let hit = loaded[key] { return hit }
        let evaluation = try await offload { try SplitEvaluation.load(run: run, split: split, registryFile: registryFile) }
        loaded[key] = evaluation
        order.append(key)
        if order.count > capacity { loaded[order.removeFirst()] = nil }
        return evaluation
    }
}

/// Runs blocking work (SQLite reads, file IO, scoring, PNG encoding) off Swift's cooperative
/// threads, so one slow page does not hold up the others.
func offload<T>(_ work: @escaping () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(with: Result { try work() })
        }
    }
}
