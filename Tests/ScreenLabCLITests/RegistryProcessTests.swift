import Foundation
import GRDB
import TestSupport
import XCTest
@testable import Registry

/// The registry as users meet it: `screenlab` processes writing one database at once, and the
/// `runs` and `compare` commands' answers to good and bad input.
final class RegistryProcessTests: XCTestCase {
    func testTwoProcessesImportingAtOnceLoseNoRow() throws {
        let root = try RunFolderFixture.temporaryFolder("registry-processes")
        let file = root.appendingPathComponent("runs.sqlite")
        for writer in ["a", "b"] {
            for i in 0..<25 {
                try RunFolderFixture.write(in: root.appendingPathComponent("runs-\(writer)"), experiment: "exp-\(writer)", id: String(format: "20261124-05%04d-\(writer)", i))
            }
        }
        let processes = try ["a", "b"].map { writer in
            try ScreenlabProcess.start(["runs", "import", root.appendingPathComponent("runs-\(writer)").path, "--registry", file.path],
                                       output: root.appendingPathComponent("\(writer).log"))
        }
        processes.forEach { $0.waitUntilExit() }
        for (process, writer) in zip(processes, ["a", "b"]) {
            let log = (try? String(contentsOf: root.appendingPathComponent("\(writer).log"), encoding: .utf8)) ?? ""
            XCTAssertEqual(process.terminationStatus, 0, log)
        }
        let counts = try DatabaseQueue(path: file.path).read { db in
            try ["runs", "epochs", "epoch_losses", "class_results", "thresholds"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? 0 }
        }
        XCTAssertEqual(counts, [50, 150, 300, 200, 100], "runs, epochs (3 each), losses (2 terms), class results (2 × 2 splits), thresholds (2)")

        // Importing again changes nothing (idempotent).
        XCTAssertEqual(try ScreenlabProcess.run(["runs", "import", root.appendingPathComponent("runs-a").path, "--registry", file.path]).status, 0)
        XCTAssertEqual(try DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM epochs") }, 150)

        let list = try ScreenlabProcess.run(["runs", "list", "--registry", file.path, "--experiment", "exp-b"])
        XCTAssertEqual(list.status, 0, list.output)
        XCTAssertEqual(list.output.split(separator: "\n").count, 2 + 25, list.output)
        let show = try ScreenlabProcess.run(["runs", "show", "20261124-050003-a", "--registry", file.path])
        XCTAssertEqual(show.status, 0, show.output)
        for text in ["val mAP@0.5", "Per class on test", "Thresholds (max-f1", "optimizer:", "▁"] { XCTAssertTrue(show.output.contains(text), "\(text) in\n\(show.output)") }
    }

    func testBadInputGivesAMessageAndANonZeroExit() throws {
        let root = try RunFolderFixture.temporaryFolder("registry-bad")
        let file = root.appendingPathComponent("runs.sqlite")
        let unknown = try ScreenlabProcess.run(["runs", "show", "nope", "--registry", file.path])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.output.contains("no run 'nope'"), unknown.output)

        try Data("not a database at all, but long enough to look like one ........".utf8).write(to: root.appendingPathComponent("bad.sqlite"))
        let corrupt = try ScreenlabProcess.run(["runs", "list", "--registry", root.appendingPathComponent("bad.sqlite").path])
        XCTAssertNotEqual(corrupt.status, 0)
        XCTAssertTrue(corrupt.output.contains("bad.sqlite") && corrupt.output.contains("not an SQLite database"), corrupt.output)

        let folder = try RunFolderFixture.write(in: root.appendingPathComponent("runs"), id: "20261124-060000-1")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("metrics.csv"))
        let missing = try ScreenlabProcess.run(["runs", "import", folder.path, "--registry", file.path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.output.contains("metrics.csv is missing"), missing.output)
        XCTAssertEqual(try RunRegistry(file: file).runs(), [], "nothing half-written")
    }

    func testCompareOfTwoRunsListsConfigDifferencesAndOverlaysCurves() throws {
        let root = try RunFolderFixture.temporaryFolder("registry-compare")
        let file = root.appendingPathComponent("runs.sqlite")
        let a = try RunFolderFixture.write(in: root.appendingPathComponent("runs"), id: "20261124-070000-1", lr: 0.002)
        try RunFolderFixture.write(in: root.appendingPathComponent("runs"), id: "20261124-070000-2", lr: 0.01, apShift: 0.05)
        XCTAssertEqual(try ScreenlabProcess.run(["runs", "import", root.appendingPathComponent("runs").path, "--registry", file.path]).status, 0)
        let out = root.appendingPathComponent("cmp")
        // A run folder and a run id, mixed; fixtures have no evaluator reports, so only runs' parts are compared.
        let result = try ScreenlabProcess.run(["compare", a.path, "070000-2", "--registry", file.path, "--out", out.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("optimizer.lr") && result.output.contains("0.01"), result.output)
        XCTAssertFalse(result.output.contains("batch_size"), "only keys that differ:\n\(result.output)")
        let html = try String(contentsOf: out.appendingPathComponent("compare.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("Validation mAP@0.5 by epoch") && html.contains("<svg"), "curves by epoch")
        XCTAssertFalse(html.contains("<script") || html.contains("src=\"http"), "self-contained")
        XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("compare.md"), encoding: .utf8).contains("## Config differences"))
        // The same curves as files, for reports kept in a repository (compare.html holds every PR curve too).
        let curves = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("curves").path).sorted()
        XCTAssertTrue(curves.contains("val-map50.svg") && curves.contains("loss.svg"), "\(curves)")
        let map = try String(contentsOf: out.appendingPathComponent("curves/val-map50.svg"), encoding: .utf8)
        XCTAssertTrue(map.hasPrefix("<svg") && map.contains("20261124-070000-1") && map.contains("20261124-070000-2"), "both runs on the chart")
    }
}
