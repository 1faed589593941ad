import ArgumentParser
import Benchmarks
import Data
import Evaluation
import Foundation
import Inference
import Registry
import Support

extension Interpolation: ExpressibleByArgument {}

/// Warnings and notes go to standard error so standard output stays the result.
func warn(_ message: String) { FileHandle.standardError.write(Data("warning: \(message)\n".utf8)) }

/// Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org).
private var useColor: Bool {
    isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
}

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate", abstract: "Score detections against a dataset: AP@IoU, center AP, COCO's mAP@0.5:0.95 and AR, curves, confusion matrix, reports.",
        discussion: """
        Predictions are a COCO results file: [{"image_id", "category_id", "bbox": [x, y, w, h], "score"}], where image_id is the \
        COCO image id or the image's file name and category_id the COCO category id or the class name. Writes metrics.json, \
        report.md, report.html, curves/*.csv, confusion CSVs and plots/*.svg into --out.
        """)

    @Option(name: .long, help: "Dataset config (.yaml), YOLO folder or COCO .json, optionally :SPLIT.") var data: String
    @Option(name: .long, help: "COCO results JSON with the detections to score.") var predictions: String?
    @Option(name: .long, help: "A trained model (.slw from `screenlab train`) to run on the images first; its detections go to OUT/predictions.json.") var weights: String?
    @Option(name: .long, help: "With --weights: lowest score kept (AP needs the whole curve).") var scoreThreshold: Double = 0.001
    @Option(name: .long, help: "thresholds.yaml from `screenlab thresholds pick`: report P/R/F1 there.") var thresholds: String?
    @Option(name: .long, help: "IoU a match needs (≥).") var iou: Double = 0.5
    @Option(name: .long, help: "all-point (default) or coco101 (pycocotools-exact).") var interpolation: Interpolation = .allPoint
    @Option(name: .long, help: "Keep the N best detections per image and class (COCOeval maxDets). Default: no cap.") var maxDetections: Int?
    @Option(name: .long, help: "Detections per image and class COCO's summary (mAP@0.5:0.95, AR) keeps; COCOeval's default is 100.")
    var cocoMaxDetections: Int = EvaluationOptions.defaultCOCOMaxDetections
    @Option(name: .long, help: "Confusion-matrix confidence for all classes when no --thresholds are given.") var confidence: Double = 0.5
    @Flag(name: .long, help: "Skip and count bad prediction entries instead of stopping at the first.") var lenient = false
    @OptionGroup var selection: ScreenSelection
    @OptionGroup var postprocess: PostprocessFlags
    @Option(name: .long, help: "Model input WIDTHxHEIGHT for the report's UI-size buckets (√area at the input, after the letterbox). Default: the model's with --weights, else 256x512.")
    var inputSize: String?
    @Option(name: .long, help: "Report folder.") var out: String

    func validate() throws {
        guard (predictions == nil) != (weights == nil) else {
            throw usageError(weights == nil ? "give --predictions FILE (COCO results JSON) or --weights MODEL.slw" : "give either --predictions or --weights, not both")
        }
        guard (0...1).contains(scoreThreshold) else { throw usageError("--score-threshold must be in [0, 1], got \(scoreThreshold)") }
        guard iou > 0, iou <= 1 else { throw usageError("--iou must be in (0, 1], got \(iou)") }
        if let maxDetections, maxDetections < 1 { throw usageError("--max-detections must be at least 1") }
        guard cocoMaxDetections >= 1 else { throw usageError("--coco-max-detections must be at least 1 (COCOeval's default is 100), got \(cocoMaxDetections)") }
        guard (0...1).contains(confidence) else { throw usageError("--confidence must be in [0, 1] (a detection confidence), got \(confidence)") }
        _ = try parsedInputSize()
        if weights == nil, !postprocess.isDefault {
            throw usageError("--nms-iou and --cross-class-iou post-process a model's detections: they need --weights (--predictions are scored as given)")
        }
    }

    /// `--input-size 256x512` as (width, height), nil when not given.
    func parsedInputSize() throws -> (width: Int, height: Int)? {
        guard let inputSize else { return nil }
        guard let (width, height) = parsePixelSize(inputSize), (1...16384).contains(width), (1...16384).contains(height) else {
            throw usageError("--input-size must be WIDTHxHEIGHT in pixels (1–16384 each), e.g. 256x512; got '\(inputSize)'")
        }
        return (width, height)
    }

    func run() throws {
        let reference = DatasetReference.parse(data)
        let (dataset, outside) = try selection.load(reference, out: out)
        let thresholdFile = try thresholds.map { try ThresholdFile.load(URL(fileURLWithPath: $0)) }
        // The detector's own predictions are written with the report, all or nothing: a failure
        // later must not leave --out holding only predictions.json.
        let detected = try weights.map { try runWeights($0, on: dataset) }
        let input = try parsedInputSize() ?? detected.map { ($0.inputWidth, $0.inputHeight) } ?? (256, 512)
        let predictionsPath = predictions ?? URL(fileURLWithPath: out).appendingPathComponent("predictions.json").path
        let job = EvaluationJob(dataset: dataset, data: .init(resolving: reference), predictionsPath: predictionsPath,
                                options: EvaluationOptions(iouThreshold: iou, interpolation: interpolation, maxDetections: maxDetections,
                                                           cocoMaxDetections: cocoMaxDetections,
                                                           sizeSchemes: [.coco, .input(width: input.width, height: input.height)]),
                                lenient: lenient, thresholds: thresholdFile, thresholdsPath: thresholds, confidence: confidence,
                                outsideSplit: outside)
        let started = Date()
        var outcome = try job.run(predictions: detected?.predictions ?? job.readPredictions())
        if let unreadable = detected?.unreadable, !unreadable.isEmpty {
            // Written into the report, not only to stderr: a reader of report.md must know why recall fell.
            outcome.report.notes.append("\(unreadable.count) of \(dataset.samples.count) images could not be decoded and count as screens where "
                + "every true box was missed: \(unreadable.prefix(5).map(\.file).joined(separator: ", "))\(unreadable.count > 5 ? ", …" : "")")
        }
        let folder = URL(fileURLWithPath: out)
        let inputs = ([predictions, thresholds, weights] + [reference.path]).compactMap { $0 }.map { URL(fileURLWithPath: $0) }
        do {
            try ReportFiles.write(outcome, to: folder, notReplacing: inputs, alsoWriting: detected.map { [("predictions.json", $0.json)] } ?? [])
        } catch { throw failure("\(error)") }
        outcome.warnings.forEach(warn)
        for note in outcome.report.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        print(ReportFiles.summary(outcome))
        print(String(format: "scored in %.2f s; report in %@ (metrics.json, report.md, report.html, curves/, plots/)",
                     Date().timeIntervalSince(started), folder.path))
    }
}

