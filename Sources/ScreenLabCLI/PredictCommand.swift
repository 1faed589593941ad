import Accessibility
import ArgumentParser
import Data
import Detection
import Evaluation
import Foundation
import Imaging
import Inference
import Support

/// `screenlab predict --weights W IMAGE_OR_DIR... --out DIR`.
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict", abstract: "Run a trained detector on screenshots: COCO-style detections and pictures with boxes.",
        discussion: """
        Keeps, per class, the detections at or above the confidence stored in the weights (picked on val by `screenlab \
        train`), or the ones in --thresholds, or --confidence for every class. Writes DIR/predictions.json (image_id = file \
        stem, file_name, category_id = class index, category_name, bbox [x, y, w, h] in the image's pixels, score), \
        DIR/images/STEM.png with the boxes drawn, and DIR/contact-sheet.png of the first 16. Unreadable images are listed \
        and skipped. With --accessibility, also DIR/accessibility/STEM.json and STEM.png: the elements a screen reader \
        would present, grouped and ordered by Screen Recognition's heuristics (docs/inference.md, "The accessibility view").
        """)

    @Option(help: "Trained detector (.slw written by `screenlab train`).") var weights: String
    @Argument(help: "Images (PNG or JPEG) or folders of them.") var inputs: [String]
    @Option(help: "thresholds.yaml (from `screenlab thresholds pick`) instead of the weights' own thresholds.") var thresholds: String?
    @Option(help: "One confidence for every class (instead of per-class thresholds).") var confidence: Double?
    @Option(help: "Images per forward pass.") var batch = 8
    @Option(help: "Output folder.") var out: String
    @Flag(help: "Also write the screen-reader view per image: grouped elements in navigation order (JSON and a numbered picture).")
    var accessibility = false
    @OptionGroup var postprocess: PostprocessFlags

    func validate() throws {
        guard !inputs.isEmpty else { throw usageError("give at least one image or folder") }
        try OptionBounds.check("batch", batch, OptionBounds.batch)
        if let confidence, !(0...1).contains(confidence) { throw usageError("--confidence must be in [0, 1], got \(confidence)") }
        guard thresholds == nil || confidence == nil else { throw usageError("give --thresholds or --confidence, not both") }
    }

    func run() throws {
        do {
            let detector = try TrainedDetector.load(contentsOf: URL(fileURLWithPath: weights))
            let (images, problems) = collectImages()
            problems.forEach { FileHandle.standardError.write(Data("warning: skipped \($0)\n".utf8)) }
            guard !images.isEmpty else { throw failure("no readable PNG or JPEG images in \(inputs.joined(separator: ", "))") }
            let thresholdFile = try thresholds.map { try ThresholdFile.load(URL(fileURLWithPath: $0)) }
            let (predictor, note) = try detector.deploymentPredictor(confidence: confidence, thresholds: thresholdFile, batchSize: batch,
                                                                     postprocess: postprocess.deploymentOptions)
            if let note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
            let ids = PredictionWriter.imageIDs(images.map(\.url))
            let samples = zip(images, ids).map { Sample(id: $1, imagePath: $0.url.path, width: $0.width, height: $0.height) }
            let output = try predictor.predict(samples, imageURL: { URL(fileURLWithPath: $0.imagePath) }, label: "predicting", showProgress: true)
            output.unreadable.forEach { FileHandle.standardError.write(Data("warning: skipped unreadable image \($0.file) (\($0.reason))\n".utf8)) }
            // A run that decoded nothing has nothing to show: an empty predictions.json and exit 0
            // would read as "no UI elements found".
            let predicted = images.count - output.unreadable.count
            guard predicted > 0 else {
                throw failure("none of the \(images.count) image(s) could be decoded (see the warnings above); nothing was written to \(out)")
            }
            let folder = try OutputFolder(URL(fileURLWithPath: out), existing: .merge, notReplacing: images.map(\.url) + [URL(fileURLWithPath: weights)])
            // The folder holds one run's results: a previous run's pictures go (never an input that lives there).
            let inputs = Set(images.map { $0.url.standardizedFileURL.resolvingSymlinksInPath().path })
            for sub in ["images", "accessibility"] {
                let existing = URL(fileURLWithPath: out).appendingPathComponent(sub)
                for name in (try? FileManager.default.contentsOfDirectory(atPath: existing.path)) ?? []
                where !inputs.contains(existing.appendingPathComponent(name).standardizedFileURL.resolvingSymlinksInPath().path) {
                    try folder.removeOnCommit("\(sub)/\(name)")
                }
            }
            try folder.removeOnCommit("contact-sheet.png")
            try folder.write(PredictionWriter.json(output.predictions, images: images.map(\.url), classes: detector.classes), to: "predictions.json")
            var sheet: [RGBImage] = []
            for (index, image) in images.enumerated() {
                guard let pixels = try? ImageIO.read(image.url) else { continue }
                let drawn = PredictionWriter.drawn(pixels, output.predictions.filter { $0.imageIndex == index }, classes: detector.classes)
                try folder.write(try ImageIO.encodePNG(drawn), to: "images/\(ids[index]).png")
                // The contact sheet keeps thumbnails: 16 full-size pictures held until the end exhausted memory on large images.
                if sheet.count < 16 {
                    let scale = min(1, 640 / Double(max(drawn.height, 1)))
                    sheet.append(scale < 1 ? drawn.resized(width: max(1, Int(Double(drawn.width) * scale)), height: 640) : drawn)
                }
                if accessibility {
                    let stem = ids[index]
                    let detections = output.predictions.filter { $0.imageIndex == index }.map {
                        ScreenDetection(classIndex: $0.classIndex, className: detector.classes[$0.classIndex],
                                        box: $0.box, score: $0.score)
                    }
                    let screen = ScreenSize(width: Double(pixels.width), height: Double(pixels.height))
                    let view = AccessibilityView(detections: detections, screen: screen, image: pixels)
                    try folder.write(AccessibilityWriter.json(view, imageID: stem, fileName: image.url.lastPathComponent), to: "accessibility/\(stem).json")
                    try folder.write(try ImageIO.encodePNG(AccessibilityWriter.drawn(pixels, view)), to: "accessibility/\(stem).png")
                }
            }
            if sheet.count > 1 { try folder.write(try ImageIO.encodePNG(ContactSheet.grid(sheet, columns: min(4, sheet.count))), to: "contact-sheet.png") }
            try folder.commit()
            let skipped = problems.count + output.unreadable.count
            print("\(output.predictions.count) detections on \(predicted) image\(predicted == 1 ? "" : "s")"
                + (skipped > 0 ? " (\(skipped) skipped, listed above)" : "")
                + " → \(out)/predictions.json, \(out)/images/" + (accessibility ? ", \(out)/accessibility/" : ""))
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw failure("\(error)")
        }
    }

    /// Image files named directly or found in the folders (sorted), with their sizes from the headers.
    func collectImages() -> (images: [(url: URL, width: Int, height: Int)], problems: [String]) {
        var files: [URL] = [], problems: [String] = []
        let extensions: Set<String> = ["png", "jpg", "jpeg"]
        for input in inputs {
            let url = URL(fileURLWithPath: input)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { problems.append("\(input): no such file or folder"); continue }
            if isFolder.boolValue {
                let found = (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
                    // By the name's ending: Foundation gives `..png` no extension, so it was skipped without a word.
                    .filter { url in extensions.contains { url.lastPathComponent.lowercased().hasSuffix(".\($0)") } }.sorted { $0.path < $1.path }
                files += found
            } else {
                files.append(url)
            }
        }
        var images: [(url: URL, width: Int, height: Int)] = []
        for file in files {
            do {
                let size = try ImageIO.readSize(file)
                images.append((file, size.width, size.height))
            } catch {
                problems.append("\(file.path): \(error)")
            }
        }
        return (images, problems)
    }
}
