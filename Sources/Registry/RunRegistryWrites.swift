import Foundation
import GRDB
import Support

/// Writes: each public method is one transaction.
extension RunRegistry {
    /// The run row at the start of training (or of a resumed session: same row, new pid, status
    /// running, the original start time kept). `epochs` are the rows the checkpoint holds; any
    /// later epoch rows (recorded after the checkpoint the run resumes from) are dropped, since the
    /// resumed run recomputes them.
    public func startRun(_ run: RunRecord, epochs: [EpochRecord]) throws {
        try write { db in
            try Self.upsert(run, in: db)
            try db.execute(sql: "DELETE FROM epochs WHERE run_id = ? AND epoch > ?", arguments: [run.id, epochs.map(\.epoch).max() ?? 0])
            for epoch in epochs { try Self.upsert(epoch, runID: run.id, in: db) }
        }
    }

    /// One epoch's row and its loss terms, and the run's progress.
    public func recordEpoch(_ epoch: EpochRecord, runID: String) throws {
        try write { db in
            try Self.upsert(epoch, runID: runID, in: db)
            try db.execute(sql: "UPDATE runs SET epochs_done = max(epochs_done, ?), updated_at = ? WHERE id = ?",
                           arguments: [epoch.epoch, Self.timestamp(), runID])
        }
    }

    public func setStatus(_ status: RunRecord.Status, reason: String?, runID: String) throws {
        try write { db in
            let finished: String? = status == .running ? nil : Self.timestamp()
            try db.execute(sql: "UPDATE runs SET status = ?, stop_reason = ?, finished_at = coalesce(?, finished_at), updated_at = ? WHERE id = ?",
                           arguments: [status.rawValue, reason, finished, Self.timestamp(), runID])
        }
    }

    /// What `runs import` did with a folder.
    public enum ImportOutcome: Equatable {
        case added
        /// The registry had the run from this folder: its rows were replaced by the folder's.
        case updated
        /// The registry had the run from a folder that no longer exists: the run now points here.
        case moved(from: String)
    }

    /// `runs import`: records a run folder's run, unless the registry already has that run id
    /// from another folder that still exists (a copied run folder would silently take over the
    /// original's rows) — then it is refused, naming both, unless `replace` says so.
    public func importRun(_ results: RunResults, replace: Bool = false) throws -> ImportOutcome {
        let outcome: ImportOutcome
        if let existing = try? run(results.run.id) {
            let old = existing.runFolder.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
            let new = results.run.runFolder.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
            if old == nil || old == new {
                outcome = .updated
            } else if let old, FileKind.of(old) == .directory, !replace {
                throw RegistryError.badRunFolder(folder: new ?? results.run.id, reason: "run \(results.run.id) is already in the registry from \(old), "
                    + "which still exists; this folder has the same run id (a copy?). Nothing was changed; give --replace to point the run at this folder")
            } else {
                outcome = .moved(from: existing.runFolder ?? "")
            }
        } else {
            outcome = .added
        }
        try record(results)
        return outcome
    }

