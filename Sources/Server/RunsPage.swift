import Foundation
import Hummingbird
import Registry

/// `/`: the registry as a table — filter, sort, tick runs to compare; rows of running runs are
/// refreshed from `/api/runs` while the page is open.
extension Workbench {
    /// One row of `/api/runs` (and of the table).
    struct RunRow: Codable {
        var id: String
        var experiment: String
        var status: String
        var startedAt: String?
        var finishedAt: String?
        var epochsDone: Int
        var epochsPlanned: Int?
        var bestEpoch: Int?
        var valMAP50: Double?
        var testMAP50: Double?
        var testWeightedMAP50: Double?
        var testCenterMAP: Double?
        var imagesPerSecond: Double?
        /// 1 for the best test mAP@0.5 among the runs that have one.
        var rank: Int?
        var stopReason: String?

        enum CodingKeys: String, CodingKey {
            case id, experiment, status, rank
            case startedAt = "started_at", finishedAt = "finished_at", epochsDone = "epochs_done", epochsPlanned = "epochs_planned"
            case bestEpoch = "best_epoch", valMAP50 = "val_map50", testMAP50 = "test_map50", testWeightedMAP50 = "test_weighted_map50"
            case testCenterMAP = "test_map_center", imagesPerSecond = "images_per_second", stopReason = "stop_reason"
        }
    }

    func runRows() async throws -> [RunRow] {
        let registry = self.registry
        let runs = try await offload { try registry.value.runs() }
        var rows = runs.map { run in
            RunRow(id: run.id, experiment: run.experiment, status: run.status.rawValue, startedAt: run.startedAt, finishedAt: run.finishedAt,
                   epochsDone: run.epochsDone, epochsPlanned: run.epochsPlanned, bestEpoch: run.bestEpoch,
                   valMAP50: run.bestValMAP50 ?? run.val.map50, testMAP50: run.test.map50, testWeightedMAP50: run.test.weightedMAP50,
                   testCenterMAP: run.test.mapCenter, imagesPerSecond: run.imagesPerSecond, rank: nil, stopReason: run.stopReason)
        }
        let ranked = rows.indices.filter { rows[$0].testMAP50 != nil }.sorted { rows[$0].testMAP50! > rows[$1].testMAP50! }
        for (place, index) in ranked.enumerated() { rows[index].rank = place + 1 }
        return rows
    }

    func runsJSON() async throws -> Response { try Self.json(try await runRows()) }

    func runsPage() async throws -> Response {
        let rows = try await runRows()
        let columns: [(key: String, title: String, numeric: Bool)] = [
            ("id", "Run", false), ("experiment", "Experiment", false), ("status", "Status", false), ("started_at", "Started", false),
            ("epochs", "Epochs", true), ("val_map50", "Val mAP@0.5", true), ("test_map50", "Test mAP@0.5", true),
            ("test_weighted_map50", "Weighted", true), ("test_map_center", "Center-hit", true), ("rank", "Rank", true),
            ("images_per_second", "img/s", true),
        ]
        var body = "<h1>Runs</h1>\n<p class=\"muted\">Registry <code>\(HTML.escape(registryFile.path))</code> · \(rows.count) runs"
            + " · test figures on each run's test split; rank by test mAP@0.5.</p>\n"
        body += """
        <div class="toolbar"><input id="filter" type="search" placeholder="Filter by experiment or run id" aria-label="Filter">
        <select id="status-filter" aria-label="Status"><option value="">any status</option>
        \(RunRecord.Status.allCases.map { "<option>\($0.rawValue)</option>" }.joined())</select>
        <button id="compare" disabled>Compare ticked runs</button></div>

        """
        body += "<table id=\"runs\" class=\"sortable\"><thead><tr><th></th>"
            + columns.map { "<th data-key=\"\($0.key)\"\($0.numeric ? " class=\"num\"" : "")>\(HTML.escape($0.title))</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        for row in rows { body += Self.runRowHTML(row) }
        body += "</tbody></table>\n"
        if rows.isEmpty {
            body += "<p>No runs yet: <code>screenlab train Experiments/quickstart.yaml</code> records one here.</p>\n"
        }
        return Self.html(HTML.page(title: "Runs", body: body))
    }

    static func runRowHTML(_ row: RunRow) -> String {
        let e = HTML.escape
        let epochs = "\(row.epochsDone)" + (row.epochsPlanned.map { " / \($0)" } ?? "")
        func cell(_ key: String, _ value: Double?, digits: Int = 3) -> String {
            "<td class=\"num\" data-key=\"\(key)\" data-value=\"\(HTML.sortValue(value))\">\(HTML.figure(value, digits: digits))</td>"
        }
        let reason = row.stopReason.map { " title=\"\(e($0))\"" } ?? ""
        return "<tr data-run-id=\"\(e(row.id))\" data-status=\"\(e(row.status))\" data-experiment=\"\(e(row.experiment))\">"
            + "<td><input type=\"checkbox\" class=\"pick\" value=\"\(e(row.id))\" aria-label=\"compare \(e(row.id))\"></td>"
            + "<td data-key=\"id\" data-value=\"\(e(row.id))\"><a href=\"/runs/\(HTML.urlComponent(row.id))\">\(e(row.id))</a></td>"
            + "<td data-key=\"experiment\" data-value=\"\(e(row.experiment))\">\(e(row.experiment))</td>"
            + "<td data-key=\"status\" data-value=\"\(e(row.status))\"><span class=\"status \(e(row.status))\"\(reason)>\(e(row.status))</span></td>"
            + "<td data-key=\"started_at\" data-value=\"\(e(row.startedAt ?? ""))\">\(e(Self.shortDate(row.startedAt)))</td>"
            + "<td class=\"num\" data-key=\"epochs\" data-value=\"\(row.epochsDone)\">\(e(epochs))</td>"
            + cell("val_map50", row.valMAP50) + cell("test_map50", row.testMAP50) + cell("test_weighted_map50", row.testWeightedMAP50)
            + cell("test_map_center", row.testCenterMAP)
            + "<td class=\"num\" data-key=\"rank\" data-value=\"\(row.rank.map(String.init) ?? "")\">\(row.rank.map(String.init) ?? "—")</td>"
            + cell("images_per_second", row.imagesPerSecond, digits: 1)
            + "</tr>\n"
    }

    /// "2026-11-27T14:08:49Z" → "2026-11-27 14:08".
    static func shortDate(_ stamp: String?) -> String {
        guard let stamp, stamp.count >= 16 else { return stamp ?? "—" }
        return stamp.prefix(10) + " " + stamp.dropFirst(11).prefix(5)
    }
}
