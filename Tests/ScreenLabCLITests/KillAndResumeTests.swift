import Foundation
import TestSupport
import Weights
import XCTest

/// kill -9 in the middle of an epoch, then `--resume`: the final weights must equal an
/// uninterrupted run's bit for bit (the failure users of other trainers report when RNG or
/// loader state is not saved). Runs the real `screenlab` binary as a child process.
final class KillAndResumeTests: XCTestCase {
    override func setUpWithError() throws { _ = try ScreenlabProcess.binary() }

    func testKillMinus9MidEpochThenResumeGivesBitIdenticalWeights() throws {
        let experiment = try TinyExperimentFiles.write(name: "resume")
        let folder = experiment.deletingLastPathComponent()
        let uninterrupted = folder.appendingPathComponent("runs-a"), interrupted = folder.appendingPathComponent("runs-b")

        // Pause one step into epoch 2, after the epoch-1 checkpoint (epoch lengths vary with
        // repeat-factor sampling, so ask the loader).
        let batches = try TrainerProbe.batchCounts(experiment: experiment, epochs: 3)
        let firstEpoch = batches[0]
        XCTAssertGreaterThanOrEqual(batches[1], 2)

        let a = try ScreenlabProcess.run(["train", experiment.path, "--set", "epochs=3", "--runs", uninterrupted.path, "--quiet"])
        XCTAssertEqual(a.status, 0, a.output)
        let runA = try onlyRun(in: uninterrupted)

        let child = try ScreenlabProcess.start(["train", experiment.path, "--set", "epochs=3", "--runs", interrupted.path, "--quiet"],
                              environment: ["SCREENLAB_TEST_PAUSE_AFTER_STEPS": "\(firstEpoch + 1)"])
        let deadline = Date().addingTimeInterval(600)
        var runB: URL?
        while Date() < deadline, child.isRunning {
            if let candidate = try? onlyRun(in: interrupted), FileManager.default.fileExists(atPath: candidate.appendingPathComponent("paused").path) {
                runB = candidate
                break
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let paused = try XCTUnwrap(runB, "the child never reached the pause")
        // While it lives, a second trainer of the same folder is refused (both used to train it).
        let second = try ScreenlabProcess.run(["train", "--resume", paused.path, "--quiet"])
        XCTAssertNotEqual(second.status, 0, second.output)
        XCTAssertTrue(second.output.contains("another process (pid \(child.processIdentifier)) is training this run"), second.output)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal)
        let status = try String(contentsOf: paused.appendingPathComponent("status.json"), encoding: .utf8)
        XCTAssertTrue(status.contains("\"running\""), "a killed run still says running until resumed: \(status)")

        let b = try ScreenlabProcess.run(["train", "--resume", paused.path, "--quiet"])
        XCTAssertEqual(b.status, 0, b.output)
        XCTAssertTrue(b.output.contains("resuming"), b.output)

        for file in ["model.slw", "checkpoints/last/model.slw", "checkpoints/last/ema.slw", "checkpoints/last/optimizer.slw"] {
            let expected = try WeightsFile.read(contentsOf: runA.appendingPathComponent(file)).tensors
            let found = try WeightsFile.read(contentsOf: paused.appendingPathComponent(file)).tensors
            XCTAssertEqual(found.map(\.name), expected.map(\.name), file)
            for (x, y) in zip(found, expected) {
                XCTAssertEqual(x.tensor.values.map(\.bitPattern), y.tensor.values.map(\.bitPattern), "\(file): \(x.name) differs after resume")
            }
        }
        let metricsA = try String(contentsOf: runA.appendingPathComponent("metrics.csv"), encoding: .utf8)
        let metricsB = try String(contentsOf: paused.appendingPathComponent("metrics.csv"), encoding: .utf8)
        func columns(_ csv: String) -> [[Substring]] { csv.split(separator: "\n").map { Array($0.split(separator: ",", omittingEmptySubsequences: false).prefix(7)) } }
        XCTAssertEqual(columns(metricsB), columns(metricsA), "losses, lr and val mAP per epoch (timings differ)")
    }

    // MARK: Child processes

    private func onlyRun(in runs: URL) throws -> URL {
        let experiment = runs.appendingPathComponent("resume")
        let entries = try FileManager.default.contentsOfDirectory(at: experiment, includingPropertiesForKeys: nil).filter { !$0.lastPathComponent.hasPrefix(".") }
        guard entries.count == 1 else { throw CocoaError(.fileReadUnknown) }
        return entries[0]
    }
}
