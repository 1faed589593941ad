import Evaluation
import Foundation
import GRDB
import Hummingbird
import NIOFoundationCompat
import Registry
import Weights
import XCTest
@testable import Server

/// `screenlab serve` through Hummingbird's in-process router: every page and API answer on two
/// tiny trained runs, checked against what the libraries compute from the same files.
final class WorkbenchTests: XCTestCase {
    func serve(_ registryFile: URL, _ body: (RouterClient) async throws -> Void) async throws {
        try await body(RouterClient(try Workbench(registryFile: registryFile).router()))
    }

    func get(_ client: RouterClient, _ uri: String, status: HTTPResponse.Status = .ok, file: StaticString = #filePath,
             line: UInt = #line) async throws -> String {
        try await client.execute(uri: uri, method: .get) { response in
            XCTAssertEqual(response.status, status, "GET \(uri): \(String(buffer: response.body).prefix(300))", file: file, line: line)
            return String(buffer: response.body)
        }
    }

    /// Every `attribute="value"` in `html`, in order.
    func attributes(_ name: String, in html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "\(name)=\"([^\"]*)\"")
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) }
    }

    func testTheRunsTableListsBothRunsWithTheirRegistryFigures() async throws {
        let runs = try WorkbenchFixture.runs()
        let registry = try RunRegistry(file: runs.registryFile)
        let first = try registry.run(runs.first)
        try await serve(runs.registryFile) { client in
            let page = try await self.get(client, "/")
            XCTAssertEqual(self.attributes("data-run-id", in: page), [runs.first, runs.second].sorted())
            XCTAssertTrue(page.contains("<a href=\"/runs/\(runs.first)\">"))
            let json = try await self.get(client, "/api/runs")
            let rows = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [[String: Any]]
            let row = try XCTUnwrap(rows.first { $0["id"] as? String == runs.first })
            XCTAssertEqual(row["status"] as? String, "finished")
            XCTAssertEqual(row["epochs_done"] as? Int, 2)
            XCTAssertEqual(try XCTUnwrap(row["test_map50"] as? Double), try XCTUnwrap(first.test.map50), accuracy: 1e-15)
            XCTAssertEqual(Set(rows.compactMap { $0["rank"] as? Int }), Set(1...rows.filter { $0["test_map50"] != nil }.count))
            let css = try await self.get(client, "/assets/workbench.css"), js = try await self.get(client, "/assets/workbench.js")
            XCTAssertTrue(css.contains("table.confusion") && js.contains("#picker"))
        }
    }

    func testARunPageShowsItsReportAndAConfusionCellOpensExactlyItsEntries() async throws {
        let runs = try WorkbenchFixture.runs()
        try await serve(runs.registryFile) { client in
            let page = try await self.get(client, "/runs/\(runs.first)?split=test")
            let details = try RunRegistry(file: runs.registryFile).details(runs.first)
            let report = try EvaluationReport.load(details.artifacts.first { $0.kind == "report" && $0.name == "test" }!.path).report
            XCTAssertTrue(page.contains("data-metric=\"map50\">\(HTML.figure(report.map50))<"))
            XCTAssertTrue(page.contains("id=\"confusion\""))
            XCTAssertTrue(page.contains("data-chart=\"val-map50\""), "the curve by epoch")
            // Every cell of the page is the report's count; each linked cell's page holds exactly that many entries.
            let labels = report.confusion.labels
            var opened = 0
            for (t, row) in report.confusion.counts.enumerated() {
                for (p, count) in row.enumerated() where count > 0 && !(t == labels.count - 1 && p == labels.count - 1) {
                    XCTAssertTrue(page.contains("data-truth=\"\(HTML.escape(labels[t]))\" data-predicted=\"\(HTML.escape(labels[p]))\" data-count=\"\(count)\""))
                    guard opened < 3 else { continue }
                    opened += 1
                    let uri = "/runs/\(runs.first)/examples?split=test&truth=\(HTML.urlComponent(labels[t]))&predicted=\(HTML.urlComponent(labels[p]))"
                    let examples = try await self.get(client, uri)
                    XCTAssertEqual(self.attributes("data-entries", in: examples), ["\(count)"], uri)
                    let perScreen = self.attributes("data-count", in: examples).compactMap(Int.init)
                    XCTAssertEqual(perScreen, perScreen.sorted(by: >), "worst screens first")
                    XCTAssertEqual(perScreen.reduce(0, +), count, "one page holds all of a small cell's entries")
                    // The first screen's picture is a PNG.
                    let source = try XCTUnwrap(self.attributes("src", in: examples).first).replacingOccurrences(of: "&amp;", with: "&")
                    try await client.execute(uri: source, method: .get) { response in
                        XCTAssertEqual(response.status, .ok)
                        XCTAssertEqual(response.headers[.contentType], "image/png")
                        XCTAssertEqual(Array(response.body.getBytes(at: 0, length: 8) ?? []), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                    }
                }
            }
            XCTAssertGreaterThan(opened, 0, "the tiny run's confusion matrix has entries")
        }
    }

    func testCurvesAndStrategiesAreExactPointsOfTheReportsCurves() async throws {
        let runs = try WorkbenchFixture.runs()
        let details = try RunRegistry(file: runs.registryFile).details(runs.first)
        let val = details.artifacts.first { $0.kind == "report" && $0.name == "val" }!.path
        let test = details.artifacts.first { $0.kind == "report" && $0.name == "test" }!.path
        let (valReport, valFolder) = try EvaluationReport.load(val)
        let (testReport, testFolder) = try EvaluationReport.load(test)
        try await serve(runs.registryFile) { client in
            let json = try await self.get(client, "/api/runs/\(runs.first)/curves?split=val&shown=test")
            let answer = try JSONDecoder().decode(Workbench.CurvesAnswer.self, from: Data(json.utf8))
            XCTAssertEqual(answer.split, "val"); XCTAssertEqual(answer.shown, "test")
            var checked = 0
            for c in answer.classes where !c.points.isEmpty {
                let report = try XCTUnwrap(valReport.classes.first { $0.name == c.name })
                let curve = try ReportFiles.readCurveCSV(valFolder.appendingPathComponent(report.curveCSV), groundTruthCount: report.groundTruth)
                let shownReport = try XCTUnwrap(testReport.classes.first { $0.name == c.name })
                let shown = try ReportFiles.readCurveCSV(testFolder.appendingPathComponent(shownReport.curveCSV), groundTruthCount: shownReport.groundTruth)
                for row in c.points {
                    let p = curve.point(atConfidence: row[0]), s = shown.point(atConfidence: row[0])
                    XCTAssertEqual(Array(row[1...5]), [Double(p.truePositives), Double(p.falsePositives), p.precision, p.recall, p.f1])
                    XCTAssertEqual(Array(row[6...10]), [Double(s.truePositives), Double(s.falsePositives), s.precision, s.recall, s.f1])
                }
                checked += 1
            }
            XCTAssertGreaterThan(checked, 0)
            // max-F1 from the page's strategy call is what `thresholds pick` writes.
            let (file, _) = try ThresholdFile.pick(fromReport: val, strategy: .maxF1)
            let strategy = try JSONSerialization.jsonObject(with: Data(try await self.get(client, "/api/runs/\(runs.first)/strategy?strategy=max-f1").utf8)) as! [String: Any]
            for entry in strategy["classes"] as! [[String: Any]] {
                let expected = file.entry(named: entry["name"] as! String)?.confidence
                XCTAssertEqual((entry["point"] as? [Double])?.first, expected, "\(entry["name"]!)")
            }
            _ = try await self.get(client, "/api/runs/\(runs.first)/strategy?strategy=precision:7", status: .badRequest)
            let page = try await self.get(client, "/runs/\(runs.first)/thresholds")
            XCTAssertTrue(page.contains("id=\"picker\" data-run=\"\(runs.first)\" data-split=\"val\" data-shown=\"test\""))
        }
    }

    func testSaveWritesNewWeightsWithTheThresholdsAndKeepsTheRunsModel() async throws {
        let runs = try WorkbenchFixture.copy()
        let registry = try RunRegistry(file: runs.registryFile)
        let details = try registry.details(runs.first)
        let model = URL(fileURLWithPath: details.artifacts.first { $0.kind == "weights" }!.path)
        let before = try Data(contentsOf: model)
        let classes = try WeightsFile.read(contentsOf: model).header.classes
        let valPath = details.artifacts.first { $0.kind == "report" && $0.name == "val" }!.path
        let (valReport, valFolder) = try EvaluationReport.load(valPath)
        let withBoxes = valReport.classes.filter { $0.groundTruth > 0 }.map(\.name)
        XCTAssertFalse(withBoxes.isEmpty)
        let body = try JSONSerialization.data(withJSONObject: ["split": "val", "confidences": Dictionary(uniqueKeysWithValues: withBoxes.map { ($0, 0.25) })])
        try await serve(runs.registryFile) { client in
            let answer = try await client.execute(uri: "/api/runs/\(runs.first)/thresholds", method: .post, body: ByteBuffer(data: body)) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                return try JSONDecoder().decode(Workbench.SaveAnswer.self, from: Data(buffer: response.body))
            }
            let saved = try WeightsFile.read(contentsOf: URL(fileURLWithPath: answer.weights))
            let thresholds = try XCTUnwrap(saved.header.thresholds)
            XCTAssertEqual(Set(thresholds.map(\.className)), Set(withBoxes))
            for t in thresholds {
                XCTAssertEqual(t.confidence, 0.25)
                let c = valReport.classes.first { $0.name == t.className }!
                let p = try ReportFiles.readCurveCSV(valFolder.appendingPathComponent(c.curveCSV), groundTruthCount: c.groundTruth).point(atConfidence: 0.25)
                XCTAssertEqual(t.precision, p.precision); XCTAssertEqual(t.recall, p.recall); XCTAssertEqual(t.split, "val")
            }
            XCTAssertEqual(saved.header.classes, classes)
            XCTAssertEqual(try Data(contentsOf: model), before, "the run's model.slw is not changed")
            XCTAssertEqual(try ThresholdFile.load(URL(fileURLWithPath: answer.thresholds)).entry(named: withBoxes[0])?.confidence, 0.25)
            let kinds = try registry.artifacts(of: runs.first).filter { $0.kind.hasPrefix("picked") }
            XCTAssertEqual(Set(kinds.map(\.path)), [answer.weights, answer.thresholds])
            // The download links serve those files.
            try await client.execute(uri: answer.weightsURL, method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(Data(buffer: response.body), try Data(contentsOf: URL(fileURLWithPath: answer.weights)))
            }
            // Bad bodies change nothing.
            let count = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: answer.weights).deletingLastPathComponent().deletingLastPathComponent().path).count
            for (bad, expected) in [("{\"confidences\": {\"Text\": 2}}", "from 0 to 1"), ("{\"confidences\": {\"Nope\": 0.5}}", "not a class"),
                                    ("not json", "must be JSON"), (String(repeating: " ", count: 300_000), "over 256 KiB")] {
                try await client.execute(uri: "/api/runs/\(runs.first)/thresholds", method: .post, body: ByteBuffer(string: bad)) { response in
                    XCTAssertEqual(response.status, .badRequest)
                    XCTAssertTrue(String(buffer: response.body).contains(expected), String(buffer: response.body))
                }
            }
            let after = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: answer.weights).deletingLastPathComponent().deletingLastPathComponent().path).count
            XCTAssertEqual(after, count, "no folder for a refused save")
        }
    }

    func testCompareIsScreenlabComparesPage() async throws {
        let runs = try WorkbenchFixture.runs()
        let registry = try RunRegistry(file: runs.registryFile)
        let expected = RunComparison([try ComparedRun.fromRun(try registry.details(runs.first), label: runs.first, split: "test"),
                                      try ComparedRun.fromRun(try registry.details(runs.second), label: runs.second, split: "test")]).html()
        try await serve(runs.registryFile) { client in
            let page = try await self.get(client, "/compare?runs=\(runs.first),\(runs.second)")
            XCTAssertTrue(page.contains("data-runs=\"\(runs.first),\(runs.second)\""))
            // The comparison's own tables, unchanged.
            let table = try XCTUnwrap(expected.range(of: "<table").map { String(expected[$0.lowerBound...].prefix(2000)) })
            XCTAssertTrue(page.contains(table))
            _ = try await self.get(client, "/compare?runs=\(runs.first)", status: .badRequest)
            _ = try await self.get(client, "/compare?runs=\(runs.first),\(runs.first)", status: .badRequest)
        }
    }

    func testUnknownIdsAndPathsAreAnsweredNotServed() async throws {
        let runs = try WorkbenchFixture.copy()
        try await serve(runs.registryFile) { client in
            for uri in ["/runs/nope", "/runs/..%2F..%2Fetc", "/runs/\(runs.first)/files/weights/..%2F..%2Fetc%2Fpasswd",
                        "/runs/\(runs.first)/files/checkpoint/last", "/runs/\(runs.first)?split=train", "/nowhere",
                        "/runs/\(runs.first)/examples?split=test&class=Nope", "/runs/\(runs.first)/screens/99999.png?split=test&class=Text"] {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, .notFound, uri)
                    XCTAssertFalse(String(buffer: response.body).contains("root:"), uri)
                }
            }
            let both = try await self.get(client, "/runs/\(runs.first)/examples?split=test", status: .badRequest)
            XCTAssertTrue(both.contains("name a confusion cell"))
        }
        // A registry row edited to point outside the run folder is not followed. (The edit waits
        // out a busy registry, as `sqlite3` with .timeout would: the last connection of the
        // served workbench may still be closing, which checkpoints the WAL under a lock.)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: runs.registryFile.path, configuration: configuration)
        try await queue.write { db in
            try db.execute(sql: "UPDATE artifacts SET path = '/etc/passwd' WHERE run_id = ? AND kind = 'weights'", arguments: [runs.first])
        }
        try await serve(runs.registryFile) { client in
            let page = try await self.get(client, "/runs/\(runs.first)/files/weights/model", status: .notFound)
            XCTAssertTrue(page.contains("outside its run folder"))
        }
        // A run folder that is gone is said, with what to do.
        let folder = try XCTUnwrap(try RunRegistry(file: runs.registryFile).run(runs.second).runFolder)
        try FileManager.default.removeItem(atPath: folder)
        try await serve(runs.registryFile) { client in
            let page = try await self.get(client, "/runs/\(runs.second)/thresholds", status: .gone)
            XCTAssertTrue(page.contains("is gone"), page)
            _ = try await self.get(client, "/", status: .ok)
        }
    }
}