    /// The whole run at once (the trainer's end, `runs import`): the row, and its epochs,
    /// per-class results, thresholds and artifacts replaced. Importing a folder twice gives the
    /// same rows.
    public func record(_ results: RunResults) throws {
        try write { db in
            let id = results.run.id
            try Self.upsert(results.run, in: db)
            for table in ["epochs", "class_results", "thresholds", "artifacts"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE run_id = ?", arguments: [id])
            }
            for epoch in results.epochs { try Self.upsert(epoch, runID: id, in: db) }
            for c in results.classResults {
                try db.execute(sql: """
                    INSERT INTO class_results (run_id, split, class_index, class_name, ground_truth, ap50, ap_center, threshold, precision, recall, f1)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, c.split, c.classIndex, c.className, c.groundTruth, c.ap50, c.apCenter, c.threshold, c.precision, c.recall, c.f1])
            }
            try Self.insert(results.thresholds, runID: id, in: db)
            for a in results.artifacts { try Self.upsert(a, runID: id, in: db) }
        }
    }

    /// A new choice of thresholds (`thresholds pick --run`): replaces the run's thresholds and
    /// records the files written.
    public func recordThresholds(_ thresholds: [ThresholdRecord], artifacts: [ArtifactRecord], runID: String) throws {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM runs WHERE id = ?", arguments: [runID]) != nil else {
                throw RegistryError.unknownRun(file: file.path, id: runID, suggestions: [])
            }
            try db.execute(sql: "DELETE FROM thresholds WHERE run_id = ?", arguments: [runID])
            try Self.insert(thresholds, runID: runID, in: db)
            for a in artifacts { try Self.upsert(a, runID: runID, in: db) }
            try db.execute(sql: "UPDATE runs SET updated_at = ? WHERE id = ?", arguments: [Self.timestamp(), runID])
        }
    }

    /// Files made for a run after it ended (thresholds saved from `screenlab serve`), added beside
    /// its others; the run's own thresholds rows are left as they are.
    public func recordArtifacts(_ artifacts: [ArtifactRecord], runID: String) throws {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM runs WHERE id = ?", arguments: [runID]) != nil else {
                throw RegistryError.unknownRun(file: file.path, id: runID, suggestions: [])
            }
            for a in artifacts { try Self.upsert(a, runID: runID, in: db) }
            try db.execute(sql: "UPDATE runs SET updated_at = ? WHERE id = ?", arguments: [Self.timestamp(), runID])
        }
    }

    // MARK: Rows

    static func upsert(_ run: RunRecord, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO runs (id, experiment, status, stop_reason, run_folder, config_yaml, git_commit, dataset, train_split, val_split,
                test_split, started_at, finished_at, updated_at, host, pid, epochs_planned, epochs_done, best_epoch, best_val_map50,
                val_map50, val_map_center, val_weighted_map50, test_map50, test_map_center, test_weighted_map50, images_per_second, seconds,
                ranks, hosts)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET experiment = excluded.experiment, status = excluded.status, stop_reason = excluded.stop_reason,
                run_folder = excluded.run_folder, config_yaml = coalesce(excluded.config_yaml, runs.config_yaml),
                git_commit = coalesce(excluded.git_commit, runs.git_commit), dataset = coalesce(excluded.dataset, runs.dataset),
                train_split = excluded.train_split, val_split = excluded.val_split, test_split = excluded.test_split,
                started_at = coalesce(runs.started_at, excluded.started_at), finished_at = excluded.finished_at,
                updated_at = excluded.updated_at, host = excluded.host, pid = excluded.pid, epochs_planned = excluded.epochs_planned,
                epochs_done = excluded.epochs_done, best_epoch = excluded.best_epoch, best_val_map50 = excluded.best_val_map50,
                val_map50 = excluded.val_map50, val_map_center = excluded.val_map_center, val_weighted_map50 = excluded.val_weighted_map50,
                test_map50 = excluded.test_map50, test_map_center = excluded.test_map_center,
                test_weighted_map50 = excluded.test_weighted_map50, images_per_second = excluded.images_per_second, seconds = excluded.seconds,
                ranks = excluded.ranks, hosts = excluded.hosts
            """, arguments: [
                run.id, run.experiment, run.status.rawValue, run.stopReason, run.runFolder, run.configYAML, run.gitCommit, run.dataset,
                run.trainSplit, run.valSplit, run.testSplit, run.startedAt, run.finishedAt, timestamp(), run.host, run.pid,
                run.epochsPlanned, run.epochsDone, run.bestEpoch, run.bestValMAP50, run.val.map50, run.val.mapCenter,
                run.val.weightedMAP50, run.test.map50, run.test.mapCenter, run.test.weightedMAP50, run.imagesPerSecond, run.seconds,
                run.ranks, run.hosts?.joined(separator: ","),
            ])
    }

    static func upsert(_ epoch: EpochRecord, runID: String, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO epochs (run_id, epoch, lr, val_map50, val_map_center, images_per_second, seconds) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (run_id, epoch) DO UPDATE SET lr = excluded.lr, val_map50 = excluded.val_map50, val_map_center = excluded.val_map_center,
                images_per_second = excluded.images_per_second, seconds = excluded.seconds
            """, arguments: [runID, epoch.epoch, epoch.learningRate, epoch.valMAP50, epoch.valMAPCenter, epoch.imagesPerSecond, epoch.seconds])
        try db.execute(sql: "DELETE FROM epoch_losses WHERE run_id = ? AND epoch = ?", arguments: [runID, epoch.epoch])
        for (term, value) in epoch.losses.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT INTO epoch_losses (run_id, epoch, term, value) VALUES (?, ?, ?, ?)",
                           arguments: [runID, epoch.epoch, term, value.isFinite ? value : nil])
        }
    }

    static func insert(_ thresholds: [ThresholdRecord], runID: String, in db: Database) throws {
        for t in thresholds {
            try db.execute(sql: """
                INSERT INTO thresholds (run_id, class_index, class_name, confidence, precision, recall, f1, strategy, picked_on, picked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [runID, t.classIndex, t.className, t.confidence, t.precision, t.recall, t.f1, t.strategy, t.pickedOn, t.pickedAt])
        }
    }

    static func upsert(_ artifact: ArtifactRecord, runID: String, in db: Database) throws {
        try db.execute(sql: "INSERT INTO artifacts (run_id, kind, name, path) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, kind, name) DO UPDATE SET path = excluded.path",
                       arguments: [runID, artifact.kind, artifact.name, artifact.path])
    }
}
