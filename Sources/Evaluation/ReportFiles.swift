import Foundation
import Support

/// File names, CSV text and the writing of a report folder.
public enum ReportFiles {
    /// File-name-safe, unique names for classes: "Checkbox (Selected)" → "checkbox-selected".
    public static func slugs(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.enumerated().map { index, name in
            var slug = ""
            var dash = false
            for scalar in name.lowercased().unicodeScalars {
                if CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII {
                    slug.unicodeScalars.append(scalar); dash = false
                } else if !dash && !slug.isEmpty {
                    slug += "-"; dash = true
                }
            }
            while slug.hasSuffix("-") { slug.removeLast() }
            if slug.isEmpty { slug = "class-\(index)" }
            if used.contains(slug) { slug += "-\(index)" }
            used.insert(slug)
            return slug
        }
    }

    public static func curveCSV(_ curve: OperatingCurve) -> String {
        var out = "confidence,true_positives,false_positives,precision,recall,f1\n"
        for p in curve.points {
            out += "\(p.confidence),\(p.truePositives),\(p.falsePositives),\(p.precision),\(p.recall),\(p.f1)\n"
        }
        return out
    }

    /// Reads a curve CSV written by `curveCSV`, recomputing P/R/F1 from the counts.
    public static func readCurveCSV(_ url: URL, groundTruthCount: Int) throws -> OperatingCurve {
        let text: String
        do { text = try ReadableFile.text(of: url) } catch let error as FileReadError {
            throw EvaluationError.badReport(path: url.path, reason: "curve file: \(error.reason)")
        }
        // Split on the bytes, not on Characters: a test report's curves are ~75,000 lines, and
        // grapheme-by-grapheme splitting made reading them most of `compare`'s page.
        let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), comma = UInt8(ascii: ",")
        let lines = text.utf8.split { $0 == newline || $0 == carriageReturn }.map { Substring($0) }
        guard lines.first == "confidence,true_positives,false_positives,precision,recall,f1" else {
            throw EvaluationError.badReport(path: url.path, reason: "line 1: expected the header confidence,true_positives,false_positives,precision,recall,f1")
        }
        var points: [OperatingPoint] = []
        points.reserveCapacity(lines.count - 1)
        for (number, line) in lines.enumerated().dropFirst() {
            let fields = line.utf8.split(separator: comma).map { Substring($0) }
            guard fields.count == 6, let confidence = Double(fields[0]), confidence.isFinite,
                  let tp = Int(fields[1]), let fp = Int(fields[2]), tp >= 0, fp >= 0 else {
                throw EvaluationError.badReport(path: url.path, reason: "line \(number + 1): expected confidence,tp,fp,precision,recall,f1")
            }
            // A hand-edited −2 would otherwise become a threshold of −2.
            guard (0...1).contains(confidence) else {
                throw EvaluationError.badReport(path: url.path, reason: "line \(number + 1): confidence \(fields[0]) is outside [0, 1]; curves hold detection confidences")
            }
            guard tp <= groundTruthCount else {
                throw EvaluationError.badReport(path: url.path, reason: "line \(number + 1): \(tp) true positives but the class has \(groundTruthCount) ground-truth boxes")
            }
            points.append(OperatingPoint(confidence: confidence, truePositives: tp, falsePositives: fp, groundTruthCount: groundTruthCount))
        }
        return OperatingCurve(points: points, groundTruthCount: groundTruthCount)
    }

    public static func matrixCSV<T>(_ labels: [String], _ rows: [[T]], format: (T) -> String) -> String {
        var out = "true\\predicted," + labels.map(csvField).joined(separator: ",") + "\n"
        for (label, row) in zip(labels, rows) {
            out += csvField(label) + "," + row.map(format).joined(separator: ",") + "\n"
        }
        return out
    }

    static func csvField(_ text: String) -> String {
        text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// Writes metrics.json, report.md, report.html, curves/*.csv, confusion CSVs and plots/*.svg.
    /// Returns the paths written, relative to `folder`. All or nothing: everything is staged and
    /// moved into `folder` once complete, so a failure (in the curves, say) leaves no new
    /// metrics.json beside an old report.
    @discardableResult
    public static func write(_ outcome: EvaluationOutcome, to folder: URL, notReplacing inputs: [URL] = [],
                             alsoWriting extra: [(relativePath: String, contents: Data)] = []) throws -> [String] {
        let output = try OutputFolder(folder, existing: .merge, notReplacing: inputs)
        var written: [String] = []
        for (relative, contents) in extra {
            try output.write(contents, to: relative)
            written.append(relative)
        }
        func put(_ relative: String, _ text: String) throws {
            try output.write(text, to: relative)
            written.append(relative)
        }
        let report = outcome.report
        try output.write(try report.jsonData() + Data("\n".utf8), to: "metrics.json")
        written.append("metrics.json")
        for (c, evaluation) in outcome.result.classes.enumerated() {
            try put(report.classes[c].curveCSV, curveCSV(evaluation.curve))
        }
        let matrix = outcome.confusion
        try put("confusion.csv", matrixCSV(matrix.labels, matrix.counts) { String($0) })
        try put("confusion-normalized.csv", matrixCSV(matrix.labels, matrix.rowNormalized) { String(format: "%.6f", $0) })
        let charts = ReportPlots(outcome: outcome).all()
        for (name, svg) in charts { try put("plots/\(name).svg", svg) }
        try put("report.md", ReportMarkdown.render(outcome))
        try put("report.html", ReportHTML.render(outcome, charts: charts))
        try output.commit()
        return written
    }
}

