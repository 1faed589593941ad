import Foundation
import TestSupport
import XCTest

/// `bench train --versus KEY=VALUE`: a second setting of the experiment's real step timed in the
/// same rounds (alternating which goes first), reported per round and as a median ratio; a bad
/// key is refused as `--versus` before anything is built, and `--profile` is refused beside it.
final class BenchTrainVersusTests: XCTestCase {
    func testASecondSettingIsTimedEveryRoundAndComparedWithTheExperiments() throws {
        let experiment = try TinyExperimentFiles.write(name: "versus")
        let result = try ScreenlabProcess.run(["bench", "train", "--experiment", experiment.path, "--versus", "workers=0",
                                               "--rounds", "2", "--steps", "1", "--batch-size", "2"])
        XCTAssertEqual(result.status, 0, result.output)
        let rounds = result.output.split(separator: "\n").filter { $0.hasPrefix("  round ") }
        XCTAssertEqual(rounds.count, 2, result.output)
        for line in rounds {
            XCTAssertNotNil(line.range(of: #"versus \(workers=0\) [0-9.]+ img/s \([0-9.]+×\)"#, options: .regularExpression), String(line))
        }
        let summary = try XCTUnwrap(result.output.split(separator: "\n").first { $0.hasPrefix("versus (workers=0): ") }, result.output)
        XCTAssertNotNil(summary.range(of: #"^versus \(workers=0\): [0-9.]+ img/s against [0-9.]+ → [0-9.]+× the experiment's real step \(median of rounds; rounds [0-9.]+–[0-9.]+, [0-2] of 2 above 1\)$"#,
                                      options: .regularExpression), String(summary))
    }

    func testAnUnknownVersusKeyIsNamedAsVersusBeforeAnyTiming() throws {
        let experiment = try TinyExperimentFiles.write(name: "versus-typo")
        let result = try ScreenlabProcess.run(["bench", "train", "--experiment", experiment.path, "--versus", "worker=0"])
        XCTAssertNotEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("--versus (worker): unknown key"), result.output)
        XCTAssertFalse(result.output.contains("round 1"), "nothing is timed: \(result.output)")
        let notPair = try ScreenlabProcess.run(["bench", "train", "--experiment", experiment.path, "--versus", "workers"])
        XCTAssertTrue(notPair.output.contains("--versus: 'workers' is not key=value"), notPair.output)
    }

    func testVersusWithProfileIsAUsageError() throws {
        let result = try ScreenlabProcess.run(["bench", "train", "--versus", "workers=0", "--profile"])
        XCTAssertEqual(result.status, 64, result.output)
        XCTAssertTrue(result.output.contains("--versus compares whole steps over rounds and --profile times one step's layers"), result.output)
    }
}
