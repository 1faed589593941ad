import Foundation
import TestSupport
import Weights
import XCTest

/// A rank that dies (kill -9) ends the job within seconds, named, never a hang; the registry
/// shows the run interrupted; `--resume` with the same rank count finishes it with the bits of
/// an uninterrupted run.
final class MPIFailureTests: XCTestCase {
    func testKillingOneRankEndsTheJobAndResumeGivesTheUninterruptedBits() throws {
        let mpirun = try MPITrainingTests.mpirun()
        let experiment = try MPITrainingTests.experiment()
        let folder = try TestFolders.make("mpi-kill")
        let uninterrupted = try MPITrainingTests.train(ranks: 2, runs: folder.appendingPathComponent("whole"), experiment: experiment)

        let runs = folder.appendingPathComponent("killed"), registry = folder.appendingPathComponent("runs.sqlite")
        let arguments = ["train", experiment.path, "--runs", runs.path, "--registry", registry.path, "--quiet", "--set", "threads=1"]
        let log = folder.appendingPathComponent("killed.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let job = Process()
        job.executableURL = mpirun
        // Both ranks stop after 4 steps (in epoch 2 of 3-step epochs, after epoch 1's checkpoint) and sleep; rank 0 says so in `paused`.
        job.arguments = MPITrainingTests.launcherArguments(ranks: 2) + ["-x", "SCREENLAB_TEST_PAUSE_AFTER_STEPS", try ScreenlabProcess.binary().path] + arguments
        job.environment = ProcessInfo.processInfo.environment.merging(["SCREENLAB_TEST_PAUSE_AFTER_STEPS": "4"]) { $1 }
        job.standardOutput = try FileHandle(forWritingTo: log)
        job.standardError = job.standardOutput
        try job.run()
        let deadline = Date().addingTimeInterval(300)
        var run: URL?
        while Date() < deadline, job.isRunning {
            if let folder = try? MPITrainingTests.runFolder(in: runs), FileManager.default.fileExists(atPath: folder.appendingPathComponent("paused").path) {
                run = folder
                break
            }
            usleep(100_000)
        }
        let paused = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let runFolder = try XCTUnwrap(run, "the job never paused: \(paused)")
        let rankOne = try XCTUnwrap(Self.process(withEnvironment: "OMPI_COMM_WORLD_RANK=1", arguments: runs.path), "no rank 1 process")
        let rankZero = try XCTUnwrap(Self.process(withEnvironment: "OMPI_COMM_WORLD_RANK=0", arguments: runs.path), "no rank 0 process")
        kill(rankOne, SIGKILL)
        let killed = Date()
        while job.isRunning, Date().timeIntervalSince(killed) < 60 { usleep(50_000) }
        XCTAssertFalse(job.isRunning, "the job still runs a minute after rank 1 died")
        if job.isRunning { job.terminate() }
        job.waitUntilExit()
        let output = try String(contentsOf: log, encoding: .utf8)
        XCTAssertNotEqual(job.terminationStatus, 0)
        XCTAssertTrue(output.contains("rank 1") && output.contains(ProcessInfo.processInfo.hostName), "the message names the rank and host: \(output)")
        // Rank 0 was ended with the job; until something reaps it, kill(pid, 0) still finds it.
        while kill(rankZero, 0) == 0, Date().timeIntervalSince(killed) < 30 { usleep(50_000) }
        XCTAssertNotEqual(kill(rankZero, 0), 0, "rank 0 outlived the job by 30 s")

        let list = try ScreenlabProcess.run(["runs", "list", "--registry", registry.path])
        XCTAssertTrue(list.output.contains("interrupted"), list.output)

        let resumed = try ChildProcess.run(mpirun, MPITrainingTests.launcherArguments(ranks: 2)
            + [try ScreenlabProcess.binary().path, "train", "--resume", runFolder.path, "--registry", registry.path, "--quiet"])
        XCTAssertEqual(resumed.status, 0, resumed.output)
        let a = try MPITrainingTests.weights(runFolder), b = try MPITrainingTests.weights(uninterrupted)
        XCTAssertEqual(a.count, b.count)
        for (name, values) in a { XCTAssertEqual(values.map(\.bitPattern), b[name]?.map(\.bitPattern), "\(name) differs from the uninterrupted run") }
        XCTAssertTrue(try ScreenlabProcess.run(["runs", "list", "--registry", registry.path]).output.contains("finished"))
        let show = try ScreenlabProcess.run(["runs", "show", runFolder.lastPathComponent, "--registry", registry.path])
        XCTAssertTrue(show.output.contains("2 (mpirun) on 1 host(s)"), "the registry records the processes: \(show.output)")
    }

    /// The pid of a live `screenlab` whose command line holds `arguments` and whose environment holds `entry`.
    static func process(withEnvironment entry: String, arguments: String) -> pid_t? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for name in entries {
            guard let pid = pid_t(name),
                  let command = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                  String(decoding: command, as: UTF8.self).contains(arguments),
                  String(decoding: command, as: UTF8.self).contains("screenlab"),
                  let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ") else { continue }
            if environment.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == entry }),
               let status = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8), !status.contains(") Z ") {
                return pid
            }
        }
        return nil
    }
}
