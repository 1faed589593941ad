import Data
import Synthetic
import Foundation
import Support

/// The dataset an experiment trains on: a dataset config / YOLO folder / COCO file, or
/// synthetic screens rendered on first use into a cache folder (so a fresh clone needs nothing),
/// or a dataset whose training split is joined by synthetic screens (`add_synthetic`).
public struct ExperimentData {
    public let dataset: Dataset
    /// What the run records as its dataset (a path, or `synthetic(count=…, seed=…)`).
    public let description: String

    /// Loads the data; label files are read strictly, so a malformed line, an unknown class or a
    /// bad mapping stops the run here, naming the file and line, before any training.
    public static func load(_ section: ExperimentConfig.DataSection, repositoryRoot: URL, cacheFolder: URL,
                            log: (String) -> Void) throws -> ExperimentData {
        var data: ExperimentData
        if let synthetic = section.synthetic {
            data = try synthesize(synthetic, cacheFolder: cacheFolder, log: log)
        } else {
            let path = section.dataset!
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : repositoryRoot.appendingPathComponent(path)
            data = ExperimentData(dataset: try DatasetLoader.load(DatasetReference(path: url.standardizedFileURL.path, split: nil)), description: path)
        }
        if let added = section.addedSynthetic {
            let screens = try synthesize(added, cacheFolder: cacheFolder, log: log)
            let (dataset, summary) = try DatasetMix.combine(data.dataset, trainSplit: section.train, adding: screens.dataset, split: "train",
                                                           addedName: "synthetic")
            log("training on \(data.description) with \(summary.addedScreens) training screens of \(screens.description); no loss on "
                + "\(summary.unlabeledInPrimary.isEmpty ? "no class" : summary.unlabeledInPrimary.joined(separator: ", ")) on the dataset's screens "
                + "(it marks none) and on \(summary.unlabeledInAdded.isEmpty ? "no class" : summary.unlabeledInAdded.joined(separator: ", ")) on the synthetic ones")
            data = ExperimentData(dataset: dataset, description: "\(data.description) + \(screens.description) (train)")
        }
        for split in [section.train, section.val] + (section.evaluateTest ? [section.test] : []) {
            guard let indices = data.dataset.splits[split] else {
                throw DatasetError.unknownSplit(split, available: data.dataset.splits.keys.sorted())
            }
            guard !indices.isEmpty else {
                throw ExperimentConfigError(file: data.description, line: nil, key: "data", message: "split '\(split)' has no images")
            }
        }
        return data
    }

    /// Renders the screens once into `cacheFolder/synthetic-…/` (written to a temporary folder and
    /// renamed, so an interrupted render is never mistaken for a complete one) and loads them.
    static func synthesize(_ s: ExperimentConfig.SyntheticData, cacheFolder: URL, log: (String) -> Void) throws -> ExperimentData {
        let config = SyntheticConfig(seed: s.seed, appCount: max(3, s.count / s.screensPerApp), classMix: s.classMix, text: s.text, style: s.style)
        // The config's tag covers the generator version, text renderer, style and class mix: a render of other screens is never reused.
        let name = "synthetic-n\(s.count)-seed\(s.seed)-app\(s.screensPerApp)-val\(s.valFraction)-test\(s.testFraction)-\(config.cacheTag)"
        let folder = cacheFolder.appendingPathComponent(name)
        let description = "synthetic(count=\(s.count), seed=\(s.seed), screens_per_app=\(s.screensPerApp)"
            + (s.classMix.isStandard ? "" : ", class_mix=\(s.classMix)") + (s.text == .freetype ? "" : ", text=\(s.text.rawValue)")
            + (s.style == .mixed ? ")" : ", style=\(s.style.rawValue))")
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder.appendingPathComponent("classes.txt").path) {
            try manager.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
            StaleStaging.sweep(in: cacheFolder)  // renders of killed runs (12 MB each)
            // Unique per render, not per process: two renders of one process never share a folder.
            let temporary = cacheFolder.appendingPathComponent(".\(name).partial-\(getpid())-\(UInt32.random(in: 1...UInt32.max))")
            let cleanup = SignalCleanup.register(temporary)  // Ctrl-C mid-render leaves no 12 MB folder
            defer { SignalCleanup.unregister(cleanup) }
            let generator = try SyntheticScreenGenerator(config: config)
            let progress = ProgressLine("rendering \(s.count) synthetic screens", total: s.count, unit: "screens")
            var dataset = try generator.dataset(count: s.count, outputFolder: temporary, threads: ProcessInfo.processInfo.activeProcessorCount,
                                                progress: progress)
            progress.finish()
            dataset.splits = try generator.appSplits(of: dataset.samples, valFraction: s.valFraction, testFraction: s.testFraction)
            try YOLOWriter.write(dataset, to: temporary, images: .copy)
            if try publish(temporary, as: folder) { log("rendered \(s.count) synthetic screens into \(folder.path)") }
        }
        let dataset = try DatasetLoader.load(DatasetReference(path: folder.path, split: nil))
        return ExperimentData(dataset: dataset, description: description)
    }

    /// Renames a finished render into place; false when another run published the same screens
    /// first. rename(2) is atomic and refuses a non-empty destination, so of two runs rendering at
    /// once exactly one wins and the other drops its identical copy. Checking for the folder and
    /// then moving (as before) let the loser fail with "Directory not empty", or delete the
    /// winner's folder while it was being loaded.
    static func publish(_ temporary: URL, as folder: URL) throws -> Bool {
        for attempt in 0..<3 {
            if rename(temporary.path, folder.path) == 0 { return true }
            let code = errno
            guard code == ENOTEMPTY || code == EEXIST else {
                try? FileManager.default.removeItem(at: temporary)
                throw FileWriteError(path: folder.path, reason: "cannot move the rendered screens into place (\(String(cString: strerror(code))));"
                                     + " check that the cache folder (Experiments/cache by default) is writable")
            }
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("classes.txt").path) {
                try? FileManager.default.removeItem(at: temporary)
                return false
            }
            // A folder without classes.txt is what a render killed mid-copy left before renders
            // were renamed into place: moved aside in one step (a concurrent loader never sees
            // half of it), then removed.
            let aside = folder.deletingLastPathComponent().appendingPathComponent(".\(folder.lastPathComponent).partial-\(getpid())-\(attempt + 1)")
            if rename(folder.path, aside.path) == 0 { try? FileManager.default.removeItem(at: aside) }
        }
        try? FileManager.default.removeItem(at: temporary)
        throw FileWriteError(path: folder.path, reason: "another process keeps replacing this cache folder; remove it and run again")
    }
}
