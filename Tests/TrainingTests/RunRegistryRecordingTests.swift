import Foundation
import Evaluation
import Registry
import Weights
import TestSupport
import XCTest
@testable import Training

/// The trainer records its run in the registry as it goes: the row at the start, a row per
/// epoch, the results at the end (killed and concurrent runs: `Tests/ScreenLabCLITests/TrainProcessRegistryTests`).
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
}
