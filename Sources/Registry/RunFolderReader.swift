import Foundation
import Support
import Weights

/// Reads a run folder (`Experiments/runs/NAME/RUN_ID/`) into registry records: `runs import`,
/// and the trainer's final write (which reads back the summary.json it has just written, so a
/// trained run and an imported one give the same rows).
///
/// Needs metrics.csv and config.resolved.yaml; summary.json (a run that reached its reports)
/// or status.json (one that stopped earlier) for the status.
public enum RunFolderReader {
    public static func isRunFolder(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("config.resolved.yaml").path)
            && FileManager.default.fileExists(atPath: folder.appendingPathComponent("experiment.yaml").path)
    }

    /// Run folders at or below `folder` (a run folder, an experiment's folder, or
    /// `Experiments/runs`): two levels down at most, since runs sit at runs/NAME/RUN_ID.
    public static func runFolders(under folder: URL, depth: Int = 2) throws -> [URL] {
        let folder = folder.standardizedFileURL
        if isRunFolder(folder) { return [folder] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RegistryError.badRunFolder(folder: folder.path, reason: "no such folder; give a run folder or Experiments/runs")
        }
        guard depth > 0 else { return [] }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var found: [URL] = []
        for name in children.sorted() where !name.hasPrefix(".") {
            let child = folder.appendingPathComponent(name)
            var childIsDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &childIsDirectory), childIsDirectory.boolValue else { continue }
            found += try runFolders(under: child, depth: depth - 1)
        }
        return found
    }

    /// `summary`/`epochs`: the trainer's own values in memory, used instead of summary.json and
    /// metrics.csv, whose text rounds them (metrics.csv keeps 6 decimals), so the registry holds
    /// exactly the numbers the run computed.
    public static func read(_ folder: URL, summary given: [String: Any]? = nil, epochs exact: [EpochRecord]? = nil) throws -> RunResults {
        let folder = folder.standardizedFileURL
        guard isRunFolder(folder) else {
            throw RegistryError.badRunFolder(folder: folder.path, reason: "not a run folder (no experiment.yaml and config.resolved.yaml); give a folder `screenlab train` printed")
        }
        let configText = try text(folder, "config.resolved.yaml")
        let config: [String: String]
        do { config = try ConfigKeys.flatten(yaml: configText, file: folder.appendingPathComponent("config.resolved.yaml").path) } catch {
            throw RegistryError.badRunFolder(folder: folder.path, reason: "\(error)")
        }
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("metrics.csv").path) else {
            throw RegistryError.badRunFolder(folder: folder.path, reason: "metrics.csv is missing (a run writes it after its first epoch); nothing to import")
        }
        let epochs = try exact ?? MetricsCSV.parse(try text(folder, "metrics.csv"), file: folder.appendingPathComponent("metrics.csv").path)
        let summary = try given ?? jsonObject(folder, "summary.json")
        let status = try jsonObject(folder, "status.json")

        var run = RunRecord(id: folder.lastPathComponent, experiment: (summary?["experiment"] as? String) ?? folder.deletingLastPathComponent().lastPathComponent,
                            status: .interrupted)
        run.runFolder = folder.path
        run.configYAML = configText
        // As the trainer describes its data (ExperimentData), so a trained and an imported run read alike.
        run.dataset = config["data.dataset"] ?? config["data.synthetic.count"].map { count in
            "synthetic(count=\(count), seed=\(config["data.synthetic.seed"] ?? "0"), screens_per_app=\(config["data.synthetic.screens_per_app"] ?? "1"))"
        }
        run.trainSplit = config["data.train"]
        run.valSplit = config["data.val"]
        run.testSplit = config["data.evaluate_test"] == "false" ? nil : config["data.test"]
        run.startedAt = startTime(ofRunID: run.id)
        run.epochsDone = epochs.map(\.epoch).max() ?? 0
        run.epochsPlanned = (summary?["epochs_planned"] as? Int) ?? (status?["epochs"] as? Int)
        run.seconds = (summary?["seconds"] as? Double) ?? (status?["seconds"] as? Double)
        run.bestValMAP50 = (summary?["best_val_map50"] as? Double) ?? (status?["best_val_map50"] as? Double)
        run.bestEpoch = summary?["best_epoch"] as? Int
        run.ranks = status?["ranks"] as? Int
        run.hosts = (status?["hosts"] as? [Any])?.compactMap { $0 as? String }
        let trainedSeconds = epochs.compactMap(\.seconds).reduce(0, +)
        let trainedImages = epochs.reduce(0.0) { $0 + ($1.imagesPerSecond ?? 0) * ($1.seconds ?? 0) }
        run.imagesPerSecond = (summary?["images_per_second"] as? Double) ?? (trainedSeconds > 0 ? trainedImages / trainedSeconds : nil)
        let statusText = (summary?["status"] as? String) ?? (status?["status"] as? String) ?? "interrupted"
        run.status = RunRecord.Status(rawValue: statusText) ?? .failed
        run.stopReason = (summary?["stop_reason"] as? String) ?? (status?["reason"] as? String)
        if run.status == .running {
            // A folder saying "running" without a live trainer is a run that was killed; the pid
            // in its id is its first process (a resumed session has another, and is then
            // recorded by that session itself).
            let pid = Int(run.id.split(separator: "-").dropFirst(2).first ?? "")
            run.host = RunRegistry.hostName
            run.pid = pid
            if pid.map(RunRegistry.processIsAlive) != true {
                run.status = .interrupted
                run.stopReason = "imported while its status.json said running, with no training process; continue with `screenlab train --resume \(folder.path)`"
            }
        }
        if run.status != .running {
            run.finishedAt = modificationTime(of: folder.appendingPathComponent(summary != nil ? "summary.json" : "status.json"))
        }

        var results = RunResults(run: run, epochs: epochs)
        if let summary { try readFinal(summary, folder: folder, into: &results) }
        results.artifacts = artifacts(in: folder)
        try checkRanges(results, folder: folder)
        return results
    }

    /// Means, per-class results and thresholds from summary.json.
    static func readFinal(_ summary: [String: Any], folder: URL, into results: inout RunResults) throws {
        func means(_ split: [String: Any]?) -> RunRecord.SplitMeans {
            .init(map50: split?["map50"] as? Double, mapCenter: split?["map_center"] as? Double, weightedMAP50: split?["weighted_map50"] as? Double)
        }
        let val = summary["val"] as? [String: Any], test = summary["test"] as? [String: Any]
        results.run.val = means(val)
        results.run.test = means(test)
        let thresholds = summary["thresholds"] as? [String: Any]
        let strategy = thresholds?["strategy"] as? String ?? "max-f1"
        let picked = (thresholds?["classes"] as? [[String: Any]]) ?? []
        let pickedAt = results.run.finishedAt ?? RunRegistry.timestamp()
        results.thresholds = picked.enumerated().map { index, c in
            ThresholdRecord(classIndex: index, className: c["name"] as? String ?? "class \(index)", confidence: c["confidence"] as? Double,
                            precision: c["precision"] as? Double, recall: c["recall"] as? Double, f1: c["f1"] as? Double,
                            strategy: strategy, pickedOn: thresholds?["picked_on"] as? String, pickedAt: pickedAt)
        }
        let confidence = Dictionary(results.thresholds.map { ($0.className, $0) }, uniquingKeysWith: { a, _ in a })
        for (name, split) in [(results.run.valSplit ?? "val", val), (results.run.testSplit ?? "test", test)] {
            guard let split else { continue }
            guard let classes = split["classes"] as? [[String: Any]] else {
                throw RegistryError.badRunFolder(folder: folder.path, reason: "summary.json: '\(name)' has no per-class results (classes)")
            }
            for (index, c) in classes.enumerated() {
                let className = c["name"] as? String ?? "class \(index)"
                let pick = confidence[className]
                // On the pick split the report was made without thresholds: P/R/F1 are the pick's.
                let onPickSplit = c["precision"] as? Double == nil
                results.classResults.append(ClassResultRecord(
                    split: name, classIndex: index, className: className, groundTruth: c["ground_truth"] as? Int ?? 0,
                    ap50: c["ap50"] as? Double, apCenter: c["ap_center"] as? Double, threshold: pick?.confidence,
                    precision: onPickSplit ? pick?.precision : c["precision"] as? Double,
                    recall: onPickSplit ? pick?.recall : c["recall"] as? Double, f1: onPickSplit ? pick?.f1 : c["f1"] as? Double))
            }
        }
        if let weights = summary["weights"] as? String, let header = try? WeightsFile.read(contentsOf: URL(fileURLWithPath: weights)).header {
            results.run.gitCommit = header.provenance.gitCommit
        }
    }

    /// The files a run leaves that a user opens: reports, weights, thresholds, summary, plots.
    static func artifacts(in folder: URL) -> [ArtifactRecord] {
        let candidates: [(String, String, String)] = [
            ("report", "val", "reports/val"), ("report", "test", "reports/test"), ("weights", "model", "model.slw"),
            ("thresholds", "thresholds", "thresholds.yaml"), ("summary", "summary", "summary.json"), ("metrics", "metrics", "metrics.csv"),
            ("config", "resolved", "config.resolved.yaml"), ("plot", "loss", "plots/loss.svg"), ("plot", "map", "plots/map.svg"),
            ("preview", "test", "predictions-test.png"), ("checkpoint", "best", "checkpoints/best"), ("checkpoint", "last", "checkpoints/last"),
        ]
        let fixed = candidates.compactMap { kind, name, relative in
            let url = folder.appendingPathComponent(relative)
            return FileManager.default.fileExists(atPath: url.path) ? ArtifactRecord(kind: kind, name: name, path: url.path) : nil
        }
        // Thresholds saved from `screenlab serve` (picked/STAMP/), so a re-import keeps them.
        let picked = folder.appendingPathComponent("picked")
        let stamps = ((try? FileManager.default.contentsOfDirectory(atPath: picked.path)) ?? []).sorted()
        return fixed + stamps.flatMap { stamp -> [ArtifactRecord] in
            [("picked-weights", "model.slw"), ("picked-thresholds", "thresholds.yaml")].compactMap { kind, file in
                let url = picked.appendingPathComponent(stamp).appendingPathComponent(file)
                return FileKind.of(url.path) == .regularFile ? ArtifactRecord(kind: kind, name: stamp, path: url.path) : nil
            }
        }
    }

    /// Run ids start with the UTC time they were made (`20261124-043031-29949`).
    static func startTime(ofRunID id: String) -> String? {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.date(from: String(id.prefix(15))).map { RunRegistry.timestamp($0) }
    }

    static func modificationTime(of url: URL) -> String? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date).map { RunRegistry.timestamp($0) }
    }

    static func text(_ folder: URL, _ name: String) throws -> String {
        do { return try ReadableFile.text(of: folder.appendingPathComponent(name), maximumBytes: 64 << 20) } catch {
            throw RegistryError.badRunFolder(folder: folder.path, reason: "\(name): \(error)")
        }
    }

    static func jsonObject(_ folder: URL, _ name: String) throws -> [String: Any]? {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = Data(try text(folder, name).utf8)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw RegistryError.badRunFolder(folder: folder.path, reason: "\(name) is not a JSON object; re-run or remove the file")
        }
        return object
    }
}