extension EvaluateCommand {
    /// Runs the trained detector on the evaluated images: its detections as the COCO results
    /// `--predictions` would read (written into the report folder with the report) and as read
    /// back from that JSON, so the report is exactly what `--predictions` would give.
    func runWeights(_ path: String, on dataset: Dataset) throws
        -> (json: Data, predictions: PredictionSet, unreadable: [(file: String, reason: String)], inputWidth: Int, inputHeight: Int) {
        let detector: TrainedDetector
        do { detector = try TrainedDetector.load(contentsOf: URL(fileURLWithPath: path)) } catch { throw failure("\(error)") }
        guard detector.classes == dataset.classes else {
            throw failure("\(path) detects \(detector.classes.count) classes \(detector.classes) but \(data) has \(dataset.classes.count): \(dataset.classes); evaluate on data with the model's class mapping")
        }
        let predictor = try detector.predictor(scoreThreshold: scoreThreshold, useStoredThresholds: false, postprocess: postprocess.scoringOptions)
        let output = try predictor.predict(dataset.samples, imageURL: dataset.imageURL(of:), label: "predicting", showProgress: true)
        for (file, reason) in output.unreadable { warn("skipped unreadable image \(file) (\(reason))") }
        // Scoring screens none of which could be read would report mAP 0 for a model never run.
        guard output.unreadable.count < dataset.samples.count else {
            throw failure("none of the \(dataset.samples.count) image(s) of \(data) could be decoded (see the warnings above); nothing was written to \(out)")
        }
        let json = try COCOResultsWriter.json(output.predictions.map { (sampleIndex: $0.imageIndex, classIndex: $0.classIndex, box: $0.box, score: $0.score) },
                                              for: dataset)
        let reader = COCOResultsReader(samples: dataset.samples, cocoImageIDs: dataset.samples.map(\.cocoImageID), classNames: dataset.classes,
                                       cocoCategoryIDs: dataset.cocoCategoryIDs, outsideSplit: [], splitName: nil)
        return (json, try reader.parse(json, file: URL(fileURLWithPath: out).appendingPathComponent("predictions.json").path, lenient: false),
                output.unreadable, detector.model.configuration.inputWidth, detector.model.configuration.inputHeight)
    }
}