extension ReportFiles {
    /// The Table 1 layout for the terminal.
    public static func summary(_ outcome: EvaluationOutcome) -> String {
        let r = outcome.report
        let width = max(14, r.classes.map(\.name.count).max() ?? 0)
        func pad(_ s: String) -> String { s.padding(toLength: width, withPad: " ", startingAt: 0) }
        func cell(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        let p = ReportMarkdown.percent
        var out = "\(r.data.description): \(r.images) images, \(r.predictionsRead) detections, IoU ≥ \(r.iouThreshold), \(r.interpolation)\n"
        var header = pad("UI type") + cell("AP50", 8) + cell("AP center", 11) + cell("Count", 8)
        if r.thresholds != nil { header += cell("conf", 7) + cell("P", 7) + cell("R", 7) + cell("F1", 7) }
        out += header + "\n"
        for c in r.classes {
            var line = pad(c.name) + cell(p(c.ap50), 8) + cell(p(c.apCenter), 11) + cell(String(c.groundTruth), 8)
            if r.thresholds != nil {
                line += [c.threshold, c.precision, c.recall, c.f1].map { cell($0.map { String(format: "%.2f", $0) } ?? "—", 7) }.joined()
            }
            out += line + "\n"
        }
        out += pad("Mean") + cell(p(r.map50), 8) + cell(p(r.mapCenter), 11) + "\n"
        out += pad("Weighted mean") + cell(p(r.weightedMap50), 8) + cell(p(r.weightedMapCenter), 11)
            + cell(String(r.classes.map(\.groundTruth).reduce(0, +)), 8)
        if let coco = r.coco {
            out += "\n\nCOCO (pycocotools COCOeval), at most \(coco.maxDetections) detections per image and class:\n"
            let header = ReportCOCOTable.header(coco), rows = ReportCOCOTable.rows(r, coco)
            out += pad(header[0]) + header.dropFirst().map { cell($0, 12) }.joined() + "\n"
            for row in rows { out += pad(row[0]) + row.dropFirst().map { cell($0, 12) }.joined() + "\n" }
            out.removeLast()
        }
        for sizes in r.sizes ?? [] {
            out += "\n\n\(ReportSizeTable.caption(sizes)):\n"
            let header = ReportSizeTable.header(sizes), rows = ReportSizeTable.rows(r, sizes)
            let w = max(12, rows.flatMap { $0.dropFirst() }.map(\.count).max() ?? 0) + 2
            let first = max(width, rows.map { $0[0].count }.max() ?? 0)
            func padFirst(_ s: String) -> String { s.padding(toLength: first, withPad: " ", startingAt: 0) }
            out += padFirst(header[0]) + header.dropFirst().map { cell($0, w) }.joined() + "\n"
            for row in rows { out += padFirst(row[0]) + row.dropFirst().map { cell($0, w) }.joined() + "\n" }
            out.removeLast()
        }
        if let t = r.thresholds { out += "\nthresholds picked on \(t.pickedOn.description); reported on \(t.reportedOn.description)" }
        return out
    }
}
