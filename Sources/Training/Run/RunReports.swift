import Data
import Detection
import Evaluation
import Foundation
import Imaging
import Inference
import Plotting
import Support
import Weights

/// What a finished run writes: the evaluator's reports on val and test (with the best
/// checkpoint's weights), thresholds picked on val and applied on test, the weights file with
/// classes and thresholds, curves, a picture of predictions on test screens, `summary.json`.
struct RunReports {
    let trainer: Trainer
    var setup: TrainingSetup { trainer.setup }
    var config: ExperimentConfig { trainer.config }
    var run: RunFolder { trainer.run }

    func write() throws -> RunSummary {
        let log = trainer.options.log
        let show = trainer.options.showProgress
        if FileManager.default.fileExists(atPath: run.bestCheckpoint.appendingPathComponent("state.json").path) {
            try setup.restore(from: try Checkpoint.read(from: run.bestCheckpoint))
            log("reporting with the best checkpoint (epoch \((trainer.state.bestEpoch ?? 0) + 1), val mAP@0.5 \(String(format: "%.4f", trainer.state.bestValMAP50 ?? 0)))")
        }
        let val = try evaluate(split: config.data.val, thresholds: nil, showProgress: show)
        let strategy = try ThresholdStrategy(parsing: config.thresholdStrategy)
        let (thresholdFile, warnings) = try ThresholdFile.pick(fromReport: val.folder.path, strategy: strategy)
        warnings.forEach { log("warning: \($0)") }
        try AtomicFile.write(thresholdFile.yaml(), to: run.thresholdsFile)
        let test = config.data.evaluateTest ? try evaluate(split: config.data.test, thresholds: (thresholdFile, run.thresholdsFile.path), showProgress: show) : nil

        let thresholds: [ClassThreshold] = thresholdFile.classes.compactMap { entry in
            guard let confidence = entry.confidence else { return nil }
            return ClassThreshold(className: entry.name, confidence: confidence, precision: entry.precision ?? 0, recall: entry.recall ?? 0,
                                  f1: entry.f1 ?? 0, split: config.data.val)
        }
        let provenance = Provenance(runID: run.id, experiment: config.name, dataset: setup.data.description, trainSplit: config.data.train,
                                    valSplit: config.data.val, testSplit: config.data.evaluateTest ? config.data.test : nil,
                                    gitCommit: GitCommit.current(in: trainer.repositoryRoot), created: Provenance.timestamp(),
                                    valMAP50: val.outcome.report.map50, testMAP50: test?.outcome.report.map50)
        let tensors = try setup.ema.map { ema in try ema.withAverage(appliedTo: setup.model) { setup.model.stateTensors() } } ?? setup.model.stateTensors()
        var weights = WeightsFile(header: setup.header(provenance: provenance, epochs: trainer.state.epoch), tensors: tensors)
        weights = try weights.settingThresholds(thresholds.isEmpty ? nil : thresholds, file: run.weightsFile.path)
        try weights.write(to: run.weightsFile)

        try TrainingPlots.write(metrics: trainer.metrics, to: run.plotsFolder)
        let previewed = try writePreview(thresholds: thresholdFile)
        var state = trainer.state
        state.status = .finished
        try run.writeStatus(state)
        let summary = RunSummary(config: config, run: run, state: state, val: val.outcome.report, test: test?.outcome.report,
                                 thresholds: thresholdFile, weights: run.weightsFile.path, metrics: trainer.metrics,
                                 preview: previewed ? run.previewFile.path : nil)
        try summary.write(to: run.summaryFile)
        print(ReportFiles.summary((test ?? val).outcome))
        print("report: \((test ?? val).folder.path)/report.html · weights: \(run.weightsFile.path)"
              + (previewed ? " · predictions drawn: \(run.previewFile.path)" : ""))
        print("run folder: \(run.url.path)")
        return summary
    }

    struct SplitEvaluation {
        var outcome: EvaluationOutcome
        var folder: URL
    }

    /// Predicts `split` (COCO results beside the report), then runs the evaluator on the file as
    /// `screenlab evaluate` would, so the report is exactly the command's.
    func evaluate(split: String, thresholds: (file: ThresholdFile, path: String)?, showProgress: Bool) throws -> SplitEvaluation {
        let dataset = setup.data.dataset
        let (samples, output) = try setup.predict(split: split, showProgress: showProgress)
        let subset = try dataset.subset(split: split)
        let folder = run.reportsFolder.appendingPathComponent(split)
        let predictionsURL = run.reportsFolder.appendingPathComponent("\(split)-predictions.json")
        try COCOResultsWriter.write(output.predictions.map { (sampleIndex: $0.imageIndex, classIndex: $0.classIndex, box: $0.box, score: $0.score) },
                                    for: subset, to: predictionsURL)
        precondition(samples.count == subset.samples.count)
        let reference = EvaluationReport.SplitReference(dataset: config.data.dataset ?? dataset.root.path, split: split)
        let input = setup.model.configuration
        let options = EvaluationOptions(sizeSchemes: [.coco, .input(width: input.inputWidth, height: input.inputHeight)])
        let job = EvaluationJob(dataset: subset, data: reference, predictionsPath: predictionsURL.path, options: options,
                                thresholds: thresholds?.file, thresholdsPath: thresholds?.path)
        let outcome = try job.run()
        try ReportFiles.write(outcome, to: folder)
        outcome.warnings.forEach { trainer.options.log("warning: \($0)") }
        return SplitEvaluation(outcome: outcome, folder: folder)
    }

    /// The first test screens with the detections kept at the picked thresholds, in class colours.
    func writePreview(thresholds: ThresholdFile) throws -> Bool {
        guard config.previewImages > 0 else { return false }
        let split = config.data.evaluateTest ? config.data.test : config.data.val
        let dataset = setup.data.dataset
        let all = try dataset.samples(inSplit: split)
        let samples = Array(all.prefix(config.previewImages))
        let confidences = dataset.classes.map { thresholds.entry(named: $0)?.confidence }
        let predictor = try setup.predictor(scoreThreshold: 0.05, thresholds: confidences.map { $0 ?? 1.01 })
        let run = { try predictor.predict(samples, imageURL: dataset.imageURL(of:), label: "drawing predictions", showProgress: false) }
        let output = try setup.ema.map { try $0.withAverage(appliedTo: setup.model, run) } ?? run()
        var images: [RGBImage] = []
        for (position, sample) in samples.enumerated() {
            guard let image = try? ImageIO.read(dataset.imageURL(of: sample)) else { continue }
            images.append(PredictionWriter.drawn(image, output.predictions.filter { $0.imageIndex == position }, classes: dataset.classes))
        }
        guard !images.isEmpty else { return false }
        try ImageIO.writePNG(ContactSheet.grid(images, columns: min(4, images.count)), to: self.run.previewFile)
        return true
    }
}

/// The checkout's commit, when the repository is a git work tree (provenance only).
enum GitCommit {
    static func current(in folder: URL) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path, "rev-parse", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
