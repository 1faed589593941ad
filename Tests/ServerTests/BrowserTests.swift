import Foundation
import TestSupport
import Weights
import XCTest

/// `screenlab serve` end to end in a real browser: the built executable serves the fixture's two
/// runs on a free port; browser_check.py clicks through it in Debian's Chromium with Playwright.
/// Skips, saying why, where Chromium or Playwright is missing (Scripts/test installs both).
final class BrowserTests: XCTestCase {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A Python that imports playwright: SCREENLAB_BROWSER_PYTHON, the test venv, or a python3 on PATH.
    static func python() -> String? {
        let root = TinyExperimentFiles.repositoryRoot
        let environment = ProcessInfo.processInfo.environment
        let candidates = [environment["SCREENLAB_BROWSER_PYTHON"], root.appendingPathComponent(".build/browser-venv/bin/python").path].compactMap { $0 }
            + (environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/python3" }
        return candidates.first { path in
            guard FileManager.default.isExecutableFile(atPath: path) else { return false }
            let check = Process()
            check.executableURL = URL(fileURLWithPath: path)
            check.arguments = ["-c", "import playwright.sync_api"]
            check.standardOutput = FileHandle.nullDevice
            check.standardError = FileHandle.nullDevice
            guard (try? check.run()) != nil else { return false }
            check.waitUntilExit()
            return check.terminationStatus == 0
        }
    }

    func testAUserComparesRunsOpensAConfusionCellMovesAThresholdAndSaves() throws {
        guard let chromium = Self.chromium else {
            throw XCTSkip("no Chromium at /usr/bin/chromium: `apt-get install chromium` (Scripts/test does) to run the browser test")
        }
        guard let python = Self.python() else {
            throw XCTSkip("no Python with Playwright: `pip install playwright` into .build/browser-venv (Scripts/test does) or set SCREENLAB_BROWSER_PYTHON")
        }
        let runs = try WorkbenchFixture.copy()
        let folder = try TestFolders.make("browser")
        let log = folder.appendingPathComponent("serve.log")
        let server = try ScreenlabProcess.start(["serve", "--registry", runs.registryFile.path, "--port", "0"], output: log)
        defer { server.terminate(); server.waitUntilExit() }
        // The address it printed once listening.
        var address: String?
        for _ in 0..<300 where address == nil {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) { address = String(text[range]) }
            if !server.isRunning { break }
            usleep(100_000)
        }
        let url = try XCTUnwrap(address, "serve printed no address: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("browser_check.py")
        let shots = folder.appendingPathComponent("screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: python)
        browser.arguments = [script.path, url, runs.first, runs.second, shots.path, chromium]
        let output = Pipe(), errors = Pipe()
        browser.standardOutput = output
        browser.standardError = errors
        try browser.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        browser.waitUntilExit()
        XCTAssertEqual(browser.terminationStatus, 0, complaints)
        let seen = try XCTUnwrap(try JSONSerialization.jsonObject(with: printed) as? [String: Any], complaints)

        XCTAssertEqual(Set(seen["runs_listed"] as? [String] ?? []), [runs.first, runs.second])
        let filtered = try XCTUnwrap(seen["filtered_by"] as? String)
        XCTAssertTrue([runs.first, runs.second].contains(filtered))
        XCTAssertEqual(seen["visible_after_filter"] as? [String], [filtered], "the filter hides the other run")
        XCTAssertEqual(seen["compare_enabled"] as? Bool, true)
        XCTAssertEqual(seen["compared"] as? String, "\(runs.first),\(runs.second)")
        XCTAssertEqual(seen["compare_has_table"] as? Bool, true)
        let cell = try XCTUnwrap(seen["cell"] as? [String: Any])
        XCTAssertEqual(seen["examples_entries"] as? Int, cell["count"] as? Int, "the cell's screens hold its count")
        XCTAssertGreaterThan(seen["examples_images"] as? Int ?? 0, 0)
        let picker = try XCTUnwrap(seen["picker"] as? [String: Any])
        let before = try XCTUnwrap(picker["before"] as? [String: String]), after = try XCTUnwrap(picker["after"] as? [String: String])
        XCTAssertNotEqual(before["confidence"], after["confidence"], "the slider moved the point")
        XCTAssertNotEqual(before["kept"], after["kept"], "a lower confidence keeps more detections")
        XCTAssertNotNil(after["shown-precision"] ?? nil, "the same confidence on test")
        XCTAssertEqual(seen["page_errors"] as? [String], [], "no script errors")

        // `weights inspect` reads the saved file, and its thresholds are the picked ones.
        let saved = try XCTUnwrap(seen["saved_weights"] as? String, seen["saved_text"] as? String ?? "")
        let inspect = try ScreenlabProcess.run(["weights", "inspect", saved])
        XCTAssertEqual(inspect.status, 0, inspect.output)
        let thresholds = try XCTUnwrap(try WeightsFile.read(contentsOf: URL(fileURLWithPath: saved)).header.thresholds)
        let moved = try XCTUnwrap(thresholds.first { $0.className == picker["class"] as? String })
        XCTAssertEqual(moved.confidence, Double(after["confidence"] ?? ""))
        XCTAssertTrue(inspect.output.contains(moved.className), inspect.output)
        // The pages' pictures, for a person to look at (kept when SCREENLAB_KEEP_SCREENSHOTS names a folder).
        if let keep = ProcessInfo.processInfo.environment["SCREENLAB_KEEP_SCREENSHOTS"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: shots, to: URL(fileURLWithPath: keep))
        }
    }
}
