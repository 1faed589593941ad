import ArgumentParser
import Data
import Synthetic
import Foundation
import Imaging
import Support

struct DataSynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth", abstract: "Render synthetic phone screens with exact boxes.",
        discussion: """
            Writes OUT/images/synth-NNNNNN.png (fast PNG) and the labels: YOLO (classes.txt, labels/, \
            splits/{train,val,test}.txt, manifest.tsv with app groups) or COCO (OUT/annotations.json, \
            split and group per image). Splits are by app: all screens of one synthetic app land in one \
            split. The same --seed gives the same screens for any --threads.
            """)

    @Option(help: "Number of screens.") var count: Int
    @Option(help: "Random seed.") var seed: UInt64 = 0
    @Option(help: "Output folder (new or empty).") var out: String
    @Option(help: "Label format: yolo or coco.") var format: String = "yolo"
    @Option(help: "Pixels per point: 1 (390x844 images) or 2 (780x1688).") var scale: Int = 1
    @Option(help: "Worker threads.") var threads: Int = 1
    @Option(help: "Number of synthetic apps (default: one per 12 screens, at least 3).") var apps: Int?
    @Option(help: "Chance of an alert dialog on a screen.") var dialogProbability: Double = SyntheticConfig().dialogProbability
    @Option(help: "Class mix: a preset (default, rare-controls) or Class=multiplier pairs, e.g. 'Slider=4,Dialog=3' (see ClassMix).")
    var classMix: String = "default"
    @Option(help: "Text renderer: freetype (real fonts, several languages) or bitmap (the 5x7 pixel font of generator version 1).")
    var text: String = "freetype"
    @Option(help: "App look: mixed (many app styles) or ios (iOS system chrome on classic and notched iPhones, light and dark, Latin, Hangul and CJK text).")
    var style: String = "mixed"
    @Option(help: "Fraction of apps in the val split.") var valFraction: Double = 0.1
    @Option(help: "Fraction of apps in the test split.") var testFraction: Double = 0.1
    @Option(help: "Also write a grid of the first screens to this PNG, and the same with boxes to NAME-boxes.png.")
    var contactSheet: String?
    @Option(help: "Screens in the contact sheet.") var sheetScreens: Int = 4

    func validate() throws {
        guard (1...10_000_000).contains(count) else { throw usageError("--count must be in 1...10000000 (got \(count))") }
        guard ["yolo", "coco"].contains(format) else { throw usageError("--format must be yolo or coco (got '\(format)')") }
        guard scale == 1 || scale == 2 else { throw usageError("--scale must be 1 or 2 (got \(scale))") }
        guard (1...256).contains(threads) else { throw usageError("--threads must be in 1...256 (got \(threads))") }
        if let apps, !(1...1_000_000).contains(apps) { throw usageError("--apps must be in 1...1000000 (got \(apps))") }
        guard (1...64).contains(sheetScreens) else { throw usageError("--sheet-screens must be in 1...64 (got \(sheetScreens))") }
        do { _ = try ClassMix.parse(classMix) } catch { throw usageError("--class-mix: \(error)") }
        guard SyntheticText(rawValue: text) != nil else { throw usageError("--text must be freetype or bitmap (got '\(text)')") }
        guard SyntheticStyle(rawValue: style) != nil else { throw usageError("--style must be mixed or ios (got '\(style)')") }
        guard style != "ios" || text == "freetype" else { throw usageError("--style ios needs --text freetype (Korean, Chinese and Japanese apps)") }
    }

    func run() throws {
        let outURL = URL(fileURLWithPath: out)
        let config = SyntheticConfig(seed: seed, scale: scale, appCount: apps ?? max(3, count / 12), dialogProbability: dialogProbability,
                                     classMix: try ClassMix.parse(classMix), text: SyntheticText(rawValue: text) ?? .freetype,
                                     style: SyntheticStyle(rawValue: style) ?? .mixed)
        let generator: SyntheticScreenGenerator
        let splits: [String: [Int]]
        var dataset: Dataset
        do {
            // Rendered into a staging folder and moved into place when complete: an interrupted or
            // failed run leaves no half-written dataset (stale images would mix with a rerun's).
            let output = try OutputFolder(outURL, existing: .mustBeEmpty)
            generator = try SyntheticScreenGenerator(config: config)
            _ = try generator.appSplits(of: [], valFraction: valFraction, testFraction: testFraction)  // reject bad fractions before rendering
            let progress = ProgressLine("synth", total: count, unit: "screens")
            let clock = Stopwatch()
            dataset = try generator.dataset(count: count, outputFolder: output.staging, threads: threads, progress: progress)
            progress.finish()
            let seconds = clock.seconds
            splits = try generator.appSplits(of: dataset.samples, valFraction: valFraction, testFraction: testFraction)
            dataset.splits = splits
            dataset.root = output.destination  // where the images will be once committed
            if format == "yolo" { try YOLOWriter.write(dataset, into: output) } else { try COCOWriter.write(dataset, into: output) }
            try output.commit()
            print(String(format: "rendered and wrote %d screens in %.2f s: %.1f screens/s with %d thread%@", count, seconds,
                         Double(count) / max(seconds, 1e-9), threads, threads == 1 ? "" : "s"))
        } catch let error as ValidationError { throw error } catch let error as CommandFailure { throw error } catch { throw failure("\(error)") }

        printSummary(dataset, splits: splits)
        if let contactSheet { try writeContactSheet(generator, to: contactSheet) }
    }

    private func printSummary(_ dataset: Dataset, splits: [String: [Int]]) {
        var counts = [Int](repeating: 0, count: dataset.classes.count)
        for sample in dataset.samples { for annotation in sample.annotations { counts[annotation.classIndex] += 1 } }
        let total = max(counts.reduce(0, +), 1)
        let rows = zip(dataset.classes, counts).sorted { $0.1 > $1.1 }.map { [$0.0, String($0.1), String(format: "%.1f%%", 100 * Double($0.1) / Double(total))] }
        print(TextTable(header: ["class", "boxes", "share"], rows: rows).terminal())
        for name in ["train", "val", "test"] {
            guard let indices = splits[name] else { continue }
            let apps = Set(indices.compactMap { dataset.samples[$0].group })
            print("\(name): \(indices.count) screens from \(apps.count) apps")
        }
        print("labels: \(format == "yolo" ? out : (out as NSString).appendingPathComponent("annotations.json"))")
    }

    private func writeContactSheet(_ generator: SyntheticScreenGenerator, to path: String) throws {
        let screens = min(sheetScreens, count)
        let (plain, boxed) = generator.preview(count: screens, columns: min(screens, 4))
        let url = URL(fileURLWithPath: path)
        let boxesURL = url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + "-boxes.png")
        do {
            try ImageIO.writePNG(plain, to: url)
            try ImageIO.writePNG(boxed, to: boxesURL)
        } catch { throw failure("\(error)") }
        print("contact sheet: \(url.path) and \(boxesURL.path)")
    }
}
