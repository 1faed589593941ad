import ArgumentParser
import Data
import Evaluation
import Foundation
import Imaging
import Inference
import Support

/// `screenlab errors --data D:SPLIT --predictions A.json [--predictions B.json] --out DIR`.
struct ErrorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errors", abstract: "Draw each model's misses and wrong detections on the screens, worst first, beside another model's.",
        discussion: """
        Each --predictions file (COCO results, as `evaluate` reads them) is scored on the screens at its own per-class max-F1 \
        confidence, then every box and detection of a screen is drawn by what became of it: hits green, missed boxes blue, \
        false positives red, badly placed (IoU 0.1–0.5 with a missed box of the class) orange, wrong class purple. Screens \
        are ranked by the first model's errors, minus the second's when there is one (the screens where it trails most). \
        Writes DIR/index.md (totals per model and class, the ranked screens) and DIR/screens/NN-ID.png.
        """)

    @Option(name: .long, help: "Dataset config (.yaml), YOLO folder or COCO .json, optionally :SPLIT.") var data: String
    @Option(name: .long, help: "COCO results JSON; give it once per model (the first is the one ranked).") var predictions: [String]
    @Option(name: .long, help: "A name per --predictions, in order (default: the file names).") var name: [String] = []
    @OptionGroup var selection: ScreenSelection
    @Option(name: .long, help: "How many screens to draw.") var screens = 12
    @Option(name: .long, help: "Height in pixels each screen is drawn at.") var height = 720
    @Option(name: .long, help: "Output folder.") var out: String

    func validate() throws {
        guard (1...4).contains(predictions.count) else { throw usageError("give --predictions once per model, 1 to 4 times (got \(predictions.count))") }
        guard name.isEmpty || name.count == predictions.count else {
            throw usageError("give one --name per --predictions (\(predictions.count)), or none; got \(name.count)")
        }
        guard (1...10_000).contains(screens) else { throw usageError("--screens must be 1…10000, got \(screens)") }
        guard (64...4096).contains(height) else { throw usageError("--height must be 64…4096 pixels, got \(height)") }
    }

    func run() throws {
        let reference = DatasetReference.parse(data)
        let (dataset, outside) = try selection.load(reference, out: out)
        let names = name.isEmpty ? predictions.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } : name
        var sets: [(name: String, boxes: [PredictedBox])] = []
        for (file, label) in zip(predictions, names) {
            let reader = COCOResultsReader(samples: dataset.samples, cocoImageIDs: dataset.samples.map(\.cocoImageID), classNames: dataset.classes,
                                           cocoCategoryIDs: dataset.cocoCategoryIDs, outsideSplit: outside, splitName: reference.split)
            sets.append((label, try reader.read(URL(fileURLWithPath: file), lenient: false).predictions))
        }
        let gallery = try ErrorGallery(dataset: dataset, predictions: sets)
        let folder = try OutputFolder(URL(fileURLWithPath: out), existing: .merge, notReplacing: ([reference.path] + predictions).map { URL(fileURLWithPath: $0) })
        var pictured: [(screen: Int, file: String)] = []
        let chosen = Array(gallery.ranking().prefix(screens))
        let progress = ProgressLine("drawing", total: chosen.count, unit: "screens")
        for (rank, i) in chosen.enumerated() {
            let file = String(format: "screens/%02d-%@.png", rank + 1, Self.fileName(dataset.samples[i].id))
            do {
                try folder.write(try ImageIO.encodePNG(try gallery.picture(screen: i, height: height)), to: file)
                pictured.append((i, file))
            } catch let error as ImageError {
                warn("skipped \(dataset.samples[i].id): \(error)")
            }
            progress.advance()
        }
        progress.finish()
        let described = data + (selection.conditions.isEmpty ? "" : " where " + selection.conditions.joined(separator: ", "))
        try folder.write(gallery.markdown(pictured: pictured, data: described), to: "index.md")
        try folder.commit()
        for (model, totals) in zip(gallery.models, gallery.classTotals()) {
            let sum = totals.reduce(into: [0, 0, 0, 0]) { $0[0] += $1.missed; $0[1] += $1.badlyPlaced; $0[2] += $1.wrongClass; $0[3] += $1.falsePositives }
            print("\(model.name): mAP@0.5 \(String(format: "%.3f", model.result.map50 ?? 0)); at max-F1: \(sum[0]) boxes missed, "
                  + "\(sum[1]) badly placed, \(sum[2]) wrong class, \(sum[3]) false positives")
        }
        print("\(pictured.count) screens drawn → \(out)/index.md, \(out)/screens/")
    }

    /// A sample id ("train/a b") as one file-name component ("train_a_b").
    static func fileName(_ id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" }.prefix(120))
    }
}
