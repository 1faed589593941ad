import Foundation
import Evaluation
import Registry
import Weights
import TestSupport
import XCTest
@testable import Training

/// The trainer records its run in the registry as it goes: the row at the start, a row per
/// epoch, the results at the end; a run killed with SIGKILL shows as interrupted with its epochs,
/// and `--resume` continues the same row.
final class RunRegistryRecordingTests: XCTestCase {
    func testAFinishedRunHasItsRowEpochsClassResultsThresholdsAndArtifacts() throws {
        let file = try TinyExperiment.write(name: "recorded")
        let registryFile = file.deletingLastPathComponent().appendingPathComponent("runs.sqlite")
        var options = TinyExperiment.options()
        options.runsFolder = file.deletingLastPathComponent().appendingPathComponent("runs")
        options.registryFile = registryFile
        let trainer = try Trainer.start(experiment: file, overrides: ["epochs=2"], options: options)
        let summary = try trainer.train()

        let registry = try RunRegistry(file: registryFile)
        let run = try registry.run(trainer.run.id)
        XCTAssertEqual(run.status, .finished)
        XCTAssertEqual(run.experiment, "recorded")
        XCTAssertEqual(run.epochsDone, 2)
        XCTAssertEqual(run.runFolder, trainer.run.url.standardizedFileURL.path)
        XCTAssertEqual(run.host, RunRegistry.hostName)
        XCTAssertEqual(run.pid, Int(getpid()))
        XCTAssertTrue(run.configYAML?.contains("batch_size") == true)
        XCTAssertTrue(run.dataset?.hasPrefix("synthetic") == true, run.dataset ?? "")
        let test = try XCTUnwrap(summary["test"] as? [String: Any])
        XCTAssertEqual(run.test.map50, test["map50"] as? Double, "the same number as summary.json")
        let epochs = try registry.epochs(of: run.id)
        XCTAssertEqual(epochs.map(\.epoch), [1, 2])
        XCTAssertEqual(Set(epochs[0].losses.keys), ["cls", "dfl", "giou"])
        XCTAssertEqual(epochs.map(\.valMAP50), trainer.metrics.rows.map(\.valMAP50))
        XCTAssertEqual(try registry.classResults(of: run.id).count, 26, "13 classes on val and on test")
        XCTAssertEqual(try registry.thresholds(of: run.id).count, 13)
        let kinds = Set(try registry.artifacts(of: run.id).map(\.kind))
        XCTAssertTrue(kinds.isSuperset(of: ["report", "weights", "thresholds", "summary"]), "\(kinds)")

        // thresholds pick --run: the registry, the run's thresholds.yaml and its weights agree.
        let outcome = try RunThresholdPick.pick(run: run.id, strategy: try ThresholdStrategy(parsing: "recall:0.01"), registry: registry)
        let recorded = try registry.thresholds(of: run.id)
        XCTAssertEqual(recorded.first?.strategy, "recall:0.01")
        XCTAssertEqual(recorded.map(\.confidence), outcome.file.classes.map(\.confidence))
        XCTAssertTrue(try String(contentsOf: trainer.run.thresholdsFile, encoding: .utf8).contains("recall:0.01"))
        let header = try WeightsFile.read(contentsOf: trainer.run.weightsFile).header
        let inWeights = Dictionary(uniqueKeysWithValues: (header.thresholds ?? []).map { ($0.className, $0.confidence) })
        for entry in outcome.file.classes { XCTAssertEqual(inWeights[entry.name], entry.confidence, entry.name) }

        // A damaged model.slw stops the pick before anything is written (it had rewritten
        // thresholds.yaml already): the three records still agree on the old strategy.
        let weights = try Data(contentsOf: trainer.run.weightsFile)
        let thresholdsBefore = try Data(contentsOf: trainer.run.thresholdsFile)
        try weights.prefix(weights.count / 2).write(to: trainer.run.weightsFile)
        XCTAssertThrowsError(try RunThresholdPick.pick(run: run.id, strategy: try ThresholdStrategy(parsing: "max-f1"), registry: registry))
        XCTAssertEqual(try Data(contentsOf: trainer.run.thresholdsFile), thresholdsBefore, "thresholds.yaml untouched")
        XCTAssertEqual(try registry.thresholds(of: run.id).first?.strategy, "recall:0.01")
        try weights.write(to: trainer.run.weightsFile)

        // compare: the run by id and by folder; per-class tables, and PR curves in the page.
        let comparison = RunComparison([
            try ComparedRun.resolve(run.id, registry: { registry }),
            try ComparedRun.resolve(trainer.run.url.path, registry: { registry }),
        ])
        XCTAssertEqual(comparison.reports?.reports.count, 2)
        XCTAssertTrue(comparison.terminal(color: false).contains("Configs: identical."))
        let html = comparison.html()
        XCTAssertTrue(html.contains("precision–recall") && html.contains("Training loss (sum of terms) by epoch"))
    }

