import Foundation
import Plotting

/// Side-by-side per-class AP@IoU and center AP of several reports, deltas against the first.
public struct ReportComparison {
    public var labels: [String]
    public var reports: [EvaluationReport]
    /// Union of class names, in the first report's order, then new ones as they appear.
    public var classNames: [String]

    public init(paths: [String]) throws {
        guard paths.count >= 2 else { throw EvaluationError.invalidOption("compare needs at least two report folders") }
        let loaded = try paths.map { try EvaluationReport.load($0).report }
        self.init(labels: paths, reports: loaded)
    }

    public init(labels: [String], reports: [EvaluationReport]) {
        self.labels = labels
        self.reports = reports
        var names: [String] = []
        for report in reports { for c in report.classes where !names.contains(c.name) { names.append(c.name) } }
        classNames = names
    }

    public var warnings: [String] {
        var out: [String] = []
        let settings = Set(reports.map { "IoU \($0.iouThreshold), \($0.interpolation)" })
        if settings.count > 1 { out.append("reports use different settings (\(settings.sorted().joined(separator: " vs "))): AP values are not comparable") }
        let caps = Set(reports.compactMap { $0.coco?.maxDetections })
        if caps.count > 1 { out.append("COCO summaries use different detection caps (\(caps.sorted().map(String.init).joined(separator: " vs ")) per image and class): AP50:95 values are not comparable") }
        let data = Set(reports.map(\.data.description))
        if data.count > 1 { out.append("reports are on different data: \(data.sorted().joined(separator: " vs "))") }
        if confusionThresholdsDiffer {
            out.append("confusion matrices were made at different confidence thresholds (see Thresholds): their difference mixes the change of detector with the change of threshold")
        }
        return out
    }

    /// The compared numbers; COCO's mAP@0.5:0.95 only when a report has it (older ones do not).
    enum Metric: String { case ap50 = "AP50", center = "APc", coco = "AP50:95" }

    var metrics: [Metric] { [.ap50, .center] + (reports.contains { $0.coco != nil } ? [.coco] : []) }

    func value(_ r: Int, _ name: String, _ metric: Metric) -> Double? {
        guard let c = reports[r].classes.first(where: { $0.name == name }) else { return nil }
        switch metric {
        case .ap50: return c.ap50
        case .center: return c.apCenter
        case .coco: return c.coco?.ap
        }
    }

    /// COCO's summary has no ground-truth-weighted mean ("—").
    func mean(_ r: Int, _ metric: Metric, weighted: Bool) -> Double? {
        let report = reports[r]
        switch metric {
        case .ap50: return weighted ? report.weightedMap50 : report.map50
        case .center: return weighted ? report.weightedMapCenter : report.mapCenter
        case .coco: return weighted ? nil : report.coco?.map
        }
    }

    /// Cells as plain strings plus the sign of each delta (for colouring).
    struct Row { var cells: [String]; var signs: [Int] }

    func rows() -> (header: [String], rows: [Row]) {
        let n = reports.count
        let short = (0..<n).map { Self.letter($0) }
        let metrics = metrics
        var header = ["Class"]
        for metric in metrics.map(\.rawValue) {
            header += short.map { "\(metric) \($0)" } + (1..<n).map { "Δ\(metric) \(short[$0])-\(short[0])" }
        }
        func line(_ name: String, _ get: (Int, Metric) -> Double?) -> Row {
            var cells = [name], signs = [0]
            for metric in metrics {
                let values = (0..<n).map { get($0, metric) }
                cells += values.map(ReportMarkdown.percent); signs += Array(repeating: 0, count: n)
                for i in 1..<n {
                    if let a = values[0], let b = values[i] {
                        let delta = (b - a) * 100
                        let unchanged = abs(delta) < 0.05
                        cells.append(unchanged ? "0.0" : String(format: "%+.1f", delta)); signs.append(unchanged ? 0 : (delta > 0 ? 1 : -1))
                    } else { cells.append("—"); signs.append(0) }
                }
            }
            return Row(cells: cells, signs: signs)
        }
        var rows = classNames.map { name in line(name) { value($0, name, $1) } }
        rows.append(line("Mean") { mean($0, $1, weighted: false) })
        rows.append(line("Weighted mean") { mean($0, $1, weighted: true) })
        return (header, rows)
    }

