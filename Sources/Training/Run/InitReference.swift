import Foundation

/// `init: run:NAME` in an experiment: the weights of the newest *finished* run of experiment NAME
/// (`Experiments/runs/NAME/*/model.slw`), so a chain such as synth-pretrain → vins-finetune needs
/// no copied file or hand-edited timestamp. Resolved once when a run starts; the concrete path is
/// stored with the run's overrides, so `--resume` and the resolved config name the same file
/// even after a newer pretraining run finishes.
enum InitReference {
    static let prefix = "run:"

    /// The `.slw` path for `reference` (relative to `root` when inside it), or nil when
    /// `reference` is an ordinary path.
    static func resolve(_ reference: String, runs: URL, root: URL, file: String, key: String = "init") throws -> String? {
        guard reference.hasPrefix(prefix) else { return nil }
        let name = String(reference.dropFirst(prefix.count))
        func fail(_ message: String) -> ExperimentConfigError {
            ExperimentConfigError(file: file, line: nil, key: key, message: message)
        }
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw fail("`\(reference)`: give an experiment name after `run:`, e.g. `\(key): run:synth-pretrain`")
        }
        let folder = runs.appendingPathComponent(name)
        let runIDs = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted(by: >)
        for id in runIDs {
            let run = RunFolder(url: folder.appendingPathComponent(id))
            guard isFinished(run), FileManager.default.fileExists(atPath: run.weightsFile.path) else { continue }
            let path = run.weightsFile.standardizedFileURL.path
            let rootPath = root.standardizedFileURL.path + "/"
            return path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
        }
        throw fail("`\(reference)`: no finished run of experiment `\(name)` in \(folder.path); "
                   + "train it first (screenlab train Experiments/\(name).yaml) or give a .slw path")
    }

    /// Replaces a `run:NAME` init in `config` by that run's weights file, as `train` and
    /// `bench train` both need; returns the path when it did.
    static func resolve(in config: inout ExperimentConfig, runs: URL, root: URL, file: String) throws -> String? {
        guard let reference = config.initWeights, let weights = try resolve(reference, runs: runs, root: root, file: file) else { return nil }
        config.initWeights = weights
        return weights
    }

    /// The same for a `run:NAME` distillation teacher.
    static func resolveTeacher(in config: inout ExperimentConfig, runs: URL, root: URL, file: String) throws -> String? {
        guard let reference = config.distill?.teacher,
              let weights = try resolve(reference, runs: runs, root: root, file: file, key: "distill.teacher") else { return nil }
        config.distill?.teacher = weights
        return weights
    }

    private static func isFinished(_ run: RunFolder) -> Bool {
        guard let data = try? Data(contentsOf: run.summaryFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["status"] as? String == "finished"
    }
}
