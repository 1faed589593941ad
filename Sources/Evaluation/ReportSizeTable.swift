/// The size breakdown as tables (report.md, report.html and the terminal share the cells): per
/// scheme, one row per class with boxes in any bucket, and per bucket "AP50 / recall50 (boxes)".
enum ReportSizeTable {
    static func caption(_ sizes: SizeBreakdown) -> String {
        "\(sizes.scheme.name): per bucket of √area, AP at IoU 0.5 / recall at IoU 0.5 (boxes); boxes of other sizes are "
            + "ignored, as pycocotools' areaRng does, at most \(sizes.maxDetections) detections per image and class"
    }

    static func header(_ sizes: SizeBreakdown) -> [String] { ["UI type"] + sizes.scheme.buckets.map(\.name) }

    static func cell(ap50: Double?, recall: Double?, boxes: Int) -> String {
        guard boxes > 0 else { return "—" }
        return "\(ReportMarkdown.decimal(ap50)) / \(ReportMarkdown.decimal(recall)) (\(boxes))"
    }

    static func rows(_ report: EvaluationReport, _ sizes: SizeBreakdown) -> [[String]] {
        let buckets = sizes.scheme.buckets.indices
        var rows: [[String]] = []
        for (c, name) in report.classes.map(\.name).enumerated() where buckets.contains(where: { sizes.scores[$0][c].groundTruth > 0 }) {
            rows.append([name] + buckets.map { b in
                let s = sizes.scores[b][c]
                return cell(ap50: s.ap50, recall: s.recall50, boxes: s.groundTruth)
            })
        }
        rows.append(["Mean"] + buckets.map { cell(ap50: sizes.meanAP50(bucket: $0), recall: sizes.meanRecall50(bucket: $0), boxes: sizes.groundTruth(bucket: $0)) })
        rows.append(["Mean AP@0.5:0.95"] + buckets.map { b in sizes.groundTruth(bucket: b) > 0 ? ReportMarkdown.decimal(sizes.meanAP50to95(bucket: b)) : "—" })
        return rows
    }

    static func markdown(_ report: EvaluationReport) -> String {
        guard let all = report.sizes, !all.isEmpty else { return "" }
        var out = "\n## By box size\n"
        for sizes in all {
            out += "\n\(caption(sizes)).\n\n"
            let header = header(sizes)
            out += "| " + header.joined(separator: " | ") + " |\n|---|" + String(repeating: "---:|", count: header.count - 1) + "\n"
            let rows = rows(report, sizes)
            for (i, row) in rows.enumerated() {
                let name = i >= rows.count - 2 ? "**\(row[0])**" : row[0]
                out += "| " + ([name] + row.dropFirst()).joined(separator: " | ") + " |\n"
            }
        }
        return out
    }
}
