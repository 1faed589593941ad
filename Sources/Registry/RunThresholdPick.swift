import Evaluation
import Foundation
import Support
import Weights

/// `screenlab thresholds pick --run RUN`: picks on the run's val report, then makes the choice
/// the run's own — its thresholds.yaml, the thresholds inside its model.slw, and the registry's
/// `thresholds` rows — so `predict` with the run's weights uses what was just picked.
public enum RunThresholdPick {
    public struct Outcome {
        public var file: ThresholdFile
        public var warnings: [String]
        public var thresholdsFile: URL
        public var weightsFile: URL?
    }

    public static func pick(run id: String, strategy: ThresholdStrategy, registry: RunRegistry, alsoWriteTo extra: URL? = nil) throws -> Outcome {
        let details = try registry.details(id)
        let run = details.run
        guard let folder = run.runFolder.map({ URL(fileURLWithPath: $0) }) else {
            throw RegistryError.badRunFolder(folder: run.id, reason: "the registry has no run folder for this run; import it with `screenlab runs import FOLDER`")
        }
        let valSplit = run.valSplit ?? "val"
        let report = details.artifacts.first { $0.kind == "report" && $0.name == valSplit }.map { URL(fileURLWithPath: $0.path) }
            ?? folder.appendingPathComponent("reports").appendingPathComponent(valSplit)
        guard FileManager.default.fileExists(atPath: report.appendingPathComponent("metrics.json").path) else {
            throw RegistryError.badRunFolder(folder: folder.path, reason: "run \(run.id) (\(run.status.rawValue)) has no \(valSplit) report at \(report.path); "
                + "thresholds are picked on a finished run's val report (resume the run with `screenlab train --resume \(folder.path)`)")
        }
        let (file, warnings) = try ThresholdFile.pick(fromReport: report.path, strategy: strategy)
        let thresholdsFile = folder.appendingPathComponent("thresholds.yaml")

        // Everything that can fail on reading comes before the first write: a damaged model.slw
        // used to fail after thresholds.yaml had been rewritten, leaving the run's three records
        // of its thresholds disagreeing.
        let weightsURL = details.artifacts.first { $0.kind == "weights" }.map { URL(fileURLWithPath: $0.path) } ?? folder.appendingPathComponent("model.slw")
        var newWeights: WeightsFile?
        if FileManager.default.fileExists(atPath: weightsURL.path) {
            let thresholds = file.classes.compactMap { entry -> ClassThreshold? in
                guard let confidence = entry.confidence else { return nil }
                return ClassThreshold(className: entry.name, confidence: confidence, precision: entry.precision ?? 0, recall: entry.recall ?? 0,
                                      f1: entry.f1 ?? 0, split: valSplit)
            }
            newWeights = try WeightsFile.read(contentsOf: weightsURL).settingThresholds(thresholds.isEmpty ? nil : thresholds, file: weightsURL.path)
        }
        let weightsFile = newWeights == nil ? nil : weightsURL

        let now = RunRegistry.timestamp()
        let records = file.classes.enumerated().map { index, entry in
            ThresholdRecord(classIndex: index, className: entry.name, confidence: entry.confidence, precision: entry.precision, recall: entry.recall,
                            f1: entry.f1, strategy: file.strategy, pickedOn: file.pickedOn.description, pickedAt: now)
        }
        var artifacts = [ArtifactRecord(kind: "thresholds", name: "thresholds", path: thresholdsFile.path)]
        if let weightsFile { artifacts.append(ArtifactRecord(kind: "weights", name: "model", path: weightsFile.path)) }

        // Then the writes, each atomic; a failure part-way puts back the files already replaced,
        // so the run's thresholds.yaml, model.slw and registry rows change together or not at all.
        var written: [(url: URL, previous: Data?)] = []
        func replace(_ url: URL, _ write: () throws -> Void) throws {
            let previous = try? Data(contentsOf: url)
            try write()
            written.append((url, previous))
        }
        do {
            if let newWeights, let weightsFile { try replace(weightsFile) { try newWeights.write(to: weightsFile) } }
            try replace(thresholdsFile) { try AtomicFile.write(file.yaml(), to: thresholdsFile) }
            if let extra { try replace(extra) { try AtomicFile.write(file.yaml(), to: extra) } }
            try registry.recordThresholds(records, artifacts: artifacts, runID: run.id)
        } catch {
            for (url, previous) in written.reversed() {
                if let previous { try? AtomicFile.write(previous, to: url) } else { try? FileManager.default.removeItem(at: url) }
            }
            throw error
        }
        return Outcome(file: file, warnings: warnings, thresholdsFile: thresholdsFile, weightsFile: weightsFile)
    }
}
