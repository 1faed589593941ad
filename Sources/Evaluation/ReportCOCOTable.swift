/// COCO's summary as a table (report.md, report.html and the terminal share the cells), with the
/// detection cap in the caption: COCO's default is 100, ScreenLab's 300, and the numbers differ.
enum ReportCOCOTable {
    static func caption(_ coco: COCOSummaryReport) -> String {
        "COCO summary as pycocotools' COCOeval computes it (bbox, IoU 0.50:0.05:0.95, 101-point interpolation, area 'all'), "
            + "at most \(coco.maxDetections) detections per image and class (maxDets; COCO's default is 100)"
    }

    static func header(_ coco: COCOSummaryReport) -> [String] {
        ["UI type", "AP@0.5:0.95", "AP50", "AP75"] + coco.caps.map { "AR@\($0)" }
    }

    static func rows(_ report: EvaluationReport, _ coco: COCOSummaryReport) -> [[String]] {
        let p = ReportMarkdown.percent
        var rows = report.classes.map { c in
            [c.name, p(c.coco?.ap), p(c.coco?.ap50), p(c.coco?.ap75)] + coco.caps.map { p(c.coco?.ar[String($0)]) }
        }
        rows.append(["Mean", p(coco.map), p(coco.map50), p(coco.map75)] + coco.caps.map { p(coco.mar[String($0)]) })
        return rows
    }

    static func markdown(_ report: EvaluationReport) -> String {
        guard let coco = report.coco else { return "" }
        var out = "\n## COCO summary (mAP@0.5:0.95, AR@\(coco.maxDetections))\n\n\(caption(coco)). A class without ground truth shows — (pycocotools: -1) and is left out of the mean.\n\n"
        let header = header(coco)
        out += "| " + header.joined(separator: " | ") + " |\n|---|" + String(repeating: "---:|", count: header.count - 1) + "\n"
        let rows = rows(report, coco)
        for (i, row) in rows.enumerated() {
            let name = i == rows.count - 1 ? "**\(row[0])**" : row[0]
            out += "| " + ([name] + row.dropFirst()).joined(separator: " | ") + " |\n"
        }
        return out
    }
}
