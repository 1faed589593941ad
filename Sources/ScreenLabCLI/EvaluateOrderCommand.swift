import Accessibility
import ArgumentParser
import Data
import Synthetic
import Evaluation
import Foundation
import Imaging
import Inference
import Support

/// `screenlab evaluate-order`: the accessibility view's navigation order scored as §5.6 does,
/// on synthetic screens whose true elements and order the generator records.
struct EvaluateOrderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-order",
        abstract: "Score the accessibility view's grouping and navigation order on synthetic screens.",
        discussion: """
            Renders screens 0..<N of the synthetic generator (as `data synth` does with the same seed \
            and class mix), runs the accessibility view on their true boxes (perfect detections, so \
            only the heuristics and XY-cut are measured) — or, with --weights, on a detector's output \
            for the rendered screens, the paper's condition (true boxes are matched to detections at \
            IoU ≥ 0.5; a true element none of whose boxes was found counts as one step) — and \
            compares it with the true elements and \
            order the generator records: minimum insertion steps per screen (Screen Recognition \
            §5.6: 73.7 % of screens in perfect order, 0.67 errors per screen) and the share of true \
            elements reproduced exactly. With --out, writes order.tsv (one line per screen) and, for \
            the worst screens, the produced view and the true one as numbered pictures.
            """)

    @Option(help: "Number of synthetic screens.") var synthetic: Int
    @Option(help: "Random seed of the generator.") var seed: UInt64 = 0
    @Option(help: "Class mix: a preset (default, rare-controls) or Class=multiplier pairs (as for data synth).") var classMix: String = "default"
    @Option(help: "Number of synthetic apps (default: one per 12 screens, at least 3, as for data synth).") var apps: Int?
    @Option(help: "Chance of an alert dialog on a screen (as for data synth).") var dialogProbability: Double = SyntheticConfig().dialogProbability
    @Option(help: "Folder for order.tsv and the worst screens' pictures (new or empty).") var out: String?
    @Option(help: "Worst screens to draw into --out.") var worst: Int = 6
    @Option(help: "A trained model (.slw) whose detections on the rendered screens the view is built on, instead of the true boxes.") var weights: String?
    @Option(help: "With --weights: one confidence for every class, instead of the thresholds stored with the weights.") var confidence: Double?
    @Option(help: "With --weights: a thresholds file (`screenlab thresholds pick`) instead of the stored thresholds.") var thresholds: String?
    @Option(help: "With --weights: screens per forward pass.") var batch: Int = 8
    @OptionGroup var postprocess: PostprocessFlags

    func validate() throws {
        guard (1...1_000_000).contains(synthetic) else { throw usageError("--synthetic must be in 1...1000000 (got \(synthetic))") }
        if let apps, !(1...1_000_000).contains(apps) { throw usageError("--apps must be in 1...1000000 (got \(apps))") }
        guard (0...100).contains(worst) else { throw usageError("--worst must be in 0...100 (got \(worst))") }
        do { _ = try ClassMix.parse(classMix) } catch { throw usageError("--class-mix: \(error)") }
        guard (1...256).contains(batch) else { throw usageError("--batch must be in 1...256 (got \(batch))") }
        if let confidence, !(0...1).contains(confidence) { throw usageError("--confidence must be in [0, 1] (got \(confidence))") }
        if weights == nil, confidence != nil || thresholds != nil { throw usageError("--confidence and --thresholds need --weights") }
    }

    func run() throws {
        do {
            let config = SyntheticConfig(seed: seed, appCount: apps ?? max(3, synthetic / 12), dialogProbability: dialogProbability, classMix: try ClassMix.parse(classMix))
            let generator = try SyntheticScreenGenerator(config: config)
            let folder = try out.map { try OutputFolder(URL(fileURLWithPath: $0), existing: .mustBeEmpty) }
            let predictor = try weights.map { path -> DetectorPredictor in
                let detector = try TrainedDetector.load(contentsOf: URL(fileURLWithPath: path))
                guard detector.classes == generator.classes else {
                    throw failure("\(path) detects \(detector.classes.joined(separator: ", ")), not the synthetic screens' classes "
                        + "(\(generator.classes.joined(separator: ", "))); give a model trained on them (e.g. the quickstart's)")
                }
                let thresholdFile = try thresholds.map { try ThresholdFile.load(URL(fileURLWithPath: $0)) }
                let (predictor, note) = try detector.deploymentPredictor(confidence: confidence, thresholds: thresholdFile, batchSize: batch,
                                                                         postprocess: postprocess.deploymentOptions)
                if let note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
                return predictor
            }
            let progress = ProgressLine("evaluate-order", total: synthetic, unit: "screens")
            var scores: [OrderEvaluation.Score] = [], detected: [[ScreenDetection]] = []
            var start = 0
            while start < synthetic {
                let screens = (start..<min(synthetic, start + batch)).map { generator.render(index: $0) }
                let found = try predictor.map { try Self.detections($0.predict(images: screens.map(\.image)), screens: screens.count, classes: generator.classes) }
                for (offset, (_, sample)) in screens.enumerated() {
                    let (view, truth) = Self.view(sample, detections: found?[offset], classes: generator.classes)
                    scores.append(OrderEvaluation.score(view, truth: truth))
                    if let found { detected.append(found[offset]) }
                    progress.advance()
                }
                start += screens.count
            }
            progress.finish()
            print((weights.map { "on the detections of \($0)\n" } ?? "on the true boxes\n") + OrderEvaluation.Summary(scores).text)
            guard let folder else { return }
            var table = "screen\ttrue_elements\tproduced_elements\tinsertions\treproduced\tproduced_order\tmissing\n"
            for (index, score) in scores.enumerated() {
                table += "\(SyntheticScreenGenerator.sampleID(index: index))\t\(score.trueElements)\t\(score.producedElements)\t\(score.insertions)\t"
                    + "\(score.reproduced)\t\(score.producedOrder.map { String($0 + 1) }.joined(separator: ","))\t\(score.missing)\n"
            }
            try folder.write(table, to: "order.tsv")
            let worstScreens = scores.indices.sorted { (scores[$0].insertions, $1) > (scores[$1].insertions, $0) }.prefix(worst)
            for index in worstScreens where scores[index].insertions > 0 {
                let (image, sample) = generator.render(index: index)
                let (view, _) = Self.view(sample, detections: detected.isEmpty ? nil : detected[index], classes: generator.classes)
                let perfect = Self.view(sample, detections: nil, classes: generator.classes).view
                let truth = OrderEvaluation.trueView(perfect, truth: sample.accessibilityElements ?? [])
                let pair = Imaging.ContactSheet.grid([AccessibilityWriter.drawn(image, view), AccessibilityWriter.drawn(image, truth)], columns: 2)
                try folder.write(try ImageIO.encodePNG(pair), to: "worst/\(sample.id)-produced-vs-true.png")
            }
            try folder.commit()
            print("per screen: \(folder.destination.path)/order.tsv; worst screens (produced | true): \(folder.destination.path)/worst/")
        } catch let error as CommandFailure { throw error } catch { throw failure("\(error)") }
    }

    /// The view of one screen and its true elements over the view's detections: the true boxes
    /// themselves when `detections` is nil, else the detector's, with the truth matched onto them.
    static func view(_ sample: Sample, detections: [ScreenDetection]?, classes: [String]) -> (view: AccessibilityView, truth: [[Int]]) {
        let screen = ScreenSize(width: Double(sample.width), height: Double(sample.height))
        let trueBoxes = Self.detections(sample, classes: classes)
        let truth = sample.accessibilityElements ?? []
        guard let detections else { return (AccessibilityView(detections: trueBoxes, screen: screen), truth) }
        return (AccessibilityView(detections: detections, screen: screen),
                OrderEvaluation.truth(truth, trueBoxes: trueBoxes.map(\.box), detections: detections))
    }

    /// A batch's predictions as each screen's detections.
    static func detections(_ predictions: [PredictedBox], screens: Int, classes: [String]) -> [[ScreenDetection]] {
        var result = [[ScreenDetection]](repeating: [], count: screens)
        for p in predictions {
            result[p.imageIndex].append(ScreenDetection(classIndex: p.classIndex, className: classes[p.classIndex],
                                                        box: p.box, score: p.score))
        }
        return result
    }

    /// The screen's true boxes as detections with score 1: "perfect detections".
    static func detections(_ sample: Sample, classes: [String]) -> [ScreenDetection] {
        sample.annotations.map {
            ScreenDetection(classIndex: $0.classIndex, className: classes[$0.classIndex],
                            box: $0.box, score: 1)
        }
    }
}