extension RunFolderReader {
    /// The numbers an import would write, held to the ranges the registry reads them back in
    /// (`RegistryRanges`): a summary.json saying `"seconds": 1e308` imported with exit 0 and made
    /// every later `runs list` fail.
    static func checkRanges(_ results: RunResults, folder: URL) throws {
        func check(_ value: Double?, _ range: ClosedRange<Double>, _ name: String) throws {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw RegistryError.badRunFolder(folder: folder.path, reason: "\(name) is \(value), outside \(range.lowerBound)…\(range.upperBound); fix or remove the file, then import again")
            }
        }
        let run = results.run
        try check(run.seconds, RegistryRanges.seconds, "summary seconds")
        try check(run.imagesPerSecond, RegistryRanges.imagesPerSecond, "images_per_second")
        for (name, value) in [("best_val_map50", run.bestValMAP50), ("val map50", run.val.map50), ("test map50", run.test.map50)] {
            try check(value, 0...1, name)
        }
        for (name, value) in [("epochs_planned", run.epochsPlanned), ("best_epoch", run.bestEpoch)] {
            try check(value.map(Double.init), Double(RegistryRanges.epochs.lowerBound)...Double(RegistryRanges.epochs.upperBound), name)
        }
        for epoch in results.epochs {
            let at = "metrics.csv epoch \(epoch.epoch)"
            try check(Double(epoch.epoch), 0...Double(RegistryRanges.epochs.upperBound), "\(at): epoch")
            try check(epoch.learningRate, RegistryRanges.learningRate, "\(at): lr")
            try check(epoch.seconds, RegistryRanges.seconds, "\(at): seconds")
            try check(epoch.imagesPerSecond, RegistryRanges.imagesPerSecond, "\(at): images_per_second")
            try check(epoch.valMAP50, 0...1, "\(at): val_map50")
            try check(epoch.valMAPCenter, 0...1, "\(at): val_map_center")
            for (term, value) in epoch.losses where !value.isNaN { try check(value, RegistryRanges.loss, "\(at): loss_\(term)") }
        }
    }
}

/// `metrics.csv` as the trainer writes it (`MetricsLog.csv`): columns found by header name.
public enum MetricsCSV {
    public static func parse(_ text: String, file: String) throws -> [EpochRecord] {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init), header.first == "epoch" else {
            throw RegistryError.badRunFolder(folder: file, reason: "not a ScreenLab metrics.csv (its first column must be 'epoch')")
        }
        return try lines.dropFirst().enumerated().map { index, line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count, let epoch = Int(fields[0]) else {
                throw RegistryError.badRunFolder(folder: file, reason: "line \(index + 2): expected \(header.count) fields starting with the epoch number")
            }
            var values: [String: Double] = [:]
            for (name, field) in zip(header, fields) where !field.isEmpty { values[name] = Double(field) }
            var losses: [String: Double] = [:]
            for name in header where name.hasPrefix("loss_") { losses[String(name.dropFirst(5))] = values[name] }
            return EpochRecord(epoch: epoch, losses: losses, learningRate: values["lr"], valMAP50: values["val_map50"],
                               valMAPCenter: values["val_map_center"], imagesPerSecond: values["images_per_second"], seconds: values["seconds"])
        }
    }
}
