import Data
import Dispatch
import Foundation
import Imaging
import Support
import Typography

/// Renders phone screens with exact labels for the 13 Screen Recognition classes.
/// Screen `index` depends only on (config, index): the same on any machine and any thread count.
public struct SyntheticScreenGenerator {
    /// Raised whenever a change to the drawing code changes the screens a config gives (so
    /// cached renders are not reused; see `SyntheticConfig.cacheTag`). 1: the bitmap-font screens;
    /// 2: FreeType text, languages per app, the class mix.
    public static let version = 2
    // The ios style left version 2's mixed screens as they were, so it did not raise the version:
    // its renders are told apart by the style in `SyntheticConfig.cacheTag`.

    public let config: SyntheticConfig
    public let classes = Taxonomy.screenRecognition.classes

    /// Throws on a setting out of range, or a font file of `FontFamily.all` that is missing
    /// (naming its Debian package): every face is opened here, so rendering cannot fail later.
    public init(config: SyntheticConfig) throws {
        try config.validate()
        if config.text == .freetype {
            for family in FontFamily.all { for face in family.faces { try GlyphCache.shared.load(face) } }
        }
        self.config = config
    }

    /// The app a screen belongs to (its theme and `group`).
    public func appIndex(ofScreen index: Int) -> Int {
        var rng = SeededRandom.stream(seed: config.seed ^ 0x5C7EE7, index: UInt64(index))
        return rng.int(in: 0..<config.appCount)
    }

    public static func groupName(app: Int) -> String { String(format: "app-%04d", app) }
    public static func sampleID(index: Int) -> String { String(format: "synth-%06d", index) }

    /// One screen and its labels; `sample.imagePath` is `images/<id>.png` (where `dataset` writes it).
    public func render(index: Int) -> (image: RGBImage, sample: Sample) {
        let app = appIndex(ofScreen: index)
        let theme = AppTheme(seed: config.seed, appIndex: app, text: config.text, style: config.style,
                             screenPoints: (config.widthPoints, config.heightPoints))
        var builder = ScreenBuilder(widthPoints: theme.device.widthPoints, heightPoints: theme.device.heightPoints, scale: config.scale,
                                    theme: theme, mix: config.classMix, rng: SeededRandom.stream(seed: config.seed, index: UInt64(index)))
        let kind = theme.kind(&builder.rng, mix: config.classMix)
        builder.composeScreen(kind: kind, dialogProbability: config.dialogProbability)
        let id = Self.sampleID(index: index)
        let sample = Sample(id: id, imagePath: "images/\(id).png", width: builder.image.width, height: builder.image.height,
                            annotations: builder.annotations, group: Self.groupName(app: app), accessibilityElements: builder.elements)
        return (builder.image, sample)
    }

    /// Renders screens `0..<count` into `outputFolder/images/` as PNG (fast compression) and returns
    /// the dataset (root `outputFolder`, no splits; see `appSplits`). Work is split over `threads`.
    public func dataset(count: Int, outputFolder: URL, threads: Int = 1, progress: ProgressLine? = nil) throws -> Dataset {
        guard count >= 0 else { throw SyntheticError.badSetting("count", "\(count)", "use a count of 0 or more") }
        let images = outputFolder.appendingPathComponent("images")
        // The folders are made once, here; the workers only create files, so a staging folder
        // that Ctrl-C removes (`SignalCleanup`) is not made again by a worker's next screen.
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        var samples = [Sample?](repeating: nil, count: count)
        var firstError: Error?
        let lock = NSLock()
        let workers = max(1, min(threads, count))
        samples.withUnsafeMutableBufferPointer { slots in
            let slots = slots  // each worker writes only its own indices
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: count, by: workers) {
                    lock.lock(); let stop = firstError != nil; lock.unlock()
                    if stop { return }
                    let (image, sample) = render(index: index)
                    do {
                        let path = images.appendingPathComponent("\(sample.id).png").path
                        let png = try ImageIO.encodePNG(image, fast: true)
                        try AtomicFile.writeReplacingFile(png, at: path, reportingAs: path, sync: false)
                        slots[index] = sample
                    } catch {
                        lock.lock(); if firstError == nil { firstError = error }; lock.unlock()
                        return
                    }
                    lock.lock(); progress?.advance(); lock.unlock()
                }
            }
        }
        if let firstError { throw firstError }
        return Dataset(root: outputFolder, classes: classes, samples: samples.compactMap { $0 })
    }

    /// App-level train/val/test split: whole apps go to one split, so no app's look leaks across.
    /// Apps are shuffled with the seed; about `valFraction` and `testFraction` of the apps that
    /// occur go to val and test (at least one app each when the fraction is positive and there
    /// are enough apps), the rest to train. Returns split name → sample indices.
    public func appSplits(of samples: [Sample], valFraction: Double, testFraction: Double) throws -> [String: [Int]] {
        guard valFraction.isFinite, testFraction.isFinite, valFraction >= 0, testFraction >= 0, valFraction + testFraction < 1 else {
            throw SyntheticError.badSplit("val fraction \(valFraction) and test fraction \(testFraction) must be ≥ 0 and sum to less than 1")
        }
        var apps = Array(Set(samples.compactMap(\.group))).sorted()
        var rng = SeededRandom.stream(seed: config.seed ^ 0x5B117, index: 0)
        apps.shuffle(using: &rng)
        func share(_ fraction: Double) -> Int {
            fraction > 0 ? max(1, Int((fraction * Double(apps.count)).rounded())) : 0
        }
        let testApps = min(share(testFraction), max(apps.count - 1, 0))
        let valApps = min(share(valFraction), max(apps.count - 1 - testApps, 0))
        var splitOfApp: [String: String] = [:]
        for (position, app) in apps.enumerated() {
            splitOfApp[app] = position < testApps ? "test" : position < testApps + valApps ? "val" : "train"
        }
        var splits: [String: [Int]] = ["train": []]
        if valFraction > 0 { splits["val"] = [] }
        if testFraction > 0 { splits["test"] = [] }
        for (index, sample) in samples.enumerated() {
            splits[sample.group.flatMap { splitOfApp[$0] } ?? "train", default: []].append(index)
        }
        return splits
    }
}
