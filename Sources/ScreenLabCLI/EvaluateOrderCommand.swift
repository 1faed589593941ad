import Accessibility
import ArgumentParser
import Data
import Foundation
import Imaging
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
            only the heuristics and XY-cut are measured) and compares it with the true elements and \
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

    func validate() throws {
        guard (1...1_000_000).contains(synthetic) else { throw usageError("--synthetic must be in 1...1000000 (got \(synthetic))") }
        if let apps, !(1...1_000_000).contains(apps) { throw usageError("--apps must be in 1...1000000 (got \(apps))") }
        guard (0...100).contains(worst) else { throw usageError("--worst must be in 0...100 (got \(worst))") }
        do { _ = try ClassMix.parse(classMix) } catch { throw usageError("--class-mix: \(error)") }
    }

    func run() throws {
        do {
            let config = SyntheticConfig(seed: seed, appCount: apps ?? max(3, synthetic / 12), dialogProbability: dialogProbability, classMix: try ClassMix.parse(classMix))
            let generator = try SyntheticScreenGenerator(config: config)
            let folder = try out.map { try OutputFolder(URL(fileURLWithPath: $0), existing: .mustBeEmpty) }
            let progress = ProgressLine("evaluate-order", total: synthetic, unit: "screens")
            var scores: [OrderEvaluation.Score] = []
            for index in 0..<synthetic {
                let (_, sample) = generator.render(index: index)
                let view = AccessibilityView(detections: Self.detections(sample, classes: generator.classes),
                                             screen: ScreenSize(width: Double(sample.width), height: Double(sample.height)))
                scores.append(OrderEvaluation.score(view, truth: sample.accessibilityElements ?? []))
                progress.advance()
            }
            progress.finish()
            print(OrderEvaluation.Summary(scores).text)
            guard let folder else { return }
            var table = "screen\ttrue_elements\tproduced_elements\tinsertions\treproduced\tproduced_order\n"
            for (index, score) in scores.enumerated() {
                table += "\(SyntheticScreenGenerator.sampleID(index: index))\t\(score.trueElements)\t\(score.producedElements)\t\(score.insertions)\t"
                    + "\(score.reproduced)\t\(score.producedOrder.map { String($0 + 1) }.joined(separator: ","))\n"
            }
            try folder.write(table, to: "order.tsv")
            let worstScreens = scores.indices.sorted { (scores[$0].insertions, $1) > (scores[$1].insertions, $0) }.prefix(worst)
            for index in worstScreens where scores[index].insertions > 0 {
                let (image, sample) = generator.render(index: index)
                let view = AccessibilityView(detections: Self.detections(sample, classes: generator.classes),
                                             screen: ScreenSize(width: Double(sample.width), height: Double(sample.height)))
                let truth = OrderEvaluation.trueView(view, truth: sample.accessibilityElements ?? [])
                let pair = Imaging.ContactSheet.grid([AccessibilityWriter.drawn(image, view), AccessibilityWriter.drawn(image, truth)], columns: 2)
                try folder.write(try ImageIO.encodePNG(pair), to: "worst/\(sample.id)-produced-vs-true.png")
            }
            try folder.commit()
            print("per screen: \(folder.destination.path)/order.tsv; worst screens (produced | true): \(folder.destination.path)/worst/")
        } catch let error as CommandFailure { throw error } catch { throw failure("\(error)") }
    }

    /// The screen's true boxes as detections with score 1: "perfect detections".
    static func detections(_ sample: Sample, classes: [String]) -> [ScreenDetection] {
        sample.annotations.map {
            ScreenDetection(classIndex: $0.classIndex, className: classes[$0.classIndex],
                            box: ScreenRect(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height), score: 1)
        }
    }
}
