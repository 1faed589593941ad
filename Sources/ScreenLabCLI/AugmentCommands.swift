import ArgumentParser
import Augment
import Data
import Foundation
import Imaging
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
    @Option(help: "Preset name in Configs/augment/ (default, none, rare-classes) or a path to a .yaml file.")
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

    /// A split's screens behind a loader with the chosen preset.
    func makeLoader(_ dataset: Dataset, split: String?, batchSize: Int, workers: Int) throws -> DataLoader {
        try validateSize()
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let augmentPreset = try AugmentPreset.load(from: AugmentPreset.url(forName: preset, root: root))
        let source = try DatasetSource(dataset: dataset, split: split)
        var options = DataLoader.Options()
        options.batchSize = batchSize
        options.workers = workers
        options.seed = seed
        let pipeline = AugmentPipeline(preset: augmentPreset, source: source, outputWidth: width, outputHeight: height)
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
    @Option(help: "Output folder.") var out = "Reports/samples"
    @Option(help: "Epoch whose first samples are shown (exactly what the loader delivers).") var epoch = 0

    func run() throws {
        guard let data = loader.data else { throw usageError("--data is required (a dataset config, YOLO folder or COCO JSON)") }
        guard count > 0, columns > 0, perSheet > 0, epoch >= 0 else { throw usageError("--count, --columns and --per-sheet must be positive") }
        let (dataset, split) = try LoaderArguments.load(data)
        let dataLoader = try loader.makeLoader(dataset, split: split, batchSize: 1, workers: 0)
        let sheets = try AugmentPreview.sheets(dataLoader, classNames: dataset.classes, count: count, columns: columns,
                                               perSheet: perSheet, epoch: epoch)
        let name = URL(fileURLWithPath: loader.preset).deletingPathExtension().lastPathComponent
        for (index, sheet) in sheets.enumerated() {
            let file = sheets.count == 1 ? "augment-preview-\(name).png" : "augment-preview-\(name)-\(index + 1).png"
            let url = URL(fileURLWithPath: out).appendingPathComponent(file)
            try AtomicFile.write(try ImageIO.encodePNG(sheet), to: url)
            print("wrote \(url.path) (\(sheet.width)×\(sheet.height))")
        }
    }
}

struct BenchLoaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loader", abstract: "Data loader throughput vs training throughput.")

    /// The PyTorch peer's batch-8 training step (NCHW, 2 threads), ../shared/peers/torch-reference/README.md.
    static let peerTrainingImagesPerSecond = 12.7

    @OptionGroup var loader: LoaderArguments
    @Option(help: "Loader worker threads; the trainer's engine uses the other cores (1 on a 2-core machine).") var workers = 1
    @Option(help: "Batch size.") var batchSize = 8
    @Option(help: "Seconds to measure.") var seconds = 5.0
    @Option(help: "Training throughput to compare with (default: the PyTorch peer's 12.7 images/s).")
    var trainingImagesPerSecond = peerTrainingImagesPerSecond

    func run() throws {
        guard workers >= 0, batchSize > 0, seconds > 0, trainingImagesPerSecond > 0 else {
            throw usageError("--workers ≥ 0, --batch-size, --seconds and --training-images-per-second > 0")
        }
        let (dataset, split, description, cleanup) = try benchmarkData()
        defer { cleanup() }
        let dataLoader = try loader.makeLoader(dataset, split: split, batchSize: batchSize, workers: workers)
        print("data: \(description), \(dataLoader.source.count) screens; preset \(loader.preset); input \(loader.width)×\(loader.height)")
        let result = try LoaderBenchmark.run(dataLoader, seconds: seconds)
        let ratio = result.ratio(toTrainingImagesPerSecond: trainingImagesPerSecond)
        let peer = trainingImagesPerSecond == Self.peerTrainingImagesPerSecond ? " (PyTorch peer, ../shared/peers/torch-reference)" : ""
        print("loader: \(result)")
        print(String(format: "training: %.1f images/s%@", trainingImagesPerSecond, peer))
        print(String(format: "loader / training = %.1f× (required ≥ %.0f×): %@", ratio, LoaderBenchmark.requiredRatio,
                     ratio >= LoaderBenchmark.requiredRatio ? "ok" : "TOO SLOW"))
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
