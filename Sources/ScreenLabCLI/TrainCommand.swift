import ArgumentParser
import Data
import Distributed
import Foundation
import Registry
import Training

/// `screenlab train EXPERIMENT.yaml [--set key=value ...] | --resume RUN_DIR`.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train", abstract: "Train a detector from an experiment file (Experiments/*.yaml).",
        discussion: """
        Each run gets a folder Experiments/runs/NAME/RUN_ID/ with its resolved config, metrics.csv, checkpoints, the \
        evaluator's reports on val and test, thresholds picked on val, model.slw (classes and thresholds inside), \
        plots, a picture of test predictions and summary.json. The last line printed names the folder. \
        Ctrl-C saves a checkpoint at the next step; --resume RUN_DIR continues bit for bit (same seed and threads). \
        Under Open MPI (`mpirun -np N screenlab train ...`) the N processes train one run data-parallel: each takes \
        batch/N images of every batch, gradients are summed in rank order, rank 0 writes the run (docs/distributed.md).
        """)

    @Argument(help: "Experiment file, e.g. Experiments/quickstart.yaml (not with --resume).") var experiment: String?
    @Option(name: .customLong("set"), help: "Override any config key, e.g. --set epochs=1 --set optimizer.lr=0.01 (repeatable).")
    var overrides: [String] = []
    @Option(help: "Continue the run in this folder from its last checkpoint.") var resume: String?
    @Option(help: "Where run folders go (default: Experiments/runs of this checkout).") var runs: String?
    @Option(help: "Run registry (SQLite) to record the run in (default: SCREENLAB_REGISTRY, else beside the runs folder: Experiments/runs.sqlite).")
    var registry: String?
    @Flag(help: "Do not record the run in the run registry.") var noRegistry = false
    @Flag(help: "No progress lines.") var quiet = false

    func validate() throws {
        guard (experiment == nil) != (resume == nil) else {
            throw usageError(resume == nil ? "give an experiment file, e.g. `screenlab train Experiments/quickstart.yaml`"
                                           : "give either an experiment file or --resume RUN_DIR, not both")
        }
        if resume != nil, !overrides.isEmpty {
            throw usageError("--set cannot change a resumed run (it continues with the config it started with)")
        }
    }

    /// The runs folder this run lives in: --runs, the resumed run's grandparent (RUNS/NAME/RUN_ID),
    /// or Experiments/runs of the experiment's checkout.
    var runsFolder: URL {
        if let runs { return URL(fileURLWithPath: runs) }
        if let resume { return URL(fileURLWithPath: resume).standardizedFileURL.deletingLastPathComponent().deletingLastPathComponent() }
        return DatasetConfig.repoRoot(containing: URL(fileURLWithPath: experiment ?? ".")).appendingPathComponent("Experiments/runs")
    }

    func run() throws {
        var options = Trainer.Options()
        options.showProgress = !quiet
        options.runsFolder = runs.map { URL(fileURLWithPath: $0) }
        options.pauseAfterSteps = ProcessInfo.processInfo.environment["SCREENLAB_TEST_PAUSE_AFTER_STEPS"].flatMap(Int.init)
        if !noRegistry { options.registryFile = RegistryLocation.forRuns(folder: runsFolder, flag: registry) }
        var communicator: MPICommunicator?
        do {
            if MPICommunicator.isLaunchedByMPIRun { communicator = try MPICommunicator() }
        } catch {
            throw failure("\(error)")
        }
        options.communicator = communicator
        defer { communicator?.finish() }
        let speaks = communicator?.isRoot ?? true
        do {
            let trainer: Trainer
            if let resume {
                trainer = try Trainer.resume(URL(fileURLWithPath: resume), options: options)
            } else {
                trainer = try Trainer.start(experiment: URL(fileURLWithPath: experiment!), overrides: overrides, options: options)
                if speaks { FileHandle.standardError.write(Data("run folder: \(trainer.run.url.path)\n".utf8)) }
            }
            let summary = try trainer.train()
            if summary["status"] as? String == "interrupted" {
                if speaks { print("run folder: \(trainer.run.url.path)") }
                throw ExitCode(130)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            // The other ranks may be waiting in a collective for this one: end them all, never hang.
            if let communicator, communicator.size > 1 { communicator.abort("error: \(error)", code: 1) }
            throw failure("\(error)")
        }
    }
}
