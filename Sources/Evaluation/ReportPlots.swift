import Foundation
import Plotting

/// The SVG charts of a report, keyed by file name (without extension).
struct ReportPlots {
    let outcome: EvaluationOutcome
    /// Long curves are thinned for drawing (the CSVs keep every point).
    static let maximumPlottedPoints = 400

    func all() -> [(String, String)] {
        let slugs = outcome.report.classes.map { URL(fileURLWithPath: $0.curveCSV).deletingPathExtension().lastPathComponent }
        var charts: [(String, String)] = [("ap", apChart()), ("pr", prChart(classes: Array(outcome.result.classes.indices), title: "Precision-recall (IoU ≥ \(outcome.report.iouThreshold))")),
                                          ("f1", f1Chart(classes: Array(outcome.result.classes.indices), title: "F1 vs confidence"))]
        for (c, evaluation) in outcome.result.classes.enumerated() {
            charts.append(("pr-\(slugs[c])", prChart(classes: [c], title: "\(evaluation.name): precision-recall")))
            charts.append(("f1-\(slugs[c])", f1Chart(classes: [c], title: "\(evaluation.name): F1 vs confidence")))
        }
        charts.append(("confusion", confusionChart(normalized: false)))
        charts.append(("confusion-normalized", confusionChart(normalized: true)))
        return charts
    }

    func apChart() -> String {
        let classes = outcome.report.classes
        return BarChart(title: "AP@\(outcome.report.iouThreshold) per class", categories: classes.map(\.name),
                        values: classes.map { $0.ap50 ?? .nan }, valueAxis: Axis(label: "AP", range: 0...1), valueDecimals: 3).svg()
    }

    /// The chosen threshold when given, otherwise the max-F1 point (Fig. 5 marks the chosen thresholds).
    func marker(_ c: Int) -> (OperatingPoint, String)? {
        let curve = outcome.result.classes[c].curve
        if let threshold = outcome.report.classes[c].threshold {
            return (curve.point(atConfidence: threshold), "conf " + String(format: "%.2f", threshold))
        }
        guard curve.groundTruthCount > 0, let best = ThresholdPicker.maxF1(curve.points) else { return nil }
        return (best, "max F1 @ " + String(format: "%.2f", best.confidence))
    }

    /// In the series colour; on the all-classes charts only a tooltip names it (labels would pile up).
    static func chartMarker(x: Double, y: Double, _ text: String, _ className: String, labelled: Bool) -> ChartMarker {
        ChartMarker(x: x, y: y, label: labelled ? text : "", title: "\(className): \(text)")
    }

    static func thinned(_ points: [OperatingPoint]) -> [OperatingPoint] {
        guard points.count > maximumPlottedPoints else { return points }
        let step = Double(points.count - 1) / Double(maximumPlottedPoints - 1)
        return (0..<maximumPlottedPoints).map { points[Int((Double($0) * step).rounded())] }
    }

    func prChart(classes: [Int], title: String) -> String {
        let series = classes.compactMap { c -> LineSeries? in
            let evaluation = outcome.result.classes[c]
            guard evaluation.groundTruth > 0 else { return nil }
            let points = Self.thinned(evaluation.curve.points)
            let markers = marker(c).map { [Self.chartMarker(x: $0.0.recall, y: $0.0.precision, $0.1, evaluation.name, labelled: classes.count == 1)] } ?? []
            return LineSeries(name: evaluation.name, x: points.map(\.recall), y: points.map(\.precision), color: SVG.color(c),
                              dashArray: classes.count > 1 ? SVG.dash(c) : nil, markers: markers)
        }
        return LineChart(title: title, xAxis: Axis(label: "recall", range: 0...1), yAxis: Axis(label: "precision", range: 0...1),
                         series: series, width: classes.count > 1 ? 800 : 640, height: classes.count > 1 ? 520 : 420).svg()
    }

    func f1Chart(classes: [Int], title: String) -> String {
        let series = classes.compactMap { c -> LineSeries? in
            let evaluation = outcome.result.classes[c]
            guard evaluation.groundTruth > 0 else { return nil }
            let points = Self.thinned(evaluation.curve.points)
            let markers = marker(c).map { [Self.chartMarker(x: $0.0.confidence, y: $0.0.f1, $0.1, evaluation.name, labelled: classes.count == 1)] } ?? []
            return LineSeries(name: evaluation.name, x: points.map(\.confidence), y: points.map(\.f1), color: SVG.color(c),
                              dashArray: classes.count > 1 ? SVG.dash(c) : nil, markers: markers)
        }
        return LineChart(title: title, xAxis: Axis(label: "confidence"), yAxis: Axis(label: "F1", range: 0...1),
                         series: series, width: classes.count > 1 ? 800 : 640, height: classes.count > 1 ? 520 : 420).svg()
    }

    func confusionChart(normalized: Bool) -> String {
        let matrix = outcome.confusion
        let values = normalized ? matrix.rowNormalized : matrix.counts.map { $0.map(Double.init) }
        let thresholds = outcome.report.confusion.thresholds
        let thresholdText = Set(thresholds).count == 1 && thresholds[0] != nil
            ? "confidence ≥ \(String(format: "%.2f", thresholds[0]!))" : "per-class thresholds"
        return HeatMap(title: "Confusion matrix\(normalized ? " (row-normalized)" : ""), IoU ≥ \(outcome.report.iouThreshold), \(thresholdText)",
                       rowLabels: matrix.labels, columnLabels: matrix.labels, values: values,
                       format: normalized ? .decimals(2) : .integer, rowAxisLabel: "true", columnAxisLabel: "predicted",
                       maximum: normalized ? 1 : nil).svg()
    }
}
