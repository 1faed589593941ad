import Data
import Evaluation
import Foundation
import Support

/// `screenlab compare` over runs and reports: the evaluator's per-class comparison (AP@0.5 and
/// center AP with deltas, thresholds, confusion differences) of those with reports, plus what
/// only runs have — the config keys that differ and the current thresholds that differ.
public struct RunComparison {
    public var runs: [ComparedRun]
    /// The per-class comparison of the runs that have a report (nil when fewer than one).
    public var reports: ReportComparison?

    public init(_ runs: [ComparedRun]) {
        self.runs = runs
        let withReports = runs.filter { $0.report != nil }
        reports = withReports.isEmpty ? nil : ReportComparison(labels: withReports.map(\.label), reports: withReports.compactMap(\.report))
    }

    static func letter(_ i: Int) -> String { i < 26 ? String(UnicodeScalar(UInt8(65 + i))) : "R\(i + 1)" }

    public var notes: [String] { runs.compactMap(\.note) }

    /// Config keys whose values differ among the runs (reports have no config: left out).
    public func configDifferences() -> TextTable? {
        let configs = runs.enumerated().compactMap { index, run -> (Int, [String: String])? in run.configKeys.map { (index, $0) } }
        guard configs.count >= 2 else { return nil }
        let rows = ConfigKeys.differences(configs.map(\.1)).map { [$0.key] + $0.values.map { $0 ?? "(absent)" } }
        return TextTable(header: ["key"] + configs.map { "\(Self.letter($0.0)) \(runs[$0.0].run!.run.id)" }, rows: rows, leftAligned: Set(0...configs.count))
    }

    /// Per class, the runs' current confidences (the registry's `thresholds`), only where they differ.
    public func thresholdDifferences() -> TextTable? {
        let picked = runs.enumerated().compactMap { index, run -> (Int, [ThresholdRecord])? in
            guard let thresholds = run.run?.thresholds, !thresholds.isEmpty else { return nil }
            return (index, thresholds)
        }
        guard picked.count >= 2 else { return nil }
        var names: [String] = []
        for (_, list) in picked { for t in list where !names.contains(t.className) { names.append(t.className) } }
        func cell(_ t: ThresholdRecord?) -> String {
            guard let t else { return "—" }
            guard let c = t.confidence else { return "none" }
            return String(format: "%.3f", c) + (t.precision.map { String(format: " (P %.2f, R %.2f)", $0, t.recall ?? 0) } ?? "")
        }
        let rows = names.compactMap { name -> [String]? in
            let values = picked.map { _, list in list.first { $0.className == name } }
            guard Set(values.map { $0?.confidence.map { String(format: "%.4f", $0) } ?? "-" }).count > 1 else { return nil }
            return [name] + values.map(cell)
        }
        let strategies = picked.map { _, list in list[0].strategy }
        return TextTable(header: ["class"] + zip(picked, strategies).map { "\(Self.letter($0.0.0)) (\($0.1))" }, rows: rows)
    }

    var legend: [String] {
        runs.enumerated().map { index, run in
            let what = run.run.map { "run \($0.run.id) (\($0.run.experiment), \($0.run.status.rawValue))" } ?? "report"
            return "\(Self.letter(index)) = \(run.label): \(what)"
        }
    }

    public func terminal(color: Bool) -> String {
        var out = legend.joined(separator: "\n") + "\n"
        for note in notes { out += "note: \(note)\n" }
        if let reports {
            // The evaluator's table letters only the compared reports; runs without one are left out of it.
            let heading = reports.reports.count == runs.count ? "\nPer class:\n" : "\nPer class (runs with a report, lettered anew):\n"
            out += heading + reports.terminal(color: color)
        }
        if let config = configDifferences() {
            out += config.rows.isEmpty ? "\nConfigs: identical.\n" : "\nConfig differences (only keys that differ):\n" + config.terminal() + "\n"
        }
        if let thresholds = thresholdDifferences() {
            out += thresholds.rows.isEmpty ? "\nCurrent thresholds: identical.\n" : "\nCurrent thresholds that differ (registry):\n" + thresholds.terminal() + "\n"
        }
        return out
    }

    public func markdown() -> String {
        var out = "# Run comparison\n\n" + legend.map { "- \($0)" }.joined(separator: "\n") + "\n"
        for note in notes { out += "- note: \(note)\n" }
        if let reports { out += "\n" + reports.markdown().replacingOccurrences(of: "# Comparison\n", with: "## Per class\n") }
        if let config = configDifferences() {
            out += "\n## Config differences\n\n" + (config.rows.isEmpty ? "The configs are identical.\n" : config.markdown() + "\n")
        }
        if let thresholds = thresholdDifferences() {
            out += "\n## Current thresholds that differ\n\n" + (thresholds.rows.isEmpty ? "Identical.\n" : thresholds.markdown() + "\n")
        }
        return out
    }
}
