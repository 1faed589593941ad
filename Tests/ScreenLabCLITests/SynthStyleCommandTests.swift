import Foundation
import TestSupport
import XCTest

/// `data synth --style`: the iOS-styled screens from the command line, and its refusals.
final class SynthStyleCommandTests: XCTestCase {
    func testIOSStyleWritesScreensOfBothPhones() throws {
        let out = try TestFolders.make("synth-style").appendingPathComponent("ios")
        let result = try ScreenlabProcess.run(["data", "synth", "--count", "24", "--seed", "3", "--style", "ios", "--out", out.path])
        XCTAssertEqual(result.status, 0, result.output)
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        let sizes = Set(manifest.split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[1...2].joined(separator: "x") })
        XCTAssertEqual(sizes, ["375x667", "390x844"], manifest)
    }

    func testBadStylesAreUsageErrorsNamingTheOption() throws {
        for (arguments, expected) in [(["--style", "android"], "--style must be mixed or ios (got 'android')"),
                                      (["--style", "ios", "--text", "bitmap"], "--style ios needs --text freetype")] {
            let result = try ScreenlabProcess.run(["data", "synth", "--count", "4", "--out", "/nonexistent/x"] + arguments)
            XCTAssertEqual(result.status, 64, result.output)
            XCTAssertTrue(result.output.contains(expected), result.output)
        }
    }
}
