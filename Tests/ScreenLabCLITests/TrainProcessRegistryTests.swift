import Foundation
import Registry
import TestSupport
import XCTest

/// `screenlab train` processes and the run registry: a run killed with SIGKILL shows as
/// interrupted with its epochs and `--resume` continues the same row; two trainings recording at
/// once lose nothing.
final class TrainProcessRegistryTests: XCTestCase {
    func testKillMinus9ShowsInterruptedWithItsEpochsAndResumeContinuesTheSameRow() throws {
        let experiment = try TinyExperimentFiles.write(name: "killed")
        let folder = experiment.deletingLastPathComponent()
        let runs = folder.appendingPathComponent("runs"), registryFile = folder.appendingPathComponent("registry.sqlite")
        let firstEpoch = try TrainerProbe.batchCounts(experiment: experiment, epochs: 2)[0]

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
        let experiment = try TinyExperimentFiles.write(name: "together")
        let folder = experiment.deletingLastPathComponent()
        let registryFile = folder.appendingPathComponent("shared.sqlite")
        let processes = try (0..<2).map { index in
            try ScreenlabProcess.start(["train", experiment.path, "--set", "epochs=3", "--set", "seed=\(index)", "--set", "preview_images=0",
                                        "--runs", folder.appendingPathComponent("runs-\(index)").path, "--quiet"],
                                       output: folder.appendingPathComponent("train-\(index).log"), environment: ["SCREENLAB_REGISTRY": registryFile.path])
        }
        for (index, process) in processes.enumerated() {
            process.waitUntilExit()
            let log = (try? String(contentsOf: folder.appendingPathComponent("train-\(index).log"), encoding: .utf8)) ?? ""
            XCTAssertEqual(process.terminationStatus, 0, "training \(index) failed:\n\(log.suffix(2000))")
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
