import Augment
import Data
import Detection
import Dispatch
import Distributed
import Evaluation
import Foundation
import Imaging
import Kernels
import NN
import Support
import Tensor
import Weights

/// Runs one experiment from its config to its reports: `screenlab train`.
///
/// Resume is exact: a checkpoint holds the weights (with batch-norm statistics), the optimizer
/// and EMA state and the run's position; the loader is a pure function of (seed, epoch, batch)
/// and the step reads no other randomness, so continuing from a checkpoint replays exactly the
/// steps an uninterrupted run would take (same seed, same thread count).
public final class Trainer {
    public struct Options {
        /// `Experiments/runs` of the checkout by default.
        public var runsFolder: URL?
        /// Rendered synthetic datasets (`Experiments/cache`).
        public var cacheFolder: URL?
        public var showProgress = true
        public var log: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        /// Stop after this many optimizer steps, as if killed (tests of resume).
        public var stopAfterSteps: Int?
        /// Tests of kill -9: after this many steps the process writes `paused` in the run folder and
        /// sleeps until killed (`SCREENLAB_TEST_PAUSE_AFTER_STEPS` sets it for `screenlab train`).
        public var pauseAfterSteps: Int?
        /// The run registry (SQLite) the run is recorded in as it goes; nil records nothing (tests).
        public var registryFile: URL?
        /// The ranks of an `mpirun` job training this one run; nil (or one rank) trains in this process alone.
        /// Rank 0 owns the run: it alone writes the run folder, checkpoints, reports and registry row.
        public var communicator: Communicator?
        public init() {}
    }

    public let config: ExperimentConfig
    public let run: RunFolder
    let options: Options
    let repositoryRoot: URL
    let setup: TrainingSetup
    var state: RunState
    var metrics = MetricsLog()
    private var trafficAtEpochStart = CollectiveTraffic()
    private let interruption = InterruptionFlag()
    let recorder: RunRecorder

    /// A new run of the experiment in `file`, with `--set` overrides.
    public static func start(experiment file: URL, overrides: [String], options: Options = Options()) throws -> Trainer {
        let text: String
        do { text = try ReadableFile.text(of: file, maximumBytes: YAMLLimits().maximumBytes) } catch let error as FileReadError {
            throw ExperimentConfigError(file: file.relativePath, line: nil, key: nil, message: error.reason + " (experiments are Experiments/*.yaml files)")
        }
        var config = try ExperimentConfig.parse(yaml: text, file: file.relativePath, overrides: overrides)
        let root = DatasetConfig.repoRoot(containing: file)
        let runs = options.runsFolder ?? root.appendingPathComponent("Experiments/runs")
        var overrides = overrides
        let reference = config.initWeights
        if let weights = try InitReference.resolve(in: &config, runs: runs, root: root, file: file.relativePath) {
            options.log("init \(reference ?? "") is \(weights)")
            overrides.append("init=\(weights)")
        }
        let teacherReference = config.distill?.teacher
        if let weights = try InitReference.resolveTeacher(in: &config, runs: runs, root: root, file: file.relativePath) {
            options.log("distill.teacher \(teacherReference ?? "") is \(weights)")
            overrides.append("distill.teacher=\(weights)")
        }
        let run: RunFolder
        if let communicator = options.communicator, communicator.size > 1 {
            // Rank 0 makes the folder (its name holds rank 0's time and pid); the others learn where it is.
            var path: [UInt8] = []
            if communicator.isRoot {
                path = Array(try RunFolder.create(in: runs.appendingPathComponent(config.name), experimentText: text, overrides: overrides,
                                                  config: config).url.path.utf8)
            }
            run = RunFolder(url: URL(fileURLWithPath: String(decoding: try communicator.broadcast(path, from: 0), as: UTF8.self)))
        } else {
            run = try RunFolder.create(in: runs.appendingPathComponent(config.name), experimentText: text, overrides: overrides, config: config)
        }
        do {
            return try Trainer(config: config, run: run, root: root, checkpoint: nil, options: options)
        } catch {
            // Nothing was trained (bad data, an unloadable init): a folder holding only the config
            // would be an orphan run that `runs import` and resume trip over.
            if options.communicator?.isRoot ?? true { try? FileManager.default.removeItem(at: run.url) }
            throw error
        }
    }

