import Foundation

/// report.md: the paper's Table 1 layout (class, AP@0.5, AP center, count; mean and weighted mean).
enum ReportMarkdown {
    static func percent(_ value: Double?) -> String { value.map { String(format: "%.1f%%", $0 * 100) } ?? "—" }
    static func decimal(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "—" }
    /// "kept / all" detections at a class's threshold ("— / all" without one).
    static func keptOfAll(_ c: EvaluationReport.ClassReport) -> String { "\(c.keptDetections.map(String.init) ?? "—") / \(c.detections)" }
    /// "N scored" plus ", M skipped (reason: count, …)" under --lenient.
    static func predictionCounts(_ r: EvaluationReport) -> String {
        guard !r.predictionsSkipped.isEmpty else { return "\(r.predictionsRead) scored" }
        let reasons = r.predictionsSkipped.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return "\(r.predictionsRead) scored, \(r.predictionsSkipped.values.reduce(0, +)) skipped (\(reasons))"
    }

    static func render(_ outcome: EvaluationOutcome) -> String {
        let r = outcome.report
        var out = "# Evaluation report\n\n"
        out += "- Data: \(r.data.description), \(r.images) images\n"
        out += "- Predictions: \(r.predictions) (\(predictionCounts(r)))\n"
        out += "- Matching: IoU ≥ \(r.iouThreshold), \(r.interpolation) interpolation, "
        out += r.maxDetections.map { "at most \($0) detections per image and class\n" } ?? "no detection cap\n"
        if let t = r.thresholds {
            out += "- Thresholds: \(t.file) (strategy \(t.strategy)), **picked on** \(t.pickedOn.description), **reported on** \(t.reportedOn.description)\n"
        }
        for warning in outcome.warnings { out += "- ⚠️ \(warning)\n" }
        for note in r.notes { out += "- Note: \(note)\n" }
        out += "\n## Average precision\n\n"
        out += "| UI type | AP (IoU ≥ \(r.iouThreshold)) | AP (center) | Count |\n|---|---:|---:|---:|\n"
        for c in r.classes { out += "| \(c.name) | \(percent(c.ap50)) | \(percent(c.apCenter)) | \(c.groundTruth) |\n" }
        out += "| **Mean** | \(percent(r.map50)) | \(percent(r.mapCenter)) | |\n"
        out += "| **Weighted mean** | \(percent(r.weightedMap50)) | \(percent(r.weightedMapCenter)) | \(r.classes.map(\.groundTruth).reduce(0, +)) |\n"
        out += ReportCOCOTable.markdown(r)
        out += ReportSizeTable.markdown(r)
        if r.thresholds != nil {
            out += "\n## At the chosen thresholds (\(r.data.description))\n\n"
            out += "| UI type | Confidence | Precision | Recall | F1 | Detections kept / all |\n|---|---:|---:|---:|---:|---:|\n"
            for c in r.classes {
                out += "| \(c.name) | \(c.threshold.map { String(format: "%.3f", $0) } ?? "—") | \(decimal(c.precision)) | \(decimal(c.recall)) | \(decimal(c.f1)) | \(keptOfAll(c)) |\n"
            }
        }
        out += "\n## Confusion matrix (rows: true, columns: predicted)\n\n"
        let labels = r.confusion.labels
        out += "| true \\ predicted | " + labels.joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---:|", count: labels.count) + "\n"
        for (label, row) in zip(labels, r.confusion.counts) {
            out += "| \(label) | " + row.map(String.init).joined(separator: " | ") + " |\n"
        }
        out += "\nFiles: `metrics.json`, `curves/*.csv` (every operating point), `confusion.csv`, `confusion-normalized.csv`, `plots/*.svg`, `report.html`.\n"
        return out
    }
}