/// `--where KEY=VALUE`: which screens of the data a command looks at, shared by `evaluate` and `errors`.
struct ScreenSelection: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp("Only the images whose manifest.tsv column KEY is VALUE, e.g. source=vins_iphone (repeatable: all must hold).", valueName: "KEY=VALUE"))
    var conditions: [String] = []

    func validate() throws { _ = try parsedConditions() }

    func parsedConditions() throws -> [(key: String, value: String)] {
        try conditions.map { condition in
            guard let equals = condition.firstIndex(of: "="), equals != condition.startIndex else {
                throw usageError("--where needs KEY=VALUE (a manifest.tsv column and a value), e.g. source=vins_iphone; got '\(condition)'")
            }
            return (String(condition[..<equals]), String(condition[condition.index(after: equals)...]))
        }
    }

    /// The evaluated screens (the split, then the conditions) and the dataset's other screens:
    /// predictions on those are dropped and counted, not errors (a results file may cover the whole dataset).
    func load(_ reference: DatasetReference, out: String) throws -> (dataset: Dataset, outside: [Sample]) {
        let whole = try DatasetLoader.load(DatasetReference(path: reference.path), showProgress: true)
        var dataset = try reference.split.map { try whole.subset(split: $0) } ?? whole
        var outside: [Sample] = []
        if let split = reference.split {
            let inside = Set(whole.splits[split] ?? [])
            outside = whole.samples.indices.filter { !inside.contains($0) }.map { whole.samples[$0] }
        }
        let conditions = try parsedConditions()
        guard !conditions.isEmpty else { return (dataset, outside) }
        let (kept, rest) = try dataset.partitioned(where: conditions)
        let described = conditions.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        guard !kept.isEmpty else { throw failure("no image of \(reference.path)\(reference.split.map { ":" + $0 } ?? "") has \(described) in its manifest.tsv; nothing was written to \(out)") }
        dataset = Dataset(root: dataset.root, classes: dataset.classes, samples: kept, splits: reference.split.map { [$0: Array(kept.indices)] } ?? [:],
                          cocoCategoryIDs: dataset.cocoCategoryIDs,
                          notes: dataset.notes + ["only the \(kept.count) of \(kept.count + rest.count) images where \(described) (--where)"])
        return (dataset, outside + rest)
    }
}

struct ThresholdsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "thresholds", abstract: "Pick per-class confidence thresholds.",
                                                    subcommands: [ThresholdsPickCommand.self, ThresholdsMergeCommand.self])
}

