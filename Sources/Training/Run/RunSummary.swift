import Evaluation
import Foundation
import Support

/// `summary.json`: what a program reads after a run (the registry, `compare`, scripts).
public struct RunSummary {
    public var object: [String: Any]

    init(config: ExperimentConfig, run: RunFolder, state: RunState, val: EvaluationReport?, test: EvaluationReport?,
         thresholds: ThresholdFile?, weights: String?, metrics: MetricsLog, preview: String?) {
        func split(_ report: EvaluationReport?) -> Any {
            guard let report else { return NSNull() }
            return [
                "map50": report.map50 as Any? ?? NSNull(), "weighted_map50": report.weightedMap50 as Any? ?? NSNull(),
                "map_center": report.mapCenter as Any? ?? NSNull(), "weighted_map_center": report.weightedMapCenter as Any? ?? NSNull(),
                "images": report.images,
                "classes": report.classes.map { c -> [String: Any] in
                    ["name": c.name, "ground_truth": c.groundTruth, "ap50": c.ap50 as Any? ?? NSNull(), "ap_center": c.apCenter as Any? ?? NSNull(),
                     "precision": c.precision as Any? ?? NSNull(), "recall": c.recall as Any? ?? NSNull(), "f1": c.f1 as Any? ?? NSNull()]
                },
            ] as [String: Any]
        }
        let trainedImages = metrics.rows.reduce(0.0) { $0 + $1.imagesPerSecond * $1.seconds }
        let trainedSeconds = metrics.rows.reduce(0.0) { $0 + $1.seconds }
        object = [
            "format": 1, "experiment": config.name, "run_id": run.id, "run_folder": run.url.path, "status": state.status.rawValue,
            "epochs": state.epoch, "epochs_planned": state.totalEpochs, "steps": state.step, "seconds": (state.elapsedSeconds * 10).rounded() / 10,
            "images_per_second": trainedSeconds > 0 ? (trainedImages / trainedSeconds * 100).rounded() / 100 : NSNull(),
            "best_epoch": state.bestEpoch.map { $0 + 1 } as Any? ?? NSNull(), "best_val_map50": state.bestValMAP50 as Any? ?? NSNull(),
            "val": split(val), "test": split(test), "weights": weights as Any? ?? NSNull(), "preview": preview as Any? ?? NSNull(),
            "unreadable_images": state.unreadableImages, "unreadable_image_count": state.unreadableImages.count,
            "stop_reason": state.stopReason as Any? ?? NSNull(),
            "thresholds": thresholds.map { file in
                ["strategy": file.strategy, "picked_on": file.pickedOn.description,
                 "classes": file.classes.map { ["name": $0.name, "confidence": $0.confidence as Any? ?? NSNull(), "precision": $0.precision as Any? ?? NSNull(),
                                                 "recall": $0.recall as Any? ?? NSNull(), "f1": $0.f1 as Any? ?? NSNull()] }] as [String: Any]
            } as Any? ?? NSNull(),
        ]
    }

    /// A run stopped before its reports (interrupted): position and metrics so far.
    static func partial(config: ExperimentConfig, run: RunFolder, state: RunState) throws -> RunSummary {
        RunSummary(config: config, run: run, state: state, val: nil, test: nil, thresholds: nil, weights: nil, metrics: MetricsLog(), preview: nil)
    }

    public subscript(key: String) -> Any? { object[key] }

    func write(to url: URL) throws {
        try AtomicFile.write(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), to: url)
    }
}
