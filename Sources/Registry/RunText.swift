import Data
import Foundation
import Support

/// What `runs list` and `runs show` print (plain text; the numbers come straight from the rows).
public enum RunText {
    static func number(_ value: Double?, _ format: String = "%.3f") -> String {
        value.map { $0.isFinite ? String(format: format, $0) : "—" } ?? "—"
    }

    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "—" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%dh%02dm", s / 3600, s % 3600 / 60) : s >= 60 ? String(format: "%dm%02ds", s / 60, s % 60) : "\(s)s"
    }

    public static func list(_ runs: [RunRecord]) -> String {
        guard !runs.isEmpty else { return "no runs (train one, or add run folders with `screenlab runs import Experiments/runs`)" }
        let rows = runs.map { r -> [String] in
            [r.id, r.experiment, r.status.rawValue, r.epochsPlanned.map { "\(r.epochsDone)/\($0)" } ?? "\(r.epochsDone)",
             number(r.val.map50 ?? r.bestValMAP50), number(r.test.map50), number(r.imagesPerSecond, "%.1f"), duration(r.seconds)]
        }
        return TextTable(header: ["run", "experiment", "status", "epochs", "val mAP50", "test mAP50", "img/s", "duration"],
                         rows: rows, leftAligned: [1, 2]).terminal()
    }

    /// Sparkline of a series (▁…█, scaled to its own range); a missing value is a space.
    static func sparkline(_ values: [Double?]) -> String {
        let finite = values.compactMap { $0 }.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return "" }
        let blocks = Array("▁▂▃▄▅▆▇█")
        return String(values.map { value -> Character in
            guard let value, value.isFinite else { return " " }
            let level = high > low ? Int(((value - low) / (high - low) * 7).rounded()) : 3
            return blocks[max(0, min(7, level))]
        })
    }

    public static func show(_ details: RunResults) -> String {
        let r = details.run
        var out = "run \(r.id) · \(r.experiment) · \(r.status.rawValue)"
        if let reason = r.stopReason { out += " (\(reason))" }
        out += "\n"
        let facts: [(String, String?)] = [
            ("folder", r.runFolder), ("dataset", r.dataset),
            ("splits", [r.trainSplit, r.valSplit, r.testSplit].compactMap { $0 }.joined(separator: " / ")),
            ("git commit", r.gitCommit), ("started", r.startedAt), ("finished", r.finishedAt),
            ("host", r.host.map { "\($0) (pid \(r.pid.map(String.init) ?? "?"))" }),
            ("processes", r.ranks.map { "\($0) (mpirun) on \(Set(r.hosts ?? []).count) host(s): \((r.hosts ?? []).joined(separator: ", "))" }),
            ("epochs", r.epochsPlanned.map { "\(r.epochsDone) of \($0)" } ?? "\(r.epochsDone)"),
            ("val mAP@0.5", r.val.map50.map { "\(number($0)) (center \(number(r.val.mapCenter)), weighted \(number(r.val.weightedMAP50)))" }),
            ("test mAP@0.5", r.test.map50.map { "\(number($0)) (center \(number(r.test.mapCenter)), weighted \(number(r.test.weightedMAP50)))" }),
            ("best val", r.bestValMAP50.map { "\(number($0)) at epoch \(r.bestEpoch.map(String.init) ?? "?")" }),
            ("speed", r.imagesPerSecond.map { "\(number($0, "%.1f")) img/s, \(duration(r.seconds)) of steps" }),
        ]
        for (name, value) in facts { if let value, !value.isEmpty { out += "  \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(value)\n" } }
        out += epochSection(details.epochs)
        out += classSection(details.classResults)
        out += thresholdSection(details.thresholds)
        if !details.artifacts.isEmpty {
            out += "\nArtifacts:\n" + TextTable(header: ["kind", "name", "path"], rows: details.artifacts.map { [$0.kind, $0.name, $0.path] },
                                                 leftAligned: [1, 2]).terminal() + "\n"
        }
        if let config = r.configYAML {
            out += "\nConfig (config.resolved.yaml):\n" + config.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }.joined(separator: "\n") + "\n"
        }
        return out
    }

    static func epochSection(_ epochs: [EpochRecord]) -> String {
        guard !epochs.isEmpty else { return "\nNo epoch finished yet.\n" }
        let terms = Array(Set(epochs.flatMap(\.losses.keys))).sorted()
        var out = "\nBy epoch (first → last):\n"
        var series: [(String, [Double?])] = terms.map { term in ("loss \(term)", epochs.map { $0.losses[term] }) }
        series.append(("val mAP@0.5", epochs.map(\.valMAP50)))
        series.append(("val center mAP", epochs.map(\.valMAPCenter)))
        series.append(("lr", epochs.map(\.learningRate)))
        for (name, values) in series where values.contains(where: { $0 != nil }) {
            let present = values.compactMap { $0 }
            out += "  " + name.padding(toLength: 15, withPad: " ", startingAt: 0) + " " + number(present.first, "%.4g").leftPadded(8)
                + " " + sparkline(values) + " " + number(present.last, "%.4g") + "\n"
        }
        let rows = epochs.map { e in
            ["\(e.epoch)"] + terms.map { number(e.losses[$0], "%.4f") }
                + [number(e.learningRate, "%.3g"), number(e.valMAP50, "%.4f"), number(e.valMAPCenter, "%.4f"), number(e.imagesPerSecond, "%.1f"), number(e.seconds, "%.0f")]
        }
        out += "\n" + TextTable(header: ["epoch"] + terms.map { "loss \($0)" } + ["lr", "val mAP50", "val APc", "img/s", "s"], rows: rows).terminal() + "\n"
        return out
    }

    static func classSection(_ results: [ClassResultRecord]) -> String {
        guard !results.isEmpty else { return "" }
        var out = ""
        let splits = results.map(\.split).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for split in splits {
            let rows = results.filter { $0.split == split }.map { c in
                [c.className, number(c.ap50), number(c.apCenter), "\(c.groundTruth)", number(c.threshold), number(c.precision, "%.2f"),
                 number(c.recall, "%.2f"), number(c.f1, "%.2f")]
            }
            out += "\nPer class on \(split) (P/R/F1 at the threshold):\n"
            out += TextTable(header: ["class", "AP50", "APc", "GT", "threshold", "P", "R", "F1"], rows: rows).terminal() + "\n"
        }
        return out
    }

    static func thresholdSection(_ thresholds: [ThresholdRecord]) -> String {
        guard let first = thresholds.first else { return "" }
        let rows = thresholds.map { [$0.className, number($0.confidence), number($0.precision, "%.2f"), number($0.recall, "%.2f"), number($0.f1, "%.2f")] }
        return "\nThresholds (\(first.strategy), picked on \(first.pickedOn ?? "?") at \(first.pickedAt)):\n"
            + TextTable(header: ["class", "confidence", "P", "R", "F1"], rows: rows).terminal() + "\n"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