struct ThresholdsPickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick", abstract: "Pick one confidence per class from an evaluation report's curves.",
        discussion: """
        max-f1: the confidence with the highest F1. precision:P: the most recall with precision ≥ P, at the highest confidence \
        that gives it. recall:R: the highest confidence whose recall reaches R. When a target cannot be met the class falls \
        back to max-F1 with a warning; a class with no matching detection gets no threshold. Pick on a validation report, then \
        `evaluate --thresholds` on the test split.
        """)

    @Option(name: .long, help: "Report folder written by `screenlab evaluate --out`.") var report: String?
    @Option(name: .customLong("run"), help: "A run (id or folder): pick on its val report, write its thresholds.yaml and model.slw, record in the registry.")
    var runID: String?
    @Option(name: .long, help: "max-f1 | precision:0.90 | recall:0.80") var strategy: String = "max-f1"
    @Option(name: .long, help: "Thresholds YAML to write (with --report; optional with --run).") var out: String?
    @OptionGroup var registryOptions: RegistryOptions

    func validate() throws {
        guard (report == nil) != (runID == nil) else {
            throw usageError(report == nil ? "give --report REPORT_DIR (an evaluation report) or --run RUN (a run in the registry)" : "give --report or --run, not both")
        }
        if report != nil, out == nil { throw usageError("--out FILE is needed with --report") }
    }

    func run() throws {
        let parsed = try ThresholdStrategy(parsing: strategy)
        let file: ThresholdFile, warnings: [String]
        if let run = runID {
            let registry = try registryOptions.open()
            // A run folder names its run by its folder name (the run id).
            let id = RunFolderReader.isRunFolder(URL(fileURLWithPath: run)) ? URL(fileURLWithPath: run).standardizedFileURL.lastPathComponent : run
            let outcome = try reportingRegistryErrors {
                try RunThresholdPick.pick(run: id, strategy: parsed, registry: registry, alsoWriteTo: out.map { URL(fileURLWithPath: $0) })
            }
            (file, warnings) = (outcome.file, outcome.warnings)
            print("wrote \(outcome.thresholdsFile.path)" + (outcome.weightsFile.map { " and the thresholds in \($0.path)" } ?? " (the run has no weights file)")
                  + "; recorded in \(registry.file.path)")
        } else {
            (file, warnings) = try ThresholdFile.pick(fromReport: report!, strategy: parsed)
            do {
                try AtomicFile.write(file.yaml(), to: URL(fileURLWithPath: out!))
            } catch { throw failure("\(error)") }
        }
        warnings.forEach(warn)
        let width = max(5, file.classes.map(\.name.count).max() ?? 5)
        print("Thresholds (\(parsed)) picked on \(file.pickedOn.description):")
        print("Class".padding(toLength: width, withPad: " ", startingAt: 0) + "  confidence  precision  recall     F1")
        for e in file.classes {
            let values = [e.confidence, e.precision, e.recall, e.f1].map { $0.map { String(format: "%.3f", $0) } ?? "—" }
            print(e.name.padding(toLength: width, withPad: " ", startingAt: 0)
                  + "  " + values[0].leftPadded(10) + "  " + values[1].leftPadded(9) + "  " + values[2].leftPadded(6)
                  + "  " + values[3].leftPadded(5) + (e.fallback ? "  (fallback: max-F1)" : ""))
        }
        if let out { print("wrote \(out)") }
    }
}

