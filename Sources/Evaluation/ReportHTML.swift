import Foundation
import Plotting

/// report.html: one self-contained file (inline CSS and SVG, no scripts or external files).
enum ReportHTML {
    static let style = """
    body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1100px}
    table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ddd;padding:4px 8px;text-align:right}
    td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}.warn{color:#a33}
    .grid{display:flex;flex-wrap:wrap;gap:8px}.grid svg{width:520px;height:auto}
    .pos{color:#1a7f37}.neg{color:#c62828}
    """

    static func page(title: String, body: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(SVG.escape(title))</title><style>\(style)</style></head><body>\n\(body)</body></html>\n"
    }

    static func table(header: [String], rows: [[String]]) -> String {
        var out = "<table><tr>" + header.map { "<th>\(SVG.escape($0))</th>" }.joined() + "</tr>\n"
        for row in rows { out += "<tr>" + row.map { "<td>\($0)</td>" }.joined() + "</tr>\n" }
        return out + "</table>\n"
    }

    static func render(_ outcome: EvaluationOutcome, charts list: [(String, String)]) -> String {
        let r = outcome.report
        let p = ReportMarkdown.percent, e = SVG.escape
        var body = "<h1>Evaluation report</h1>\n<ul>"
        body += "<li>Data: \(e(r.data.description)), \(r.images) images</li>"
        body += "<li>Predictions: \(e(r.predictions)) (\(e(ReportMarkdown.predictionCounts(r))))</li>"
        body += "<li>Matching: IoU ≥ \(r.iouThreshold), \(r.interpolation) interpolation, \(r.maxDetections.map { "at most \($0) detections per image and class" } ?? "no detection cap")</li>"
        if let t = r.thresholds {
            body += "<li>Thresholds: \(e(t.file)) (\(e(t.strategy))), <b>picked on</b> \(e(t.pickedOn.description)), <b>reported on</b> \(e(t.reportedOn.description))</li>"
        }
        for warning in outcome.warnings { body += "<li class=\"warn\">\(e(warning))</li>" }
        for note in r.notes { body += "<li>Note: \(e(note))</li>" }
        body += "</ul>\n<h2>Average precision</h2>\n"
        var rows = r.classes.map { [e($0.name), p($0.ap50), p($0.apCenter), String($0.groundTruth)] }
        rows.append(["<b>Mean</b>", p(r.map50), p(r.mapCenter), ""])
        rows.append(["<b>Weighted mean</b>", p(r.weightedMap50), p(r.weightedMapCenter), String(r.classes.map(\.groundTruth).reduce(0, +))])
        body += table(header: ["UI type", "AP (IoU ≥ \(r.iouThreshold))", "AP (center)", "Count"], rows: rows)
        if let coco = r.coco {
            body += "<h2>COCO summary (mAP@0.5:0.95, AR@\(coco.maxDetections))</h2>\n<p>\(e(ReportCOCOTable.caption(coco))).</p>\n"
            body += table(header: ReportCOCOTable.header(coco), rows: ReportCOCOTable.rows(r, coco).map { $0.map(e) })
        }
        if let all = r.sizes, !all.isEmpty {
            body += "<h2>By box size</h2>\n"
            for sizes in all {
                body += "<p>\(e(ReportSizeTable.caption(sizes))).</p>\n"
                body += table(header: ReportSizeTable.header(sizes), rows: ReportSizeTable.rows(r, sizes).map { $0.map(e) })
            }
        }
        if r.thresholds != nil {
            body += "<h2>At the chosen thresholds</h2>\n"
            let d = ReportMarkdown.decimal
            body += table(header: ["UI type", "Confidence", "Precision", "Recall", "F1", "Detections kept / all"], rows: r.classes.map {
                [e($0.name), $0.threshold.map { String(format: "%.3f", $0) } ?? "—", d($0.precision), d($0.recall), d($0.f1), ReportMarkdown.keptOfAll($0)]
            })
        }
        let charts = Dictionary(list, uniquingKeysWith: { a, _ in a })
        body += "<h2>Plots</h2>\n<div class=\"grid\">\n"
        for name in ["ap", "pr", "f1", "confusion", "confusion-normalized"] { body += charts[name, default: ""] }
        body += "</div>\n<h2>Per class</h2>\n<div class=\"grid\">\n"
        for (name, svg) in list where name.hasPrefix("pr-") || name.hasPrefix("f1-") { body += svg }
        body += "</div>\n"
        return page(title: "Evaluation report", body: body)
    }
}
