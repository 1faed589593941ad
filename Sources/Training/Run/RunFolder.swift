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
        // `--runs /dev/null` (or a file) gave a raw Cocoa error: say what is there and what to give.
        for folder in [experimentFolder.deletingLastPathComponent(), experimentFolder] {
            let kind = FileKind.of(folder.resolvingSymlinksInPath().path)
            guard kind == .missing || kind == .directory else {
                throw CheckpointError(folder: folder.path, reason: "it is \(kind), not a folder; give --runs a folder (new or existing)")
            }
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CheckpointError(folder: url.path, reason: "cannot create the run folder: \(AtomicFile.plainReason(error))")
        }
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
        // Every run folder gets overrides.txt at its start (empty without --set): a missing one
        // would resume silently without the run's overrides, training a different config.
        guard let overridesText = try? String(contentsOf: overridesFile, encoding: .utf8) else {
            throw CheckpointError(folder: url.path, reason: "overrides.txt is missing or unreadable, so the run's --set overrides are unknown; "
                                  + "restore it (one KEY=VALUE per line; an empty file if the run had none) and resume again")
        }
        return (text, overridesText.split(separator: "\n").map(String.init))
    }

    /// Takes `.lock` in the folder until the returned lock is released. flock: the kernel
    /// releases it when the process ends, even on kill -9, so a stale lock never blocks. Two
    /// `--resume` of one folder would otherwise both train and overwrite each other's checkpoints.
    func lock() throws -> RunFolderLock {
        let path = url.appendingPathComponent(".lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CheckpointError(folder: url.path, reason: "cannot open its lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(fd)
            throw CheckpointError(folder: url.path, reason: "another process\(holder.isEmpty ? "" : " (pid \(holder))") is training this run; "
                                  + "wait for it to end (or stop it), then resume")
        }
        let pid = Data("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, pid.count, 0) }
        return RunFolderLock(fd: fd)
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
        if let ranks = state.ranks { object["ranks"] = ranks }
        if let hosts = state.hosts { object["hosts"] = hosts }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(data, to: statusFile)
    }
}

/// The held lock of a run folder (`RunFolder.lock()`), released by `release()` or when it goes away.
final class RunFolderLock {
    private var fd: Int32
    init(fd: Int32) { self.fd = fd }
    func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }
    deinit { release() }
}