    /// Continues the run in `folder` from its last checkpoint, with the config it started with.
    public static func resume(_ folder: URL, options: Options = Options()) throws -> Trainer {
        let run = RunFolder(url: folder)
        let (text, overrides) = try run.readExperiment()
        let config = try ExperimentConfig.parse(
            yaml: text, file: run.experimentFile.relativePath, overrides: overrides, defaultName: try run.startedName())
        let checkpoint = try Checkpoint.read(from: run.lastCheckpoint)
        let root = DatasetConfig.repoRoot(containing: folder.appendingPathComponent("x"))
        return try Trainer(config: config, run: run, root: root, checkpoint: checkpoint, options: options)
    }

    init(config: ExperimentConfig, run: RunFolder, root: URL, checkpoint: Checkpoint?, options: Options) throws {
        var options = options
        let communicator = options.communicator.flatMap { $0.size > 1 ? $0 : nil }
        if let communicator, !communicator.isRoot {
            // Rank 0 speaks for the run; the other ranks' errors still reach the terminal (the CLI prints them).
            options.log = { _ in }
            options.showProgress = false
            options.registryFile = nil
        }
        self.config = config
        self.run = run
        self.options = options
        repositoryRoot = root
        recorder = try RunRecorder(options: options)
        Parallel.threadCount = config.threads
        // Rank 0 loads the data first: it renders synthetic screens into the shared cache once, which
        // the others then read instead of rendering the same folder at the same time.
        if let communicator, !communicator.isRoot { try communicator.quietBarrier() }
        setup = try TrainingSetup(config: config, repositoryRoot: root,
                                  cacheFolder: options.cacheFolder ?? root.appendingPathComponent("Experiments/cache"),
                                  communicator: communicator, showProgress: options.showProgress, log: options.log)
        if let communicator, communicator.isRoot { try communicator.quietBarrier() }
        state = RunState(totalEpochs: config.epochs, stepsPerEpoch: setup.loader.batchCount(epoch: 0))
        if let budget = config.budgetSetAside, checkpoint == nil {
            options.log("--set epochs=\(config.epochs): \(config.epochs) epoch\(config.epochs == 1 ? "" : "s"); the experiment's budget (\(ProgressLine.clock(budget))) "
                        + "is set aside (add --set budget=… to fit the epochs to a budget instead)")
        }
        if let checkpoint {
            // A run started with the budget in force (before `--set epochs` set it aside) keeps its fitted count.
            let budgeted = config.budgetSeconds != nil || config.budgetSetAside != nil
            try checkpoint.validateForResume(batchCount: setup.loader.batchCount(epoch:), configuredEpochs: config.epochs, budgeted: budgeted,
                                          file: run.lastCheckpoint.appendingPathComponent("state.json").path)
            try setup.restore(from: checkpoint)
            state = checkpoint.state
            state.status = .running
            state.stopReason = nil
            metrics.rows = []
            checkpoint.metrics.forEach { metrics.append($0) }
            options.log("resuming \(run.url.path) at epoch \(state.epoch + 1), batch \(state.batch) (step \(state.step))")
        }
        let ranks = setup.parallel?.ranks ?? 1
        if let checkpoint, (checkpoint.state.ranks ?? 1) != ranks {
            options.log("warning: this run trained on \(checkpoint.state.ranks ?? 1) process(es) and resumes on \(ranks): it continues, "
                        + "but not bit for bit as it would have with \(checkpoint.state.ranks ?? 1) (batch norm sees other image groups, sums another order)")
        }
        state.ranks = ranks > 1 ? ranks : nil
        state.hosts = ranks > 1 ? communicator?.hosts : nil
        if let parallel = setup.parallel {
            try parallel.checkSameStart(try fingerprint())
            options.log("data parallel: \(parallel.ranks) processes on \(communicator!.distinctHosts.joined(separator: ", ")), "
                        + "\(config.batchSize / parallel.ranks) images each of every batch of \(config.batchSize)")
        }
    }

