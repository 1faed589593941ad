import Foundation

/// Run folders as `screenlab train` leaves them (the files the registry reads), without training.
public enum RunFolderFixture {
    public static func temporaryFolder(_ name: String = "registry") throws -> URL {
        try TestFolders.make(name)
    }

    /// RUNS/EXPERIMENT/ID with config, metrics for `epochs` epochs and, when finished, summary.json.
    @discardableResult
    public static func write(in runs: URL, experiment: String = "tiny", id: String, epochs: Int = 3, lr: Double = 0.002,
                      finished: Bool = true, apShift: Double = 0) throws -> URL {
        let folder = runs.appendingPathComponent(experiment).appendingPathComponent(id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func put(_ text: String, _ name: String) throws { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        try put("epochs: \(epochs)\n", "experiment.yaml")
        try put("""
        data:
          synthetic: {count: 24, seed: 5}
          train: train
          val: val
          test: test
        epochs: \(epochs)
        optimizer: {name: adamw, lr: \(lr), weight_decay: 0.05}
        batch_size: 4

        """, "config.resolved.yaml")
        var csv = "epoch,loss_cls,loss_giou,lr,val_map50,val_map_center,images_per_second,seconds\n"
        for e in 1...max(epochs, 1) {
            csv += "\(e),\(1.0 / Double(e)),\(0.5 / Double(e)),\(lr),\(0.1 * Double(e) + apShift),\(0.12 * Double(e)),10.00,2.0\n"
        }
        try put(csv, "metrics.csv")
        if finished {
            func split(_ base: Double, withPRF: Bool) -> String {
                let classes = ["Text", "Icon"].enumerated().map { i, name in
                    let prf = withPRF ? "\"precision\": 0.8, \"recall\": 0.7, \"f1\": 0.75" : "\"precision\": null, \"recall\": null, \"f1\": null"
                    return "{\"name\": \"\(name)\", \"ground_truth\": \(10 + i), \"ap50\": \(base + Double(i) * 0.1 + apShift), \"ap_center\": \(base + 0.05), \(prf)}"
                }
                return "{\"map50\": \(base + apShift), \"map_center\": \(base + 0.05), \"weighted_map50\": \(base), \"images\": 5, \"classes\": [\(classes.joined(separator: ", "))]}"
            }
            try put("""
            {"format": 1, "experiment": "\(experiment)", "run_id": "\(id)", "status": "finished", "epochs": \(epochs), "epochs_planned": \(epochs),
             "seconds": 6.0, "images_per_second": 10.0, "best_epoch": \(epochs), "best_val_map50": 0.3,
             "val": \(split(0.3, withPRF: false)), "test": \(split(0.25, withPRF: true)), "weights": null,
             "thresholds": {"strategy": "max-f1", "picked_on": "synthetic split 'val'", "classes": [
               {"name": "Text", "confidence": 0.4, "precision": 0.9, "recall": 0.8, "f1": 0.85},
               {"name": "Icon", "confidence": null, "precision": null, "recall": null, "f1": null}]}}
            """, "summary.json")
        } else {
            try put("{\"status\": \"running\", \"epoch\": \(epochs), \"epochs\": \(epochs + 2), \"step\": 9, \"seconds\": 6.0}", "status.json")
        }
        return folder
    }
}
