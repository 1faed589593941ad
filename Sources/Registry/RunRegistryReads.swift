import Foundation
import GRDB

/// Reads for `runs list`, `runs show`, `compare` and `thresholds pick --run`.
extension RunRegistry {
    /// Runs, oldest first; either filter may be nil.
    public func runs(experiment: String? = nil, status: RunRecord.Status? = nil) throws -> [RunRecord] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM runs WHERE (?1 IS NULL OR experiment = ?1) AND (?2 IS NULL OR status = ?2) ORDER BY started_at, id
                """, arguments: [experiment, status?.rawValue]).map(Self.run(from:))
        }
    }

    /// The run with this id; a text that is part of exactly one id also names it (ids are long:
    /// `20261124-043031-29949`, and the pid suffix alone is usually enough).
    public func run(_ id: String) throws -> RunRecord {
        try read { db in
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM runs WHERE id = ?", arguments: [id]) { return Self.run(from: row) }
            let matches = try Row.fetchAll(db, sql: "SELECT * FROM runs WHERE instr(id, ?) > 0 ORDER BY id", arguments: [id])
            if matches.count == 1 { return Self.run(from: matches[0]) }
            throw RegistryError.unknownRun(file: file.path, id: id, suggestions: matches.prefix(5).map { $0["id"] })
        }
    }

    /// The run whose folder is `folder` (absolute, as recorded), if any.
    public func run(inFolder folder: URL) throws -> RunRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM runs WHERE run_folder = ?", arguments: [folder.standardizedFileURL.path]).map(Self.run(from:))
        }
    }

    public func epochs(of runID: String) throws -> [EpochRecord] {
        try read { db in
            let losses = try Row.fetchAll(db, sql: "SELECT epoch, term, value FROM epoch_losses WHERE run_id = ?", arguments: [runID])
            var byEpoch: [Int: [String: Double]] = [:]
            for row in losses { byEpoch[row["epoch"], default: [:]][row["term"]] = (row["value"] as Double?) ?? .nan }
            return try Row.fetchAll(db, sql: "SELECT * FROM epochs WHERE run_id = ? ORDER BY epoch", arguments: [runID]).map { row in
                let epoch: Int = row["epoch"]
                return EpochRecord(epoch: epoch, losses: byEpoch[epoch] ?? [:], learningRate: row["lr"], valMAP50: row["val_map50"],
                                   valMAPCenter: row["val_map_center"], imagesPerSecond: row["images_per_second"], seconds: row["seconds"])
            }
        }
    }

    public func classResults(of runID: String) throws -> [ClassResultRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM class_results WHERE run_id = ? ORDER BY split DESC, class_index", arguments: [runID]).map { row in
                ClassResultRecord(split: row["split"], classIndex: row["class_index"], className: row["class_name"], groundTruth: row["ground_truth"],
                                  ap50: row["ap50"], apCenter: row["ap_center"], threshold: row["threshold"], precision: row["precision"],
                                  recall: row["recall"], f1: row["f1"])
            }
        }
    }

    public func thresholds(of runID: String) throws -> [ThresholdRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM thresholds WHERE run_id = ? ORDER BY class_index", arguments: [runID]).map { row in
                ThresholdRecord(classIndex: row["class_index"], className: row["class_name"], confidence: row["confidence"], precision: row["precision"],
                                recall: row["recall"], f1: row["f1"], strategy: row["strategy"], pickedOn: row["picked_on"], pickedAt: row["picked_at"])
            }
        }
    }

    public func artifacts(of runID: String) throws -> [ArtifactRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM artifacts WHERE run_id = ? ORDER BY kind, name", arguments: [runID]).map {
                ArtifactRecord(kind: $0["kind"], name: $0["name"], path: $0["path"])
            }
        }
    }

    /// Everything about one run (`runs show`, `compare`).
    public func details(_ id: String) throws -> RunResults {
        let run = try run(id)
        return RunResults(run: run, epochs: try epochs(of: run.id), classResults: try classResults(of: run.id),
                          thresholds: try thresholds(of: run.id), artifacts: try artifacts(of: run.id))
    }

    static func run(from row: Row) -> RunRecord {
        var run = RunRecord(id: row["id"], experiment: row["experiment"], status: RunRecord.Status(rawValue: row["status"]) ?? .failed)
        run.stopReason = row["stop_reason"]
        run.runFolder = row["run_folder"]
        run.configYAML = row["config_yaml"]
        run.gitCommit = row["git_commit"]
        run.dataset = row["dataset"]
        run.trainSplit = row["train_split"]
        run.valSplit = row["val_split"]
        run.testSplit = row["test_split"]
        run.startedAt = row["started_at"]
        run.finishedAt = row["finished_at"]
        run.host = row["host"]
        run.pid = row["pid"]
        run.epochsPlanned = row["epochs_planned"]
        run.epochsDone = row["epochs_done"] ?? 0
        run.bestEpoch = row["best_epoch"]
        run.bestValMAP50 = row["best_val_map50"]
        run.val = .init(map50: row["val_map50"], mapCenter: row["val_map_center"], weightedMAP50: row["val_weighted_map50"])
        run.test = .init(map50: row["test_map50"], mapCenter: row["test_map_center"], weightedMAP50: row["test_weighted_map50"])
        run.imagesPerSecond = row["images_per_second"]
        run.seconds = row["seconds"]
        return run
    }
}
