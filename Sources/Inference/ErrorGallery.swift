import Data
import Evaluation
import Foundation
import Imaging

/// The errors of one or more models on the same screens (`screenlab errors`), each model at its
/// own per-class max-F1 operating point on those screens: per screen what each found, missed and
/// got wrong; screens ranked worst first for the first model (against the second when there is
/// one: the screens where the first trails it most); and per class the totals.
public struct ErrorGallery {
    public struct Model {
        public var name: String
        public var result: EvaluationResult
        public var confidences: [Double?]
        /// One per screen, in the dataset's order.
        public var screens: [ScreenErrors]
    }

    public let dataset: Dataset
    public let models: [Model]

    public init(dataset: Dataset, predictions: [(name: String, boxes: [PredictedBox])], options: EvaluationOptions = .init()) throws {
        self.dataset = dataset
        models = try predictions.map { set in
            let result = try DetectionEvaluator(classNames: dataset.classes, samples: dataset.samples, predictions: set.boxes, options: options).evaluate()
            let confidences = ScreenErrors.maxF1Confidences(result)
            var perImage = [[PredictedBox]](repeating: [], count: dataset.samples.count)
            for box in set.boxes { perImage[box.imageIndex].append(box) }
            let screens = dataset.samples.indices.map { i in
                ScreenErrors(imageIndex: i, sample: dataset.samples[i], predictions: perImage[i], confidences: confidences,
                             iouThreshold: options.iouThreshold)
            }
            return Model(name: set.name, result: result, confidences: confidences, screens: screens)
        }
    }

    /// Screen indices, worst first: by the first model's errors (missed boxes plus wrong
    /// detections) minus the second's when there is one, then by the first's errors, then in
    /// dataset order.
    public func ranking() -> [Int] {
        guard let first = models.first else { return [] }
        let second = models.dropFirst().first
        return dataset.samples.indices.sorted { a, b in
            func key(_ i: Int) -> (Int, Int) {
                let own = first.screens[i].count.errors
                return (own - (second?.screens[i].count.errors ?? 0), own)
            }
            let (ka, kb) = (key(a), key(b))
            return ka != kb ? ka > kb : a < b
        }
    }

    /// Per class and model: boxes, missed, badly placed, wrong class and false positives.
    public func classTotals() -> [[(missed: Int, badlyPlaced: Int, wrongClass: Int, falsePositives: Int)]] {
        models.map { model in
            var totals = [(missed: Int, badlyPlaced: Int, wrongClass: Int, falsePositives: Int)](repeating: (0, 0, 0, 0), count: dataset.classes.count)
            for (i, screen) in model.screens.enumerated() {
                for g in screen.missed { totals[dataset.samples[i].annotations[g].classIndex].missed += 1 }
                for d in screen.detections {
                    let c = d.prediction.classIndex
                    switch d.outcome {
                    case .hit: break
                    case .badlyPlaced: totals[c].badlyPlaced += 1
                    case .wrongClass: totals[c].wrongClass += 1
                    case .falsePositive: totals[c].falsePositives += 1
                    }
                }
            }
            return totals
        }
    }

    /// The side-by-side picture of screen `i`.
    public func picture(screen i: Int, height: Int = 720) throws -> RGBImage {
        let sample = dataset.samples[i]
        let image = try ImageIO.read(dataset.imageURL(of: sample))
        return ErrorPicture.sideBySide(models.map { model in
            ErrorPicture.panel(image, sample: sample, errors: model.screens[i], classes: dataset.classes, title: model.name, height: height)
        })
    }

    /// index.md: the operating points, the per-class totals, and the pictured screens in rank order.
    public func markdown(pictured: [(screen: Int, file: String)], data: String) -> String {
        let names = models.map(\.name)
        var out = "# Errors on \(data)\n\n"
        out += "\(dataset.samples.count) screens. Each model at its own per-class max-F1 confidence on these screens, matched at IoU ≥ "
        out += "\(models.first?.result.options.iouThreshold ?? 0.5): **missed** = a box no detection of its class matched; **badly placed** = a "
        out += "detection on a missed box of its class at IoU \(ScreenErrors.placementIoU)–0.5; **wrong class** = a detection on a box of another "
        out += "class that its own class missed; **false positive** = any other unmatched detection (duplicates included).\n\n"
        out += "| model | mAP@0.5 | weighted | boxes missed | badly placed | wrong class | false positives |\n|---|---:|---:|---:|---:|---:|---:|\n"
        let totals = classTotals()
        for (m, model) in models.enumerated() {
            let sum = totals[m].reduce((0, 0, 0, 0)) { ($0.0 + $1.missed, $0.1 + $1.badlyPlaced, $0.2 + $1.wrongClass, $0.3 + $1.falsePositives) }
            out += "| \(model.name) | \(Self.decimal(model.result.map50)) | \(Self.decimal(model.result.weightedMap50)) | \(sum.0) | \(sum.1) | \(sum.2) | \(sum.3) |\n"
        }
        out += "\n## Per class (missed / badly placed / wrong class / false positives)\n\n"
        out += "| UI type | boxes | " + names.map { "\($0) confidence | \($0)" }.joined(separator: " | ") + " |\n"
        out += "|---|---:|" + String(repeating: "---:|---:|", count: models.count) + "\n"
        for (c, name) in dataset.classes.enumerated() where models.first.map({ $0.result.classes[c].groundTruth > 0 }) ?? false {
            out += "| \(name) | \(models[0].result.classes[c].groundTruth) | " + models.indices.map { m in
                let t = totals[m][c]
                return "\(models[m].confidences[c].map { String(format: "%.2f", $0) } ?? "—") | \(t.missed) / \(t.badlyPlaced) / \(t.wrongClass) / \(t.falsePositives)"
            }.joined(separator: " | ") + " |\n"
        }
        out += "\n## Screens, worst first" + (models.count > 1 ? " (where \(names[0]) trails \(names[1]) most)" : "") + "\n\n"
        out += "| rank | screen | " + names.map { "\($0): hits / missed / wrong" }.joined(separator: " | ") + " |\n|---:|---|"
            + String(repeating: "---:|", count: models.count) + "\n"
        for (rank, entry) in pictured.enumerated() {
            out += "| \(rank + 1) | [\(dataset.samples[entry.screen].id)](\(entry.file)) | " + models.map { model in
                let c = model.screens[entry.screen].count
                return "\(c.hits) / \(c.misses) / \(c.errors - c.misses)"
            }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    static func decimal(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "—" }
}
