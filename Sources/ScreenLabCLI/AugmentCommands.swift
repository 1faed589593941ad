import ArgumentParser
import Augment
import Benchmarks
import Data
import Synthetic
import Detection
import Foundation
import Imaging
import Kernels
import Support

/// `screenlab augment ...`: look at what the model will see.
struct AugmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "augment", abstract: "Preview augmentation presets.", subcommands: [AugmentPreviewCommand.self])
}

/// Options shared by the preview and the loader benchmark: which screens, which preset, which input size.
struct LoaderArguments: ParsableArguments {
    @Option(help: "Dataset: a config YAML, a YOLO folder or a COCO JSON, optionally PATH:SPLIT (default split: train if present).")
    var data: String?
    @Option(help: "Preset: a name in this checkout's Configs/augment/ (default, none, rare-classes; found from any folder) or a path to a .yaml file.")
    var preset = "default"
    @Option(help: "Model input width in pixels.") var width = 256
    @Option(help: "Model input height in pixels.") var height = 512
    @Option(help: "Seed for sampling and augmentation.") var seed: UInt64 = 0

    func validateSize() throws {
        guard (16...4096).contains(width), (16...4096).contains(height) else {
            throw usageError("--width and --height must lie in 16...4096 (got \(width)×\(height))")
        }
    }

    /// `PATH[:SPLIT]` → the dataset and the split to train on (default: train if the dataset has one, else all).
    static func load(_ reference: String) throws -> (Dataset, split: String?) {
        let parsed = DatasetReference.parse(reference)
        let dataset = try DatasetLoader.load(parsed)
        return (dataset, parsed.split ?? (dataset.splits["train"] != nil ? "train" : nil))
    }

    /// The preset file: a name from Configs/augment/ of this checkout (from any folder), or a path.
    func presetURL() throws -> URL {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let executable = Bundle.main.executableURL.map { [$0.deletingLastPathComponent()] } ?? []
        return try AugmentPreset.locate(preset, from: here, fallbackRepositories: executable)
    }

    /// A split's screens behind a loader with the chosen preset; `keepDecoded`: the screens decoded
    /// into memory first, on `threads` threads (`data.cache: ram`).
    func makeLoader(_ dataset: Dataset, split: String?, batchSize: Int, workers: Int, keepDecoded: Bool = false,
                    threads: Int = 1) throws -> DataLoader {
        try validateSize()
        let augmentPreset = try AugmentPreset.load(from: presetURL())
        var source = try DatasetSource(dataset: dataset, split: split)
        if keepDecoded {
            let (cached, report, refused) = source.keepingDecodedScreens(role: "benchmark", workers: threads)
            if refused { throw usageError("--cache ram: \(report); run without it") }
            print(report)
            source = cached
        }
        var options = DataLoader.Options()
        options.batchSize = batchSize
        options.workers = workers
        options.seed = seed
        let pipeline = AugmentPipeline(preset: augmentPreset, source: source, classNames: dataset.classes,
                                       outputWidth: width, outputHeight: height)
        return try DataLoader(source: source, pipeline: pipeline, options: options)
    }
}

struct AugmentPreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview", abstract: "Write PNG grids of augmented samples with their boxes and class names.")

    @OptionGroup var loader: LoaderArguments
    @Option(help: "Number of augmented samples.") var count = 16
    @Option(help: "Samples per row.") var columns = 4
    @Option(help: "Samples per PNG sheet.") var perSheet = 16
    @Option(help: "Output folder (default Experiments/previews/augment, git-ignored: a default never writes into tracked files).") var out = "Experiments/previews/augment"
    @Option(help: "Epoch whose first samples are shown (exactly what the loader delivers).") var epoch = 0

    func run() throws {
        guard let data = loader.data else { throw usageError("--data is required (a dataset config, YOLO folder or COCO JSON)") }
        guard (1...10_000).contains(count), (1...64).contains(columns), (1...1024).contains(perSheet), (0...1_000_000).contains(epoch) else {
            throw usageError("--count must be in 1...10000, --columns in 1...64, --per-sheet in 1...1024, --epoch in 0...1000000")
        }
        let (dataset, split) = try LoaderArguments.load(data)
        let dataLoader = try loader.makeLoader(dataset, split: split, batchSize: 1, workers: 0)
        let sheets = try AugmentPreview.sheets(dataLoader, classNames: dataset.classes, count: count, columns: columns,
                                               perSheet: perSheet, epoch: epoch)
        let name = URL(fileURLWithPath: loader.preset).deletingPathExtension().lastPathComponent
        let output: OutputFolder
        do { output = try OutputFolder(URL(fileURLWithPath: out), existing: .merge) } catch { throw failure("\(error)") }
        var written: [String] = []
        for (index, sheet) in sheets.enumerated() {
            let file = sheets.count == 1 ? "augment-preview-\(name).png" : "augment-preview-\(name)-\(index + 1).png"
            do { try output.write(try ImageIO.encodePNG(sheet), to: file) } catch { throw failure("\(error)") }
            written.append("wrote \(output.destination.appendingPathComponent(file).path) (\(sheet.width)×\(sheet.height))")
        }
        do { try output.commit() } catch { throw failure("\(error)") }
        written.forEach { print($0) }
    }
}