    /// What every rank must agree on before the first step: the weights, the position and the data.
    private func fingerprint() throws -> String {
        var hash = FNV1a()
        for (_, tensor) in setup.model.stateTensors() { tensor.withUnsafeBufferPointer { hash.mix(UnsafeRawBufferPointer($0)) } }
        hash.mix("\(state.step) \(state.epoch) \(state.batch) \(state.stepsPerEpoch) \(setup.classes) \(setup.source.count) \(setup.data.description)".utf8)
        return String(format: "%016llx", hash.value) + " at step \(state.step), \(state.stepsPerEpoch) batches an epoch, \(setup.source.count) training images"
    }

    /// Rank 0 (or the only process) writes the run folder and the registry; the others only train.
    var ownsRun: Bool { setup.parallel?.isRoot ?? true }

    /// Trains to the end (or the budget), then writes the reports; returns the summary.
    @discardableResult
    public func train() throws -> RunSummary {
        // One process trains a run folder at a time (two `--resume` of one folder both trained).
        let lock = ownsRun ? try run.lock() : nil
        defer { lock?.release() }
        interruption.install()
        defer { interruption.uninstall() }
        if ownsRun { try setup.writeRunFiles(to: run, state: state) }
        recorder.started(self)
        do {
            if !state.isFinishedTraining {
                try Conv2dKernel.withDenseKernels(config.denseKernels) { try trainEpochs() }
            }
        } catch let error as TrainingError {
            markFailed("\(error)")
            throw error
        } catch {
            markFailed("\(error)")
            throw error
        }
        if state.status == .interrupted {
            recorder.stopped(.interrupted, reason: state.stopReason)
            return try RunSummary.partial(config: config, run: run, state: state)
        }
        guard ownsRun else {
            // Rank 0 predicts and writes the reports alone; wait for it without taking a core.
            try setup.parallel?.communicator.quietBarrier()
            return try RunSummary.partial(config: config, run: run, state: state)
        }
        let summary: RunSummary
        do { summary = try RunReports(trainer: self).write() } catch {
            markFailed("\(error)")
            throw error
        }
        recorder.finished(self, summary: summary)
        try setup.parallel?.communicator.quietBarrier()
        return summary
    }

    /// status.json and the registry say failed together (status.json stayed `running` when the
    /// reports or anything outside the epoch loop failed).
    private func markFailed(_ reason: String) {
        state.status = .failed
        state.stopReason = reason
        if ownsRun { try? run.writeStatus(state) }
        recorder.stopped(.failed, reason: reason)
    }

