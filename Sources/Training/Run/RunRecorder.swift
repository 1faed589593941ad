import Foundation
import Registry

/// The trainer's line to the run registry: the run row at the start (or, on `--resume`, the
/// same row again with the new process), a row per epoch, the results at the end, and the
/// status when a run fails or is interrupted.
///
/// Opening the registry is checked before training (a corrupt or newer database stops the run
/// with a message); a write that fails later (a lock held past the timeout) only warns: the
/// run folder holds everything, and `screenlab runs import` records it afterwards.
final class RunRecorder {
    let registry: RunRegistry?
    let log: (String) -> Void
    private var runID = ""
    private var runFolder = ""
    private var warned = false

    init(options: Trainer.Options) throws {
        registry = try options.registryFile.map { try RunRegistry(file: $0) }
        log = options.log
    }

    func started(_ trainer: Trainer) {
        guard let registry else { return }
        runID = trainer.run.id
        runFolder = trainer.run.url.standardizedFileURL.path
        let config = trainer.config
        var record = RunRecord(id: runID, experiment: config.name, status: .running)
        record.runFolder = runFolder
        record.configYAML = try? String(contentsOf: trainer.run.resolvedConfigFile, encoding: .utf8)
        record.gitCommit = GitCommit.current(in: trainer.repositoryRoot)
        record.dataset = trainer.setup.data.description
        record.trainSplit = config.data.train
        record.valSplit = config.data.val
        record.testSplit = config.data.evaluateTest ? config.data.test : nil
        record.startedAt = RunRegistry.timestamp()
        record.host = RunRegistry.hostName
        record.pid = Int(getpid())
        record.ranks = trainer.state.ranks
        record.hosts = trainer.state.hosts
        record.epochsPlanned = trainer.state.totalEpochs
        record.epochsDone = trainer.state.epoch
        record.bestValMAP50 = trainer.state.bestValMAP50
        record.bestEpoch = trainer.state.bestEpoch.map { $0 + 1 }
        attempt { try registry.startRun(record, epochs: trainer.metrics.rows.map(Self.epochRecord)) }
        log("run registry: \(registry.file.path) (`screenlab runs show \(runID)`)")
    }

    func epochFinished(_ row: MetricsLog.Row) {
        guard let registry else { return }
        attempt { try registry.recordEpoch(Self.epochRecord(row), runID: runID) }
    }

    func stopped(_ status: RunState.Status, reason: String?) {
        guard let registry, let status = RunRecord.Status(rawValue: status.rawValue) else { return }
        attempt { try registry.setStatus(status, reason: reason, runID: runID) }
    }

    /// The run folder as `runs import` reads it, with the summary and epochs from memory (exact,
    /// where the files round), plus what only the live process knows.
    func finished(_ trainer: Trainer, summary: RunSummary) {
        guard let registry else { return }
        attempt {
            var results = try RunFolderReader.read(trainer.run.url, summary: summary.object, epochs: trainer.metrics.rows.map(Self.epochRecord))
            results.run.host = RunRegistry.hostName
            results.run.pid = Int(getpid())
            try registry.record(results)
        }
    }

    static func epochRecord(_ row: MetricsLog.Row) -> EpochRecord {
        EpochRecord(epoch: row.epoch + 1, losses: row.losses, learningRate: row.learningRate, valMAP50: row.valMAP50,
                    valMAPCenter: row.valMAPCenter, imagesPerSecond: row.imagesPerSecond, seconds: row.seconds)
    }

    private func attempt(_ body: () throws -> Void) {
        do { try body() } catch {
            guard !warned else { return }
            warned = true
            log("warning: \(error) — training goes on; afterwards `screenlab runs import \(runFolder)` records this run")
        }
    }
}
