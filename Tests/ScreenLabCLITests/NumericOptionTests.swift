import Foundation
import TestSupport
import XCTest

/// Numeric options out of range are refused by the parser with the option named (exit 64),
/// never a trap, an abort or hours of work (issue 15; Fuzz/cli sweeps every option).
final class NumericOptionTests: XCTestCase {
    func testOutOfRangeNumbersAreUsageErrorsNamingTheOption() throws {
        let cases: [(arguments: [String], option: String)] = [
            (["data", "check", "no-such-dataset", "--max-per-type=-1"], "--max-per-type"),
            (["bench", "engine", "--batch", "4294967297"], "--batch"),
            (["bench", "engine", "--threads", "0"], "--threads"),
            (["bench", "engine", "--steps", "4294967297"], "--steps"),
            (["bench", "loader", "--seconds", "inf"], "--seconds"),
            (["bench", "loader", "--seconds", "1e308"], "--seconds"),
            (["bench", "loader", "--workers", "4294967297"], "--workers"),
            (["bench", "loader", "--threads", "4294967297"], "--threads"),
            (["bench", "predict", "--rounds", "0"], "--rounds"),
            (["bench", "train", "--rounds", "4294967297"], "--rounds"),
            (["bench", "train", "--steps", "4294967297"], "--steps"),
            (["bench", "predict", "--batch1-runs", "4294967297"], "--batch1-runs"),
            (["predict", "--weights", "w.slw", "x.png", "--out", "o", "--batch", "0"], "--batch"),
            (["predict", "--weights", "w.slw", "x.png", "--out", "o", "--batch", "4294967297"], "--batch"),
        ]
        for (arguments, option) in cases {
            let result = try ScreenlabProcess.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments.joined(separator: " ")): \(result.output)")
            XCTAssertTrue(result.output.contains(option), "\(arguments.joined(separator: " ")) should name \(option): \(result.output)")
        }
    }

    func testValuesThatAreNotNumbersAreRefusedByTheParser() throws {
        for value in ["nan", "ten", "99999999999999999999"] {
            let result = try ScreenlabProcess.run(["bench", "engine", "--steps", value])
            XCTAssertEqual(result.status, 64, "--steps \(value): \(result.output)")
            XCTAssertTrue(result.output.contains("steps"), result.output)
        }
    }
}

/// `--dense-kernels` names a path; any other word is a usage error naming the option and the
/// choices, before any benchmark starts.
final class DenseKernelsOptionTests: XCTestCase {
    func testAnUnknownDenseKernelPathIsAUsageErrorNamingTheChoices() throws {
        for command in ["train", "engine"] {
            let result = try ScreenlabProcess.run(["bench", command, "--dense-kernels", "fast"])
            XCTAssertEqual(result.status, 64, "bench \(command): \(result.output)")
            XCTAssertTrue(result.output.contains("--dense-kernels fast: use openblas, packed, winograd or winograd-weights"), "bench \(command): \(result.output)")
        }
    }
}

/// `bench loader --cache` takes none or ram; another word is a usage error naming the option, before any work.
final class LoaderCacheOptionTests: XCTestCase {
    func testAnUnknownCacheIsAUsageErrorNamingTheChoices() throws {
        let result = try ScreenlabProcess.run(["bench", "loader", "--cache", "disk"])
        XCTAssertEqual(result.status, 64, result.output)
        XCTAssertTrue(result.output.contains("--cache must be none or ram, got 'disk'"), result.output)
    }
}

/// What a new user types first.
final class VersionTests: XCTestCase {
    func testVersionNamesTheReleaseAndTheWeightsFormat() throws {
        let result = try ScreenlabProcess.run(["--version"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.hasPrefix("screenlab "), result.output)
        XCTAssertTrue(result.output.contains("(weights format 1."), result.output)
    }
}
