import Foundation
import Support

extension ThresholdFile {
    /// Picks one confidence per class from a report folder's curves (`screenlab thresholds pick`).
    /// Returns the file and warnings (fallbacks to max-F1, classes left without a threshold).
    public static func pick(fromReport path: String, strategy: ThresholdStrategy) throws -> (file: ThresholdFile, warnings: [String]) {
        let (report, folder) = try EvaluationReport.load(path)
        var entries: [Entry] = []
        var warnings: [String] = []
        for c in report.classes {
            // curve_csv comes from the report's metrics.json: it must name a file inside the report.
            guard (try? OutputFolder.components(of: c.curveCSV)) != nil else {
                throw EvaluationError.badReport(path: folder.appendingPathComponent("metrics.json").path,
                                                reason: "class '\(c.name)': curve_csv '\(c.curveCSV)' is not a path inside the report folder")
            }
            let curve = try ReportFiles.readCurveCSV(folder.appendingPathComponent(c.curveCSV), groundTruthCount: c.groundTruth)
            let picked = ThresholdPicker.pick(curve, className: c.name, strategy: strategy, split: report.data.description)
            if picked.fellBack || picked.point == nil, let note = picked.note { warnings.append("\(c.name): \(note)") }
            entries.append(Entry(name: c.name, confidence: picked.point?.confidence, precision: picked.point?.precision,
                                 recall: picked.point?.recall, f1: picked.point?.f1, fallback: picked.fellBack, note: picked.note))
        }
        let file = ThresholdFile(strategy: strategy.description, iouThreshold: report.iouThreshold, pickedOn: report.data,
                                 report: folder.standardizedFileURL.path, classes: entries)
        return (file, warnings)
    }
}