    private func trainEpochs() throws {
        let schedule = { [config, state] (total: Int) -> WarmupSchedule in
            WarmupSchedule(baseRate: Float(config.optimizer.learningRate),
                           warmupSteps: Int((config.schedule.warmupEpochs * Double(state.stepsPerEpoch)).rounded()),
                           totalSteps: total * state.stepsPerEpoch, decay: config.schedule.cosine ? .cosine : .linear,
                           finalFactor: Float(config.schedule.finalFactor), warmupStartFactor: Float(config.schedule.warmupStartFactor))
        }
        var lrSchedule = schedule(state.totalEpochs)
        let stream = try setup.loader.batches(fromEpoch: state.epoch, startingAtBatch: state.batch)
        defer { stream.cancel() }
        var stepsThisSession = 0
        var wall = Stopwatch()
        while !state.isFinishedTraining {
            let epoch = state.epoch
            let batches = setup.loader.batchCount(epoch: epoch)
            if let closing = setup.loader.closing, epoch == closing.fromEpoch, state.batch == 0 {
                options.log("epoch \(epoch + 1): mosaic, mixup and copy-paste off for the last \(state.totalEpochs - epoch) epochs (close_mosaic)")
            }
            let progress = ProgressLine("epoch \(epoch + 1)/\(state.totalEpochs)", total: batches, unit: "batches", enabled: options.showProgress)
            progress.resume(at: state.batch)
            while state.batch < batches {
                let clock = Stopwatch()
                guard let (streamEpoch, index, batch) = try stream.next() else { break }
                precondition(streamEpoch == epoch && index == state.batch, "loader out of step with the run state")
                let rate = lrSchedule.learningRate(atStep: state.step)
                setup.optimizer.learningRate = rate
                let result = try setup.step(batch, epoch: epoch, step: state.step)
                for failure in setup.source.newFailures() {
                    options.log("warning: skipped unreadable image \(failure.file) (\(failure.reason)); it trains as a blank screen")
                }
                state.step += 1
                state.batch += 1
                stepsThisSession += 1
                let seconds = clock.seconds
                state.elapsedSeconds += seconds
                state.epochSeconds += seconds
                state.epochSteps += 1
                for (name, value) in result.terms { state.epochLossSums[name, default: 0] += Double(value) }
                let imagesPerSecond = Double(batch.images.shape[0]) / max(seconds, 1e-9)
                progress.advance(detail: result.terms.map { "\($0.name) \(String(format: "%.3f", $0.value))" }.joined(separator: " ")
                    + String(format: " · lr %.2g · %.1f img/s", rate, imagesPerSecond))
                if let pause = options.pauseAfterSteps, stepsThisSession == pause {
                    if ownsRun { try AtomicFile.write("step \(state.step)\n", to: run.url.appendingPathComponent("paused")) }
                    while true { sleep(60) }
                }
                if let stop = options.stopAfterSteps, stepsThisSession >= stop {
                    progress.finish()
                    state.status = .interrupted
                    state.stopReason = "stopped after \(stop) steps (test)"
                    return
                }
                // Every rank stops at the same step when any saw the signal.
                if try setup.parallel.map({ try $0.communicator.any(interruption.isSet) }) ?? interruption.isSet {
                    progress.finish(detail: "interrupted")
                    state.wallSeconds += wall.lap()
                    try saveCheckpoint(best: false)
                    state.status = .interrupted
                    state.stopReason = "interrupted by a signal; continue with --resume \(run.url.path)"
                    if ownsRun { try run.writeStatus(state) }
                    options.log(state.stopReason!)
                    return
                }
            }
            progress.finish()
            try finishEpoch(epoch, learningRate: Double(setup.optimizer.learningRate))
            state.wallSeconds += wall.lap()
            if let budget = config.budgetSeconds {
                let perEpoch = state.wallSeconds / Double(state.epoch)
                // The final reports predict val and test and draw the preview: about three validations.
                let reserve = 3 * state.lastValidationSeconds
                if epoch == 0 {
                    // Ultralytics' `time=`: the epoch count follows the budget; fixed from here on and
                    // checkpointed, so the schedule (and a resumed run) stays the same.
                    state.totalEpochs = max(1, Int((budget - reserve) / perEpoch))
                    lrSchedule = schedule(state.totalEpochs)
                    options.log(String(format: "budget %@: %.0f s per epoch with validation, %.0f s kept for the reports → %d epochs",
                                       ProgressLine.clock(budget), perEpoch, reserve, state.totalEpochs))
                } else if state.wallSeconds + perEpoch + reserve > budget * 1.02, !state.isFinishedTraining {
                    // A slower machine than epoch 1 measured: stop rather than run over.
                    state.stopReason = "time budget reached after \(state.epoch) of \(state.totalEpochs) epochs"
                    options.log(state.stopReason!)
                    state.totalEpochs = state.epoch
                }
                // Rank 0's clock decides for every rank.
                if let communicator = setup.parallel?.communicator { state.totalEpochs = try communicator.agree(on: state.totalEpochs) }
                try saveCheckpoint(best: false)
            }
        }
    }

