import Foundation
import TestSupport
import XCTest

/// Ctrl-C (SIGINT) or SIGTERM while a command writes its output folder: the staging folder beside
/// `--out` is removed, nothing appears at `--out`, and the process ends with 128 + the signal.
final class InterruptedOutputTests: XCTestCase {
    static let root = TinyExperimentFiles.repositoryRoot
    static let weights = root.appendingPathComponent("Reports/models/ui-detector-vins.slw").path
    static let screen = root.appendingPathComponent("Reports/samples/vins-screen.jpg")

    /// Starts `arguments`, waits until the staging folder of `out` holds a file, sends `signal`,
    /// and checks what is left beside `out`.
    func interrupt(_ arguments: [String], out: URL, with signal: Int32, file: StaticString = #filePath, line: UInt = #line) throws {
        let parent = out.deletingLastPathComponent()
        let log = parent.appendingPathComponent("command.log")
        let process = try ScreenlabProcess.start(arguments, output: log)
        defer { if process.isRunning { process.terminate() } }
        func staging() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []).filter { $0.hasPrefix(".\(out.lastPathComponent).partial-") }
        }
        var started = false
        for _ in 0..<600 where process.isRunning {
            // A file inside: the command is past its set-up and writing (its handlers armed).
            if let folder = staging().first,
               let inside = FileManager.default.enumerator(atPath: parent.appendingPathComponent(folder).path)?.allObjects, !inside.isEmpty {
                started = true
                break
            }
            usleep(50_000)
        }
        let text = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        XCTAssertTrue(started, "the command never staged its output before ending: \(text())", file: file, line: line)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 128 + signal, text(), file: file, line: line)
        XCTAssertEqual(staging(), [], "staging left beside --out", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "a partial --out appeared", file: file, line: line)
        XCTAssertTrue(text().contains("interrupted: removed the unfinished output"), text(), file: file, line: line)
    }

    func testSIGINTDuringDataSynthRemovesItsStaging() throws {
        let folder = try TestFolders.make("interrupt-synth")
        let out = folder.appendingPathComponent("screens")
        try interrupt(["data", "synth", "--count", "2000", "--out", out.path], out: out, with: SIGINT)
    }

    func testSIGTERMDuringPredictRemovesItsStaging() throws {
        let folder = try TestFolders.make("interrupt-predict")
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for index in 0..<120 { try FileManager.default.copyItem(at: Self.screen, to: images.appendingPathComponent("s\(index).jpg")) }
        let out = folder.appendingPathComponent("predicted")
        try interrupt(["predict", "--weights", Self.weights, images.path, "--out", out.path], out: out, with: SIGTERM)
    }

    /// Ctrl-C while training, after the same process rendered its synthetic screens (staging
    /// registered and released first): the trainer still hears it, stops at a step boundary with
    /// a checkpoint and says how to resume. (Re-arming the signal handlers per stage lost it.)
    func testSIGINTDuringTrainingAfterARenderStopsAtAStepWithACheckpoint() throws {
        let experiment = try TinyExperimentFiles.write(name: "sigint")
        let folder = experiment.deletingLastPathComponent()
        let log = folder.appendingPathComponent("train.log")
        // A seed of its own, so this process renders its screens.
        let seed = Int(getpid()) % 100_000 + 1000
        let process = try ScreenlabProcess.start(["train", experiment.path, "--set", "epochs=40", "--set", "data.synthetic.seed=\(seed)",
                                                  "--runs", folder.appendingPathComponent("runs").path], output: log)
        defer { if process.isRunning { process.terminate() } }
        let text = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        for _ in 0..<1200 where process.isRunning && !text().contains("epoch 2/40") { usleep(50_000) }
        XCTAssertTrue(text().contains("rendered"), "no render in this process: \(text())")
        XCTAssertTrue(process.isRunning, text())
        kill(process.processIdentifier, SIGINT)
        for _ in 0..<1200 where process.isRunning { usleep(50_000) }
        XCTAssertFalse(process.isRunning, "SIGINT was not heard within 60 s: \(text().suffix(500))")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, text())
        XCTAssertTrue(text().contains("stopping after this step"), text())
        XCTAssertTrue(text().contains("continue with --resume"), text())
    }
}