struct BenchLoaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loader",
        abstract: "Data loader throughput vs the reference detector's training throughput, measured in one run.",
        discussion: """
            Three phases on this machine: the loader alone (images/s), the reference detector's training \
            step alone at the same batch size and input (the step `bench engine` times), and training fed \
            by the loader (each step consumes the loader's next batch), reporting the share of time the \
            trainer waited for data. Required: loader ≥ 3× training; the wait share should be ≈ 0 %.
            """)

    @OptionGroup var loader: LoaderArguments
    @Option(help: "Loader worker threads.") var workers = 1
    @Option(help: "Engine compute threads for the training step (bench engine and the PyTorch peer use 2).") var threads = 2
    @Option(help: "Batch size.") var batchSize = 8
    @Option(help: "Seconds to time the loader alone (default 5; 2 with --quick).") var seconds: Double?
    @Option(help: "Training steps timed alone and fed by the loader (default 8; 3 with --quick).") var steps: Int?
    @Flag(help: "A short run to check that everything works; too short for numbers worth recording.") var quick = false
    @Option(help: "none: decode each screen from its file when drawn; ram: decode every screen once first and keep it in memory (an experiment's data.cache).")
    var cache = "none"

    func run() throws {
        let seconds = self.seconds ?? (quick ? 2 : 5), steps = self.steps ?? (quick ? 3 : 8)
        guard ["none", "ram"].contains(cache) else { throw usageError("--cache must be none or ram, got '\(cache)'") }
        try OptionBounds.check("workers", workers, OptionBounds.workers)
        try OptionBounds.check("threads", threads, OptionBounds.threads)
        try OptionBounds.check("batch-size", batchSize, OptionBounds.batch)
        guard seconds.isFinite else { throw usageError("--seconds must be a finite number, got \(seconds)") }
        try OptionBounds.check("seconds", seconds, OptionBounds.seconds)
        try OptionBounds.check("steps", steps, OptionBounds.steps)
        let stride = DetectorConfiguration.strides.max()!
        guard loader.width % stride == 0, loader.height % stride == 0 else {
            throw usageError("--width and --height must be multiples of \(stride) (the detector's coarsest stride); got \(loader.width)×\(loader.height)")
        }
        Parallel.threadCount = threads
        let (dataset, split, description, cleanup) = try benchmarkData()
        defer { cleanup() }
        let dataLoader = try loader.makeLoader(dataset, split: split, batchSize: batchSize, workers: workers, keepDecoded: cache == "ram",
                                               threads: threads)
        var detector = DetectorConfiguration.reference
        detector.inputWidth = loader.width
        detector.inputHeight = loader.height
        print("data: \(description), \(dataLoader.source.count) screens; preset \(loader.preset); input \(loader.width)×\(loader.height)")
        print("batch \(batchSize); loader \(workers) worker\(workers == 1 ? "" : "s"); engine \(threads) thread\(threads == 1 ? "" : "s")\(quick ? "; quick run" : "")")

        let loaderAlone = try LoaderBenchmark.run(dataLoader, seconds: seconds)
        let trainingAlone = try EngineBenchmark(configuration: detector, batch: batchSize).measureTrainingStep(warmup: 1, steps: steps)
        let runner = try TrainingStepRunner(configuration: detector)
        let fed = try LoaderBenchmark.feed(dataLoader, steps: steps) { batch in try runner.step(batch.images) }

        let ratio = loaderAlone.ratio(toTrainingImagesPerSecond: trainingAlone.imagesPerSecond)
        print("loader alone: \(loaderAlone)")
        print(String(format: "training alone: %.1f images/s (reference detector, median of %d steps of %.2f s)",
                     trainingAlone.imagesPerSecond, steps, trainingAlone.medianSeconds))
        print(String(format: "loader / training = %.1f× (required ≥ %.0f×): %@", ratio, LoaderBenchmark.requiredRatio,
                     ratio >= LoaderBenchmark.requiredRatio ? "ok" : "TOO SLOW"))
        print(String(format: "training fed by the loader: %.1f images/s (%.0f%% of training alone); trainer waited for data %.1f%% of the time (target ≈ 0%%)",
                     fed.imagesPerSecond, 100 * fed.imagesPerSecond / trainingAlone.imagesPerSecond, 100 * fed.waitShare))
    }

    /// --data, else vins-ui if it is on this machine, else 64 synthetic screens written (PNG) to a temporary folder.
    func benchmarkData() throws -> (dataset: Dataset, split: String?, description: String, cleanup: () -> Void) {
        if let data = loader.data {
            let (dataset, split) = try LoaderArguments.load(data)
            return (dataset, split, data, {})
        }
        let shared = ProcessInfo.processInfo.environment["SCREENLAB_SHARED"] ?? "../shared"
        if FileManager.default.fileExists(atPath: "\(shared)/datasets/vins-ui/classes.txt"),
           FileManager.default.fileExists(atPath: "Configs/datasets/vins-ui.yaml") {
            let (dataset, split) = try LoaderArguments.load("Configs/datasets/vins-ui.yaml:train")
            return (dataset, split, "vins-ui train split (real screenshots)", {})
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-bench-loader-\(getpid())")
        let generator = try SyntheticScreenGenerator(config: SyntheticConfig(seed: loader.seed))
        let dataset = try generator.dataset(count: 64, outputFolder: folder, threads: 2)
        return (dataset, nil, "64 synthetic screens (vins-ui not found under \(shared))",
                { try? FileManager.default.removeItem(at: folder) })
    }
}
