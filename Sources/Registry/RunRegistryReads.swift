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
            throw RegistryError.unknownRun(file: file.path, id: id, suggestions: matches.prefix(5).map { Self.run(from: $0).id })
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
            var problems: [String] = []
            for row in losses {
                var values = CheckedRow(row, table: "epoch_losses", label: "of run \(runID)")
                if let epoch = values.int("epoch", in: RegistryRanges.epochs), let term = values.text("term") {
                    byEpoch[epoch, default: [:]][term] = values.double("value", in: RegistryRanges.loss) ?? .nan
                }
                problems += values.problems
            }
            let records = try Row.fetchAll(db, sql: "SELECT * FROM epochs WHERE run_id = ? ORDER BY epoch", arguments: [runID]).compactMap { row -> EpochRecord? in
                var values = CheckedRow(row, table: "epochs", label: "of run \(runID)")
                defer { problems += values.problems }
                guard let epoch = values.int("epoch", in: RegistryRanges.epochs) else { return nil }
                return EpochRecord(epoch: epoch, losses: byEpoch[epoch] ?? [:], learningRate: values.double("lr", in: RegistryRanges.learningRate),
                                   valMAP50: values.fraction("val_map50"), valMAPCenter: values.fraction("val_map_center"),
                                   imagesPerSecond: values.double("images_per_second", in: RegistryRanges.imagesPerSecond),
                                   seconds: values.double("seconds", in: RegistryRanges.seconds))
            }
            problems.forEach(Self.reportProblem)
            return records
        }
    }

    public func classResults(of runID: String) throws -> [ClassResultRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM class_results WHERE run_id = ? ORDER BY split DESC, class_index", arguments: [runID]).compactMap { row in
                var v = CheckedRow(row, table: "class_results", label: "of run \(runID)")
                defer { v.problems.forEach(Self.reportProblem) }
                guard let split = v.text("split"), let classIndex = v.int("class_index", in: RegistryRanges.count), let className = v.text("class_name") else { return nil }
                return ClassResultRecord(split: split, classIndex: classIndex, className: className, groundTruth: v.int("ground_truth", in: RegistryRanges.count) ?? 0,
                                         ap50: v.fraction("ap50"), apCenter: v.fraction("ap_center"), threshold: v.fraction("threshold"),
                                         precision: v.fraction("precision"), recall: v.fraction("recall"), f1: v.fraction("f1"))
            }
        }
    }

    public func thresholds(of runID: String) throws -> [ThresholdRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM thresholds WHERE run_id = ? ORDER BY class_index", arguments: [runID]).compactMap { row in
                var v = CheckedRow(row, table: "thresholds", label: "of run \(runID)")
                defer { v.problems.forEach(Self.reportProblem) }
                guard let classIndex = v.int("class_index", in: RegistryRanges.count), let className = v.text("class_name") else { return nil }
                return ThresholdRecord(classIndex: classIndex, className: className, confidence: v.fraction("confidence"), precision: v.fraction("precision"),
                                       recall: v.fraction("recall"), f1: v.fraction("f1"), strategy: v.text("strategy") ?? "?",
                                       pickedOn: v.text("picked_on"), pickedAt: v.text("picked_at") ?? "?")
            }
        }
    }

    public func artifacts(of runID: String) throws -> [ArtifactRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM artifacts WHERE run_id = ? ORDER BY kind, name", arguments: [runID]).compactMap { row in
                var v = CheckedRow(row, table: "artifacts", label: "of run \(runID)")
                defer { v.problems.forEach(Self.reportProblem) }
                guard let kind = v.text("kind"), let name = v.text("name"), let path = v.text("path") else { return nil }
                return ArtifactRecord(kind: kind, name: name, path: path)
            }
        }
    }

    /// Everything about one run (`runs show`, `compare`).
    public func details(_ id: String) throws -> RunResults {
        let run = try run(id)
        return RunResults(run: run, epochs: try epochs(of: run.id), classResults: try classResults(of: run.id),
                          thresholds: try thresholds(of: run.id), artifacts: try artifacts(of: run.id))
    }

    /// A run's row, every value checked (`CheckedRow`); what could not be read is nil and reported.
    static func run(from row: Row) -> RunRecord {
        var v = CheckedRow(row, table: "runs", label: "row")
        let id = v.text("id") ?? "?"
        v = CheckedRow(row, table: "runs", label: id)
        var run = RunRecord(id: id, experiment: v.text("experiment") ?? "?", status: v.text("status").flatMap(RunRecord.Status.init(rawValue:)) ?? .failed)
        run.stopReason = v.text("stop_reason")
        run.runFolder = v.text("run_folder")
        run.configYAML = v.text("config_yaml")
        run.gitCommit = v.text("git_commit")
        run.dataset = v.text("dataset")
        run.trainSplit = v.text("train_split")
        run.valSplit = v.text("val_split")
        run.testSplit = v.text("test_split")
        run.startedAt = v.text("started_at")
        run.finishedAt = v.text("finished_at")
        run.host = v.text("host")
        run.pid = v.int("pid", in: RegistryRanges.pid)
        run.ranks = v.int("ranks", in: 1...65_536)
        run.hosts = v.text("hosts").map { $0.split(separator: ",").map(String.init) }
        run.epochsPlanned = v.int("epochs_planned", in: RegistryRanges.epochs)
        run.epochsDone = v.int("epochs_done", in: RegistryRanges.epochs) ?? 0
        run.bestEpoch = v.int("best_epoch", in: RegistryRanges.epochs)
        run.bestValMAP50 = v.fraction("best_val_map50")
        run.val = .init(map50: v.fraction("val_map50"), mapCenter: v.fraction("val_map_center"), weightedMAP50: v.fraction("val_weighted_map50"))
        run.test = .init(map50: v.fraction("test_map50"), mapCenter: v.fraction("test_map_center"), weightedMAP50: v.fraction("test_weighted_map50"))
        run.imagesPerSecond = v.double("images_per_second", in: RegistryRanges.imagesPerSecond)
        run.seconds = v.double("seconds", in: RegistryRanges.seconds)
        run.problems = v.problems
        v.problems.forEach(Self.reportProblem)
        return run
    }
}