    /// Names the COCO cap next to the table when AP50:95 is shown (COCO's 100 is not ScreenLab's 300).
    var capNote: String {
        let caps = reports.compactMap { $0.coco?.maxDetections }
        guard let first = caps.first else { return "" }
        return Set(caps).count == 1 ? "; AP50:95 is COCO's mAP@0.5:0.95 at \(first) detections per image and class" : "; AP50:95 is COCO's mAP@0.5:0.95"
    }

    /// Mean AP@0.5 per size bucket of each scheme every report has (reports written before size
    /// breakdowns have none), with deltas against the first: where a change of model gained or lost.
    func sizeTables() -> [(title: String, header: [String], rows: [Row])] {
        guard let first = reports.first?.sizes else { return [] }
        let n = reports.count, short = (0..<n).map { Self.letter($0) }
        return first.compactMap { scheme in
            let all = reports.compactMap { $0.sizes?.first { $0.scheme == scheme.scheme } }
            guard all.count == n else { return nil }
            let header = ["Size (boxes)"] + short.map { "AP50 \($0)" } + (1..<n).map { "ΔAP50 \(short[$0])-\(short[0])" }
            let rows = scheme.scheme.buckets.indices.compactMap { b -> Row? in
                guard all[0].groundTruth(bucket: b) > 0 else { return nil }
                let values = all.map { $0.meanAP50(bucket: b) }
                var cells = ["\(scheme.scheme.buckets[b].name) (\(all[0].groundTruth(bucket: b)))"] + values.map(ReportMarkdown.percent)
                var signs = Array(repeating: 0, count: n + 1)
                for i in 1..<n {
                    guard let a = values[0], let v = values[i] else { cells.append("—"); signs.append(0); continue }
                    let delta = (v - a) * 100, unchanged = abs(delta) < 0.05
                    cells.append(unchanged ? "0.0" : String(format: "%+.1f", delta)); signs.append(unchanged ? 0 : (delta > 0 ? 1 : -1))
                }
                return Row(cells: cells, signs: signs)
            }
            return ("Mean AP@0.5 by size: \(scheme.scheme.name)", header, rows)
        }
    }

    static func letter(_ i: Int) -> String { i < 26 ? String(UnicodeScalar(UInt8(65 + i))) : "R\(i + 1)" }

    var confusionThresholdsDiffer: Bool { reports.dropFirst().contains { $0.confusion.thresholds != reports[0].confusion.thresholds } }

    /// Shown when any report has thresholds, or when the confusion matrices used different ones.
    var showsThresholds: Bool { reports.contains { $0.thresholds != nil } || confusionThresholdsDiffer }

    /// Per class and report: the confidence the confusion matrix used, with precision and recall
    /// there when the report has them ("—" for a class without a threshold or without ground truth).
    func thresholdRows() -> [[String]] {
        classNames.map { name in
            [name] + reports.map { r in
                guard let c = r.classes.firstIndex(where: { $0.name == name }),
                      let t = r.classes[c].threshold ?? r.confusion.thresholds[c] else { return "—" }
                let confidence = String(format: "%.3f", t)
                guard r.classes[c].threshold != nil else { return confidence }
                let p = r.classes[c].precision.map { String(format: "%.2f", $0) } ?? "—"
                let recall = r.classes[c].recall.map { String(format: "%.2f", $0) } ?? "—"
                return "\(confidence) (P \(p), R \(recall))"
            }
        }
    }

    static let thresholdsCaption = "Thresholds (confidence of the confusion matrix; precision and recall there on the reported split)"