struct ThresholdsMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Take some classes' thresholds from another thresholds file.",
        discussion: """
        For classes the base file's split never shows (a real dataset without sliders), pick them on other data (synthetic \
        screens) and merge: each taken class keeps where and how it was picked (picked_on, strategy), which \
        `weights set-thresholds` stores per class in the weights header.
        """)

    @Argument(help: "The base thresholds.yaml (kept for every class not listed).") var base: String
    @Option(name: .long, help: "The thresholds.yaml to take the listed classes from.") var from: String
    @Option(name: .long, parsing: .upToNextOption, help: "The classes to take from --from (each name one argument).") var classes: [String]
    @Option(name: .long, help: "The merged thresholds YAML to write.") var out: String

    func run() throws {
        func load(_ path: String) throws -> ThresholdFile {
            do { return try ThresholdFile.load(URL(fileURLWithPath: path)) } catch { throw failure("\(error)") }
        }
        let merged: ThresholdFile
        do {
            merged = try load(base).merging(try load(from), classes: classes, file: base, otherFile: from)
        } catch let error as EvaluationError { throw failure("\(error)") }
        do { try AtomicFile.write(merged.yaml(), to: URL(fileURLWithPath: out)) } catch { throw failure("\(error)") }
        for name in classes {
            let e = merged.entry(named: name)!
            print("\(name): \(e.confidence.map { String(format: "%.3f", $0) } ?? "no threshold") (\(e.strategy ?? merged.strategy), \(e.pickedOn ?? ""))")
        }
        print("wrote \(out)")
    }
}

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare", abstract: "Compare runs and evaluation reports per class, with config and threshold differences.",
        discussion: """
        Each argument is a run id from the run registry, a run folder, or a report folder (`screenlab evaluate --out`), mixed \
        freely. Deltas are against the first, in percentage points. Runs are compared on their test report (--split val for \
        val); compare.html overlays their loss and val mAP curves by epoch (also written as curves/*.svg) and their PR and \
        F1 curves per class.
        """)

    @Argument(help: "Two or more run ids, run folders or report folders.") var reports: [String]
    @Option(name: .long, help: "Which report of a run to compare: test (default) or val.") var split: String = "test"
    @Option(name: .long, help: "Folder for compare.md, compare.html and curves/.") var out: String = "."
    @OptionGroup var registryOptions: RegistryOptions

    func validate() throws {
        guard reports.count >= 2 else { throw usageError("compare needs at least two runs or report folders") }
    }

    func run() throws {
        var opened: RunRegistry?
        let registry = { () throws -> RunRegistry in
            if let opened { return opened }
            let registry = try RunRegistry(file: registryOptions.file)
            opened = registry
            return registry
        }
        let compared = try reportingRegistryErrors { try reports.map { try ComparedRun.resolve($0, registry: registry, split: split) } }
        let comparison = RunComparison(compared)
        print(comparison.terminal(color: useColor), terminator: "")
        let folder = URL(fileURLWithPath: out)
        let curves = comparison.epochCharts()  // none for bare report folders
        do {
            let output = try OutputFolder(folder, existing: .merge)
            try output.write(comparison.markdown(), to: "compare.md")
            try output.write(comparison.html(), to: "compare.html")
            for (name, svg) in curves { try output.write(svg, to: "curves/\(name).svg") }
            try output.commit()
        } catch { throw failure("\(error)") }
        print("wrote \(folder.appendingPathComponent("compare.md").path), compare.html" + (curves.isEmpty ? "" : " and curves/*.svg (by epoch)"))
    }
}

