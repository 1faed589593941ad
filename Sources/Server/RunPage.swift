import Evaluation
import Foundation
import Hummingbird
import Registry

/// `/runs/ID?split=S`: one run — what it is, its curves by epoch, its report on a split (per
/// class, PR and F1 curves, the confusion matrix whose cells and classes open the screens
/// behind them), its files, its config.
extension Workbench {
    func runPage(id: String, query: Query) async throws -> Response {
        let details = try await details(id)
        let run = details.run
        let e = HTML.escape
        let splits = RunFiles.reportSplits(of: details)
        let split = query["split"] ?? splits.first
        if let split, !splits.contains(split) {
            throw WorkbenchError.notFound("run \(id) has no report on '\(split)'" + (splits.isEmpty ? "" : "; it has \(splits.joined(separator: ", "))"))
        }
        let runLink = "/runs/\(HTML.urlComponent(id))"
        var body = "<h1>\(e(run.experiment)) <small>\(e(run.id))</small> <span class=\"status \(e(run.status.rawValue))\">\(e(run.status.rawValue))</span></h1>\n"
        var facts: [(String, String)] = [
            ("Folder", run.runFolder ?? "—"), ("Data", [run.dataset, run.trainSplit.map { "train: \($0)" }, run.valSplit.map { "val: \($0)" },
                                                       run.testSplit.map { "test: \($0)" }].compactMap { $0 }.joined(separator: " · ")),
            ("Started", Self.shortDate(run.startedAt)), ("Finished", Self.shortDate(run.finishedAt)),
            ("Epochs", "\(run.epochsDone)" + (run.epochsPlanned.map { " of \($0)" } ?? "") + (run.bestEpoch.map { " · best \($0)" } ?? "")),
            ("Speed", run.imagesPerSecond.map { String(format: "%.1f images/s", $0) } ?? "—"),
            ("Host", [run.host, run.pid.map { "pid \($0)" }].compactMap { $0 }.joined(separator: " · ")),
        ]
        if let commit = run.gitCommit { facts.append(("Commit", commit)) }
        if let reason = run.stopReason { facts.append(("Stopped", reason)) }
        for problem in run.problems { facts.append(("Registry problem", problem)) }
        body += "<table class=\"facts\">" + facts.map { "<tr><th>\(e($0.0))</th><td>\(e($0.1))</td></tr>" }.joined() + "</table>\n"

        var actions: [String] = []
        if splits.contains(run.valSplit ?? "val") { actions.append("<a class=\"button\" href=\"\(runLink)/thresholds\">Pick thresholds</a>") }
        for artifact in details.artifacts where ["weights", "thresholds", "picked-weights", "picked-thresholds"].contains(artifact.kind) {
            let label = artifact.kind.hasPrefix("picked") ? "\(artifact.kind.dropFirst(7)) saved \(artifact.name)" : URL(fileURLWithPath: artifact.path).lastPathComponent
            actions.append("<a href=\"\(runLink)/files/\(HTML.urlComponent(artifact.kind))/\(HTML.urlComponent(artifact.name))\" download>⤓ \(e(label))</a>")
        }
        if !actions.isEmpty { body += "<p class=\"actions\">" + actions.joined(separator: " ") + "</p>\n" }

        let compared = try ComparedRun.fromRun(details, label: id, split: split ?? "test")
        let charts = RunComparison([compared]).epochCharts()
        if !charts.isEmpty {
            body += "<h2>By epoch</h2>\n<div class=\"grid\" id=\"epoch-charts\">" + charts.map { "<figure data-chart=\"\(e($0.name))\">\($0.svg)</figure>" }.joined() + "</div>\n"
        }

        if let split {
            body += "<h2>Report on \(e(split))</h2>\n"
            if splits.count > 1 {
                body += "<p class=\"tabs\">" + splits.map { s in
                    s == split ? "<strong>\(e(s))</strong>" : "<a href=\"\(runLink)?split=\(HTML.urlComponent(s))\">\(e(s))</a>"
                }.joined(separator: " · ") + "</p>\n"
            }
            let (report, folder) = try RunFiles.report(of: details, split: split)
            body += Self.reportSection(report, folder: folder, runLink: runLink, split: split)
        } else {
            body += "<p class=\"muted\">No evaluation report yet (\(e(run.status.rawValue))): a run writes its reports when it ends.</p>\n"
        }
        if let config = run.configYAML {
            body += "<h2>Config</h2>\n<pre class=\"config\">\(e(config))</pre>\n"
        }
        return Self.html(HTML.page(title: "\(run.experiment) \(run.id)", body: body))
    }