    /// Epoch bookkeeping: validation (EMA weights), a metrics row, the last and best checkpoints.
    private func finishEpoch(_ epoch: Int, learningRate: Double) throws {
        let isLast = epoch + 1 >= state.totalEpochs
        var valMAP: Double?, valCenter: Double?
        if (epoch + 1) % config.validationInterval == 0 || isLast {
            let clock = Stopwatch()
            let result = try setup.validate(showProgress: options.showProgress)
            state.lastValidationSeconds = clock.seconds
            valMAP = result.map50
            valCenter = result.mapCenter
        }
        let losses = state.epochLossSums.mapValues { $0 / Double(max(state.epochSteps, 1)) }
        let images = Double(state.epochSteps * config.batchSize)
        var collectives = ""
        if let communicator = setup.parallel?.communicator {
            // Rank 0's time in collectives includes waiting for the slowest rank; validation's gather is in it too.
            let traffic = communicator.traffic, steps = Double(max(state.epochSteps, 1))
            collectives = String(format: ", collectives %.1f ms and %.2f MB sent a step", (traffic.seconds - trafficAtEpochStart.seconds) * 1000 / steps,
                                 Double(traffic.bytesSent - trafficAtEpochStart.bytesSent) / 1e6 / steps)
            trafficAtEpochStart = traffic
        }
        metrics.append(.init(epoch: epoch, losses: losses, learningRate: learningRate, valMAP50: valMAP, valMAPCenter: valCenter,
                             imagesPerSecond: images / max(state.epochSeconds, 1e-9), seconds: state.epochSeconds))
        recorder.epochFinished(metrics.rows[metrics.rows.count - 1])
        options.log(String(format: "epoch %d/%d: ", epoch + 1, state.totalEpochs)
            + losses.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.4f", $0.value))" }.joined(separator: ", ")
            + (valMAP.map { String(format: ", val mAP@0.5 %.4f", $0) } ?? "")
            + String(format: ", %.1f img/s, %.0f s", images / max(state.epochSeconds, 1e-9), state.epochSeconds) + collectives)
        state.epoch += 1
        state.batch = 0
        state.epochLossSums = [:]
        state.epochSteps = 0
        state.epochSeconds = 0
        let improved = valMAP.map { value in state.bestValMAP50.map { value > $0 } ?? true } ?? false
        if improved {
            state.bestValMAP50 = valMAP
            state.bestEpoch = epoch
        }
        state.unreadableImages = setup.source.allFailures
        if ownsRun { try metrics.write(to: run.metricsFile) }
        try saveCheckpoint(best: improved)
    }

    func saveCheckpoint(best: Bool) throws {
        guard ownsRun else { return }
        let checkpoint = try setup.checkpoint(state: state, metrics: metrics.rows, run: run)
        try checkpoint.write(to: run.lastCheckpoint)
        if best { try checkpoint.write(to: run.bestCheckpoint) }
        try run.writeStatus(state)
    }
}

/// Set by SIGINT/SIGTERM; the loop saves a checkpoint at the next step boundary and stops, so
/// Ctrl-C loses at most one step. A second signal ends the process at once.
final class InterruptionFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return flag }

    /// Claims the process's SIGINT/SIGTERM (`SignalCleanup`): staged outputs written during
    /// training (reports) are finished or discarded by their writers as the run stops, not
    /// removed under them.
    func install() {
        SignalCleanup.claim { [weak self] _ in self?.received() }
    }

    func uninstall() {
        SignalCleanup.release()
    }

    private func received() {
        lock.lock()
        let second = flag
        flag = true
        lock.unlock()
        if second { exit(130) }
        FileHandle.standardError.write(Data("\nstopping after this step (again to stop at once)…\n".utf8))
    }
}