    func testKillMinus9ShowsInterruptedWithItsEpochsAndResumeContinuesTheSameRow() throws {
        let experiment = try TinyExperiment.write(name: "killed")
        let folder = experiment.deletingLastPathComponent()
        let runs = folder.appendingPathComponent("runs"), registryFile = folder.appendingPathComponent("registry.sqlite")
        let probe = try Trainer.start(experiment: experiment, overrides: ["epochs=2"], options: TinyExperiment.options())
        let firstEpoch = probe.setup.loader.batchCount(epoch: 0)
        try FileManager.default.removeItem(at: probe.run.url)

        let child = try ScreenlabProcess.start(["train", experiment.path, "--set", "epochs=2", "--runs", runs.path, "--quiet"],
                                               environment: ["SCREENLAB_TEST_PAUSE_AFTER_STEPS": "\(firstEpoch + 1)", "SCREENLAB_REGISTRY": registryFile.path])
        let deadline = Date().addingTimeInterval(600)
        var paused: URL?
        while Date() < deadline, child.isRunning, paused == nil {
            let candidates = (try? FileManager.default.contentsOfDirectory(at: runs.appendingPathComponent("killed"), includingPropertiesForKeys: nil)) ?? []
            paused = candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("paused").path) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let runFolder = try XCTUnwrap(paused, "the child never reached the pause")
        XCTAssertEqual(try RunRegistry(file: registryFile).run(runFolder.lastPathComponent).status, .running, "alive: still running")
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()

        let registry = try RunRegistry(file: registryFile)
        let killed = try registry.run(runFolder.lastPathComponent)
        XCTAssertEqual(killed.status, .interrupted)
        XCTAssertTrue(killed.stopReason?.contains("--resume") == true, killed.stopReason ?? "")
        XCTAssertEqual(try registry.epochs(of: killed.id).map(\.epoch), [1], "the finished epoch's row is intact")

        let resume = try ScreenlabProcess.start(["train", "--resume", runFolder.path, "--quiet"], environment: ["SCREENLAB_REGISTRY": registryFile.path])
        resume.waitUntilExit()
        XCTAssertEqual(resume.terminationStatus, 0)
        let after = try RunRegistry(file: registryFile)
        XCTAssertEqual(try after.runs().map(\.id), [killed.id], "the same row, not a new run")
        let finished = try after.run(killed.id)
        XCTAssertEqual(finished.status, .finished)
        XCTAssertEqual(finished.startedAt, killed.startedAt, "the start time survives the resume")
        XCTAssertEqual(finished.experiment, "killed", "the name survives the resume (not experiment.yaml's stem)")
        XCTAssertEqual(try after.epochs(of: killed.id).map(\.epoch), [1, 2])
    }

    /// Two `screenlab train` processes recording into one registry at the same time: every run
    /// row, every epoch row and every class result of both arrives (WAL, busy waits, retries).
    func testTwoTrainingsWritingAtOnceLoseNoRow() throws {
        let experiment = try TinyExperiment.write(name: "together")
        let folder = experiment.deletingLastPathComponent()
        let registryFile = folder.appendingPathComponent("shared.sqlite")
        let processes = try (0..<2).map { index in
            try ScreenlabProcess.start(["train", experiment.path, "--set", "epochs=3", "--set", "seed=\(index)", "--set", "preview_images=0",
                                        "--runs", folder.appendingPathComponent("runs-\(index)").path, "--quiet"],
                                       environment: ["SCREENLAB_REGISTRY": registryFile.path])
        }
        for process in processes {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let registry = try RunRegistry(file: registryFile)
        let runs = try registry.runs(experiment: "together")
        XCTAssertEqual(runs.count, 2)
        for run in runs {
            XCTAssertEqual(run.status, .finished, run.id)
            XCTAssertEqual(try registry.epochs(of: run.id).map(\.epoch), [1, 2, 3], run.id)
            XCTAssertEqual(try registry.classResults(of: run.id).count, 26, "13 classes on val and on test: \(run.id)")
        }
    }
}
