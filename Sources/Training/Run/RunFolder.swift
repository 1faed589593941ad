import Foundation
import Support

/// `Experiments/runs/NAME/RUN_ID/`: everything one run writes.
///
/// experiment.yaml + overrides.txt   the config as given (what --resume re-reads)
/// config.resolved.yaml              every setting after defaults and overrides
/// status.json                       running / finished / failed / interrupted, epoch, step
/// metrics.csv                       one row per epoch
/// checkpoints/last, checkpoints/best
/// reports/val, reports/test         the evaluator's reports; thresholds.yaml picked on val
/// model.slw                         the final weights with classes and thresholds
/// plots/, predictions-test.png, summary.json
public struct RunFolder {
    public let url: URL

    public init(url: URL) { self.url = url }

    public var id: String { url.lastPathComponent }
    public var experimentFile: URL { url.appendingPathComponent("experiment.yaml") }
    var overridesFile: URL { url.appendingPathComponent("overrides.txt") }
    public var resolvedConfigFile: URL { url.appendingPathComponent("config.resolved.yaml") }
    public var statusFile: URL { url.appendingPathComponent("status.json") }
    public var metricsFile: URL { url.appendingPathComponent("metrics.csv") }
    public var lastCheckpoint: URL { url.appendingPathComponent("checkpoints/last") }
    public var bestCheckpoint: URL { url.appendingPathComponent("checkpoints/best") }
    public var reportsFolder: URL { url.appendingPathComponent("reports") }
    public var thresholdsFile: URL { url.appendingPathComponent("thresholds.yaml") }
    public var weightsFile: URL { url.appendingPathComponent("model.slw") }
    public var plotsFolder: URL { url.appendingPathComponent("plots") }
    public var previewFile: URL { url.appendingPathComponent("predictions-test.png") }
    public var summaryFile: URL { url.appendingPathComponent("summary.json") }

    /// A new run folder named by the UTC time (sortable) and the process id (unique on a host).
    static func create(in experimentFolder: URL, experimentText: String, overrides: [String], config: ExperimentConfig) throws -> RunFolder {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        var url = experimentFolder.appendingPathComponent("\(formatter.string(from: Date()))-\(getpid())")
        var suffix = 1
        while FileManager.default.fileExists(atPath: url.path) {
            suffix += 1
            url = experimentFolder.appendingPathComponent("\(formatter.string(from: Date()))-\(getpid())-\(suffix)")
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let run = RunFolder(url: url)
        try AtomicFile.write(experimentText, to: run.experimentFile)
        try AtomicFile.write(overrides.map { $0 + "\n" }.joined(), to: run.overridesFile)
        try AtomicFile.write(config.resolvedYAML(), to: run.resolvedConfigFile)
        return run
    }

    func readExperiment() throws -> (text: String, overrides: [String]) {
        guard let text = try? String(contentsOf: experimentFile, encoding: .utf8) else {
            throw CheckpointError(folder: url.path, reason: "not a run folder (no experiment.yaml); give the folder `screenlab train` printed last")
        }
        let overrides = ((try? String(contentsOf: overridesFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (text, overrides)
    }

    /// The experiment name the run started under, as config.resolved.yaml recorded it. Resuming
    /// needs it: experiment.yaml is a copy whose own stem ("experiment") would otherwise name the
    /// run in the registry when the original file named it by its stem. Nil for folders written
    /// before the resolved config carried a name.
    func startedName() throws -> String? {
        guard let text = try? String(contentsOf: resolvedConfigFile, encoding: .utf8) else { return nil }
        guard let document = try YAMLDocument.parse(text, file: resolvedConfigFile.relativePath) else { return nil }
        return try ConfigMapping(document).optionalString("name")
    }

    func writeStatus(_ state: RunState) throws {
        var object: [String: Any] = ["status": state.status.rawValue, "epoch": state.epoch, "epochs": state.totalEpochs,
                                     "step": state.step, "seconds": (state.elapsedSeconds * 10).rounded() / 10,
                                     "updated": ISO8601DateFormatter().string(from: Date())]
        if let reason = state.stopReason { object["reason"] = reason }
        if let best = state.bestValMAP50 { object["best_val_map50"] = best }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(data, to: statusFile)
    }
}