    /// B − A (and C − A, …) confusion counts, when all reports have the same labels.
    func confusionDifferences() -> [(label: String, labels: [String], counts: [[Int]])]? {
        let labels = reports[0].confusion.labels
        guard reports.allSatisfy({ $0.confusion.labels == labels }) else { return nil }
        return (1..<reports.count).map { i in
            let diff = zip(reports[i].confusion.counts, reports[0].confusion.counts).map { zip($0, $1).map { $0 - $1 } }
            return ("\(Self.letter(i)) − A", labels, diff)
        }
    }

    // MARK: Rendering

    public func terminal(color: Bool) -> String {
        let (header, rows) = rows()
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.cells.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func render(_ cells: [String], _ signs: [Int]) -> String {
            cells.enumerated().map { i, cell in
                let padded = i == 0 ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - cell.count) + cell
                guard color, signs[i] != 0 else { return padded }
                return (signs[i] > 0 ? "\u{1B}[32m" : "\u{1B}[31m") + padded + "\u{1B}[0m"
            }.joined(separator: "  ")
        }
        var out = labels.enumerated().map { "\(Self.letter($0.offset)) = \($0.element)" }.joined(separator: "\n") + "\n\n"
        if !capNote.isEmpty { out += "AP in %\(capNote)\n" }
        out += render(header, Array(repeating: 0, count: header.count)) + "\n"
        for (index, row) in rows.enumerated() {
            if index == rows.count - 2 { out += String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)) + "\n" }
            out += render(row.cells, row.signs) + "\n"
        }
        for table in sizeTables() {
            out += "\n\(table.title):\n"
            let columns = table.header.indices.map { i in ([table.header[i]] + table.rows.map { $0.cells[i] }).map(\.count).max() ?? 0 }
            func line(_ cells: [String], _ signs: [Int]) -> String {
                "  " + cells.enumerated().map { i, cell in
                    let padded = i == 0 ? cell.padding(toLength: columns[i], withPad: " ", startingAt: 0) : String(repeating: " ", count: columns[i] - cell.count) + cell
                    guard color, signs[i] != 0 else { return padded }
                    return (signs[i] > 0 ? "\u{1B}[32m" : "\u{1B}[31m") + padded + "\u{1B}[0m"
                }.joined(separator: "  ")
            }
            out += line(table.header, Array(repeating: 0, count: table.header.count)) + "\n"
            for row in table.rows { out += line(row.cells, row.signs) + "\n" }
        }
        if showsThresholds {
            out += "\n\(Self.thresholdsCaption):\n"
            let table = [["Class"] + reports.indices.map(Self.letter)] + thresholdRows()
            let columns = (0..<table[0].count).map { i in table.map { $0[i].count }.max() ?? 0 }
            for row in table {
                out += "  " + row.enumerated().map { i, cell in
                    i == 0 ? cell.padding(toLength: columns[i], withPad: " ", startingAt: 0) : String(repeating: " ", count: columns[i] - cell.count) + cell
                }.joined(separator: "  ") + "\n"
            }
        }
        if let diffs = confusionDifferences() {
            for diff in diffs {
                let changed = diff.counts.enumerated().flatMap { r, row in row.enumerated().compactMap { c, v in v != 0 ? (r, c, v) : nil } }
                    .sorted { abs($0.2) != abs($1.2) ? abs($0.2) > abs($1.2) : ($0.0, $0.1) < ($1.0, $1.1) }
                out += "\nConfusion matrix \(diff.label): \(changed.isEmpty ? "no change" : "largest changes (true → predicted)")\n"
                for (r, c, v) in changed.prefix(10) {
                    let text = String(format: "%+d", v)
                    let shown = color ? (v > 0 && r != c || v < 0 && r == c ? "\u{1B}[31m" : "\u{1B}[32m") + text + "\u{1B}[0m" : text
                    out += "  \(diff.labels[r]) → \(diff.labels[c]): \(shown)\n"
                }
            }
        } else {
            out += "\nConfusion matrices have different classes; no difference shown.\n"
        }
        for warning in warnings { out += "warning: \(warning)\n" }
        return out
    }

    public func markdown() -> String {
        let (header, rows) = rows()
        var out = "# Comparison\n\n" + labels.enumerated().map { "- **\(Self.letter($0.offset))**: `\($0.element)` (\(reports[$0.offset].data.description))" }.joined(separator: "\n") + "\n"
        for warning in warnings { out += "- ⚠️ \(warning)\n" }
        out += "\nAP in %, Δ in percentage points\(capNote).\n\n| " + header.joined(separator: " | ") + " |\n|---|" + String(repeating: "---:|", count: header.count - 1) + "\n"
        for row in rows { out += "| " + row.cells.joined(separator: " | ") + " |\n" }
        for table in sizeTables() {
            out += "\n## \(table.title)\n\n| " + table.header.joined(separator: " | ") + " |\n|---|" + String(repeating: "---:|", count: table.header.count - 1) + "\n"
            for row in table.rows { out += "| " + row.cells.joined(separator: " | ") + " |\n" }
        }
        if showsThresholds {
            out += "\n## Thresholds\n\n\(Self.thresholdsCaption).\n\n| Class | " + (0..<reports.count).map(Self.letter).joined(separator: " | ") + " |\n|---|" + String(repeating: "---:|", count: reports.count) + "\n"
            for row in thresholdRows() { out += "| " + row.joined(separator: " | ") + " |\n" }
        }
        for diff in confusionDifferences() ?? [] {
            out += "\n## Confusion matrix difference \(diff.label) (rows: true, columns: predicted)\n\n| | " + diff.labels.joined(separator: " | ") + " |\n|---|" + String(repeating: "---:|", count: diff.labels.count) + "\n"
            for (label, row) in zip(diff.labels, diff.counts) { out += "| \(label) | " + row.map { $0 == 0 ? "0" : String(format: "%+d", $0) }.joined(separator: " | ") + " |\n" }
        }
        return out
    }

    public func html() -> String {
        let (header, rows) = rows()
        let e = SVG.escape
        var body = "<h1>Comparison</h1>\n<ul>" + labels.enumerated().map { "<li><b>\(Self.letter($0.offset))</b>: \(e($0.element)) (\(e(reports[$0.offset].data.description)))</li>" }.joined()
        for warning in warnings { body += "<li class=\"warn\">\(e(warning))</li>" }
        body += "</ul><p>AP in %, Δ in percentage points\(e(capNote)).</p>\n"
        body += ReportHTML.table(header: header, rows: rows.map { row in
            row.cells.enumerated().map { i, cell in row.signs[i] == 0 ? e(cell) : "<span class=\"\(row.signs[i] > 0 ? "pos" : "neg")\">\(e(cell))</span>" }
        })
        for table in sizeTables() {
            body += "<h2>\(e(table.title))</h2>\n" + ReportHTML.table(header: table.header, rows: table.rows.map { row in
                row.cells.enumerated().map { i, cell in row.signs[i] == 0 ? e(cell) : "<span class=\"\(row.signs[i] > 0 ? "pos" : "neg")\">\(e(cell))</span>" }
            })
        }
        if showsThresholds {
            body += "<h2>Thresholds</h2>\n<p>\(e(Self.thresholdsCaption)).</p>\n" + ReportHTML.table(header: ["Class"] + (0..<reports.count).map(Self.letter), rows: thresholdRows().map { $0.map(e) })
        }
        for diff in confusionDifferences() ?? [] {
            body += "<h2>Confusion matrix difference \(e(diff.label))</h2>\n"
            body += ReportHTML.table(header: ["true \\ predicted"] + diff.labels, rows: zip(diff.labels, diff.counts).map { label, row in
                [e(label)] + row.enumerated().map { _, v in v == 0 ? "0" : String(format: "%+d", v) }
            })
        }
        return ReportHTML.page(title: "Comparison", body: body)
    }
}