struct BenchEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate", abstract: "Time the evaluator on a large generated input.",
        discussion: """
        Times matching, AP (both criteria), COCO's summary (10 IoU thresholds), curves and the confusion matrix on the input in memory. With --write-json or \
        --end-to-end it also times what `screenlab evaluate` does with the files: read gt.json, read predictions.json, score \
        (no report writing). Build with -c release for real numbers.
        """)

    @Option(name: .long) var images: Int = 5000
    @Option(name: .long, help: "Ground-truth boxes per image.") var groundTruth: Int = 20
    @Option(name: .long, help: "Detections per image.") var detections: Int = 100
    @Option(name: .long) var classes: Int = 13
    @Option(name: .long, help: "Timed runs; the median is reported.") var runs: Int = 5
    @Option(name: .long) var seed: UInt64 = 1
    @Option(name: .long, help: "all-point or coco101.") var interpolation: Interpolation = .allPoint
    @Option(name: .long, help: "Also write gt.json and predictions.json here (to time pycocotools on the same input); implies --end-to-end.") var writeJSON: String?
    @Flag(name: .long, help: "Also time reading both JSON files plus scoring (files in a temporary folder unless --write-json).") var endToEnd = false

    func validate() throws {
        guard images > 0, groundTruth > 0, detections >= 0, classes > 0, runs > 0 else { throw usageError("sizes and --runs must be positive") }
        // Bounds that keep the generated input in memory (images × detections boxes are allocated up front).
        guard images <= 1_000_000, groundTruth <= 10_000, detections <= 10_000, classes <= 10_000, runs <= 10_000,
              images * (groundTruth + detections) <= 200_000_000 else {
            throw usageError("at most 1,000,000 images, 10,000 boxes or detections per image, 10,000 classes and runs, and 2e8 boxes in all")
        }
    }

    func run() throws {
        let input = BenchmarkInput.generate(images: images, groundTruthPerImage: groundTruth, detectionsPerImage: detections,
                                            classes: classes, seed: seed)
        var jsonFolder: URL?
        if writeJSON != nil || endToEnd {
            let folder = writeJSON.map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-bench-evaluate-\(UUID().uuidString)")
            try COCOWriter.write(input.dataset(root: folder), to: folder.appendingPathComponent("gt.json"))
            try AtomicFile.write(try input.cocoResultsJSON(), to: folder.appendingPathComponent("predictions.json"))
            if writeJSON != nil { print("wrote \(folder.path)/gt.json and predictions.json") }
            jsonFolder = folder
        }
        defer { if writeJSON == nil, let jsonFolder { try? FileManager.default.removeItem(at: jsonFolder) } }
        var times: [Double] = []
        var map = 0.0, cocoMAP = 0.0
        let progress = ProgressLine("bench evaluate", total: runs, unit: "runs")
        for _ in 0..<runs {
            let clock = Stopwatch()
            let evaluator = try DetectionEvaluator(classNames: input.classNames, samples: input.samples, predictions: input.predictions,
                                                   options: EvaluationOptions(interpolation: interpolation))
            let result = evaluator.evaluate()
            _ = try evaluator.confusionMatrix(thresholds: Array(repeating: 0.5, count: classes))
            times.append(clock.seconds)
            map = result.map50 ?? .nan
            cocoMAP = result.coco?.map ?? .nan
            progress.advance()
        }
        progress.finish()
        let sorted = times.sorted()
        print(String(format: "evaluate: %d images x %d ground truth x %d detections, %d classes (%@): median %.3f s (min %.3f, max %.3f) over %d runs; mAP50 %.4f; COCO mAP@0.5:0.95 %.4f (maxDets %d)",
                     images, groundTruth, detections, classes, interpolation.rawValue, sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1], runs, map,
                     cocoMAP, EvaluationOptions.defaultCOCOMaxDetections))
        if let jsonFolder { try timeEndToEnd(folder: jsonFolder) }
        #if DEBUG
        print("note: debug build; use `swift build -c release` for the recorded number")
        #endif
    }

    /// The `screenlab evaluate` path on the written files, phase by phase (medians over --runs).
    private func timeEndToEnd(folder: URL) throws {
        var phases: [[Double]] = [[], [], [], []]  // read gt, read predictions, score, total
        let progress = ProgressLine("bench evaluate (end to end)", total: runs, unit: "runs")
        for _ in 0..<runs {
            var clock = Stopwatch()
            func lap(_ phase: Int) { phases[phase].append(clock.lap()) }
            let dataset = try DatasetLoader.load(DatasetReference(path: folder.appendingPathComponent("gt.json").path))
            lap(0)
            let job = EvaluationJob(dataset: dataset, data: .init(dataset: folder.path, split: nil),
                                    predictionsPath: folder.appendingPathComponent("predictions.json").path,
                                    options: EvaluationOptions(interpolation: interpolation))
            let predictions = try job.readPredictions()
            lap(1)
            _ = try job.run(predictions: predictions)
            lap(2)
            phases[3].append(phases[0].last! + phases[1].last! + phases[2].last!)
            progress.advance()
        }
        progress.finish()
        let median = phases.map { $0.sorted()[$0.count / 2] }
        print(String(format: "end to end (read gt.json, read predictions.json, score): median %.3f s = %.3f + %.3f + %.3f s over %d runs",
                     median[3], median[0], median[1], median[2], runs))
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
