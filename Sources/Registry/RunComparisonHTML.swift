import Data
import Evaluation
import Foundation
import Support
import Plotting

/// compare.html: one self-contained page (inline CSS and SVG): the evaluator's comparison
/// tables, then the runs' loss and val mAP by epoch overlaid, then per class their PR and
/// F1-vs-confidence curves overlaid. Each run keeps one colour (its letter's) on every chart.
extension RunComparison {
    public func html() -> String {
        let e = SVG.escape
        var extra = "<h2>Runs</h2>\n<ul>" + legend.map { "<li>\(e($0))</li>" }.joined() + notes.map { "<li class=\"warn\">\(e($0))</li>" }.joined() + "</ul>\n"
        if let config = configDifferences() {
            extra += "<h2>Config differences</h2>\n" + (config.rows.isEmpty ? "<p>The configs are identical.</p>\n" : htmlTable(config))
        }
        if let thresholds = thresholdDifferences() {
            extra += "<h2>Current thresholds that differ</h2>\n" + (thresholds.rows.isEmpty ? "<p>Identical.</p>\n" : htmlTable(thresholds))
        }
        let epochCharts = self.epochCharts()
        if !epochCharts.isEmpty {
            extra += "<h2>By epoch</h2>\n<div class=\"grid\">\n" + epochCharts.map(\.svg).joined() + "</div>\n"
        }
        let classCharts = self.classCharts()
        if !classCharts.isEmpty {
            extra += "<h2>Per class: precision–recall and F1 vs confidence</h2>\n<div class=\"grid\">\n" + classCharts.joined() + "</div>\n"
        }
        guard let reports else {
            return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Run comparison</title><style>"
                + "body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1100px}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ddd;padding:4px 8px}.grid{display:flex;flex-wrap:wrap;gap:8px}.grid svg{width:520px;height:auto}.warn{color:#a33}"
                + "</style></head><body>\n<h1>Run comparison</h1>\n\(extra)</body></html>\n"
        }
        // The evaluator's page (tables, styles) with the run sections added at its end.
        let page = reports.html().replacingOccurrences(of: "<h1>Comparison</h1>", with: "<h1>Run comparison</h1>")
        guard let end = page.range(of: "</body>", options: .backwards) else { return page + extra }
        return page.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: extra)
    }

    func htmlTable(_ table: TextTable) -> String {
        var out = "<table><tr>"
        for cell in table.header { out += "<th>" + SVG.escape(cell) + "</th>" }
        out += "</tr>\n"
        for row in table.rows {
            out += "<tr>"
            for cell in row { out += "<td>" + SVG.escape(cell) + "</td>" }
            out += "</tr>\n"
        }
        return out + "</table>\n"
    }

    /// The colour of run `index` on every chart (the palette's dashes told apart past its colours).
    func series(_ index: Int, x: [Double], y: [Double]) -> LineSeries {
        let name = runs[index].run.map { "\($0.run.experiment) \($0.run.id)" } ?? runs[index].label
        return LineSeries(name: "\(Self.letter(index)) \(name)", x: x, y: y,
                          color: SVG.color(index), dashArray: SVG.dash(index))
    }

    /// The runs' curves by epoch, overlaid: the summed and each training loss, val mAP@0.5 and
    /// center-hit mAP — each with a file name (`loss.svg`, `loss-cls.svg`, `val-map50.svg`, …)
    /// for `compare` to write beside compare.html, small enough to keep in a repository.
    public func epochCharts() -> [(name: String, svg: String)] {
        let withEpochs = runs.enumerated().compactMap { index, run -> (Int, [EpochRecord])? in
            guard let epochs = run.run?.epochs, !epochs.isEmpty else { return nil }
            return (index, epochs)
        }
        guard !withEpochs.isEmpty else { return [] }
        let terms = Array(Set(withEpochs.flatMap { $0.1.flatMap(\.losses.keys) })).sorted()
        var charts: [(name: String, svg: String)] = []
        func chart(_ name: String, _ title: String, _ label: String, range: ClosedRange<Double>? = nil, _ value: (EpochRecord) -> Double?) {
            let lines = withEpochs.map { index, epochs in
                series(index, x: epochs.map { Double($0.epoch) }, y: epochs.map { value($0) ?? .nan })
            }
            guard lines.contains(where: { $0.y.contains(where: \.isFinite) }) else { return }
            charts.append((name, LineChart(title: title, xAxis: Axis(label: "epoch"), yAxis: Axis(label: label, range: range), series: lines).svg()))
        }
        chart("loss", "Training loss (sum of terms) by epoch", "mean loss") { e in terms.isEmpty ? nil : terms.reduce(0.0) { $0 + (e.losses[$1] ?? .nan) } }
        for term in terms {
            let slug = String(term.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
            chart("loss-\(slug)", "Loss '\(term)' by epoch", "mean loss") { $0.losses[term] }
        }
        chart("val-map50", "Validation mAP@0.5 by epoch", "mAP", range: 0...1) { $0.valMAP50 }
        chart("val-map-center", "Validation center-hit mAP by epoch", "mAP", range: 0...1) { $0.valMAPCenter }
        return charts
    }

    func classCharts() -> [String] {
        guard let names = reports?.classNames else { return [] }
        var charts: [String] = []
        // Runs compared twice (by id and by folder, or rows copied in the registry) share a report:
        // each CSV is read once. Nil: unreadable.
        var read: [String: OperatingCurve?] = [:]
        func curve(_ run: ComparedRun, _ name: String) -> OperatingCurve? {
            guard let file = run.curveFile(of: name) else { return nil }
            let key = "\(file.url.path)\u{0}\(file.groundTruth)"
            if let known = read[key] { return known }
            let loaded = try? ReportFiles.readCurveCSV(file.url, groundTruthCount: file.groundTruth)
            read[key] = .some(loaded)
            return loaded
        }
        for name in names {
            let curves = runs.enumerated().compactMap { index, run -> (Int, OperatingCurve)? in curve(run, name).map { (index, $0) } }
            guard curves.contains(where: { !$0.1.points.isEmpty }) else { continue }
            let pr = curves.map { index, curve in series(index, x: curve.points.map(\.recall), y: curve.points.map(\.precision)) }
            charts.append(LineChart(title: "\(name): precision–recall", xAxis: Axis(label: "recall", range: 0...1),
                                    yAxis: Axis(label: "precision", range: 0...1), series: pr).svg())
            let f1 = curves.map { index, curve in series(index, x: curve.points.map(\.confidence), y: curve.points.map(\.f1)) }
            charts.append(LineChart(title: "\(name): F1 vs confidence", xAxis: Axis(label: "confidence", range: 0...1),
                                    yAxis: Axis(label: "F1", range: 0...1), series: f1).svg())
        }
        return charts
    }
}