    static func reportSection(_ report: EvaluationReport, folder: URL, runLink: String, split: String) -> String {
        let e = HTML.escape
        let examples = "\(runLink)/examples?split=\(HTML.urlComponent(split))"
        var out = "<p class=\"means\">mAP@0.5 <strong data-metric=\"map50\">\(HTML.figure(report.map50))</strong> · weighted "
            + "<strong data-metric=\"weighted_map50\">\(HTML.figure(report.weightedMap50))</strong> · center-hit "
            + "<strong data-metric=\"map_center\">\(HTML.figure(report.mapCenter))</strong>"
            + (report.coco.flatMap { $0.map }.map { " · COCO mAP@0.5:0.95 <strong>\(HTML.figure($0))</strong>" } ?? "")
            + " · \(report.images) screens · IoU \(report.iouThreshold)</p>\n"
        out += "<table id=\"classes\" class=\"sortable\"><thead><tr><th data-key=\"class\">Class</th><th class=\"num\" data-key=\"gt\">Boxes</th>"
            + "<th class=\"num\" data-key=\"det\">Detections</th><th class=\"num\" data-key=\"ap50\">AP@0.5</th><th class=\"num\" data-key=\"apc\">Center-hit AP</th>"
            + "<th class=\"num\" data-key=\"thr\">Threshold</th><th class=\"num\" data-key=\"p\">Precision</th><th class=\"num\" data-key=\"r\">Recall</th>"
            + "<th class=\"num\" data-key=\"f1\">F1</th></tr></thead><tbody>\n"
        for c in report.classes {
            func cell(_ key: String, _ value: Double?) -> String {
                "<td class=\"num\" data-key=\"\(key)\" data-value=\"\(HTML.sortValue(value))\">\(HTML.figure(value))</td>"
            }
            let name = c.groundTruth > 0 || c.detections > 0
                ? "<a href=\"\(examples)&amp;class=\(HTML.urlComponent(c.name))\" title=\"its errors on the screens\">\(e(c.name))</a>" : e(c.name)
            out += "<tr data-class=\"\(e(c.name))\"><td data-key=\"class\" data-value=\"\(e(c.name))\">\(name)</td>"
                + "<td class=\"num\" data-key=\"gt\" data-value=\"\(c.groundTruth)\">\(c.groundTruth)</td>"
                + "<td class=\"num\" data-key=\"det\" data-value=\"\(c.detections)\">\(c.detections)</td>"
                + cell("ap50", c.ap50) + cell("apc", c.apCenter) + cell("thr", c.threshold) + cell("p", c.precision) + cell("r", c.recall) + cell("f1", c.f1)
                + "</tr>\n"
        }
        out += "</tbody></table>\n"
        // The report's own curve pictures (fixed names inside the registered report folder).
        let plots = ["pr.svg", "f1.svg"].compactMap { name -> String? in
            try? String(contentsOf: folder.appendingPathComponent("plots").appendingPathComponent(name), encoding: .utf8)
        }
        if !plots.isEmpty {
            out += "<h3>Precision–recall and F1 by confidence</h3>\n<div class=\"grid\">" + plots.map { "<figure>\($0)</figure>" }.joined() + "</div>\n"
        }
        out += confusionTable(report.confusion, examples: examples)
        return out
    }

    /// The confusion matrix as a table: rows true class, columns predicted, background last;
    /// each non-empty cell links to its screens, shaded by its share of the row.
    static func confusionTable(_ confusion: EvaluationReport.Confusion, examples: String) -> String {
        let e = HTML.escape
        let labels = confusion.labels
        // Classes with nothing in their row and column are left out (vins-ui has no checkboxes).
        let shown = labels.indices.filter { i in
            confusion.counts[i].contains { $0 > 0 } || confusion.counts.contains { $0.indices.contains(i) && $0[i] > 0 }
        }
        guard !shown.isEmpty else { return "" }
        var out = "<h3>Confusion matrix <small>(rows: true class; columns: predicted; at each class's threshold; click a cell for its screens)</small></h3>\n"
        out += "<div class=\"scroll\"><table id=\"confusion\" class=\"confusion\"><thead><tr><th>true ↓ predicted →</th>"
            + shown.map { "<th class=\"rot\"><span>\(e(labels[$0]))</span></th>" }.joined() + "</tr></thead><tbody>\n"
        for t in shown {
            let total = max(1, confusion.counts[t].reduce(0, +))
            out += "<tr><th>\(e(labels[t]))</th>"
            for p in shown {
                let count = confusion.counts[t][p]
                let share = Double(count) / Double(total)
                let tone = t == p ? "ok" : "err"
                let style = count > 0 ? " style=\"--share:\(String(format: "%.3f", share))\"" : ""
                let attributes = "data-truth=\"\(e(labels[t]))\" data-predicted=\"\(e(labels[p]))\" data-count=\"\(count)\""
                if count > 0 && !(t == labels.count - 1 && p == labels.count - 1) {
                    let link = "\(examples)&amp;truth=\(HTML.urlComponent(labels[t]))&amp;predicted=\(HTML.urlComponent(labels[p]))"
                    out += "<td class=\"cell \(tone)\" \(attributes)\(style)><a href=\"\(link)\">\(count)</a></td>"
                } else {
                    out += "<td class=\"cell\" \(attributes)>\(count > 0 ? "\(count)" : "")</td>"
                }
            }
            out += "</tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }
}
