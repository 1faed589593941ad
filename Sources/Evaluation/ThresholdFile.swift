import Foundation
import Yams

/// `thresholds.yaml`: per-class confidences with the precision/recall/F1 they had on the split
/// they were picked on (so a later report on another split can be compared with them).
public struct ThresholdFile: Equatable {
    public struct Entry: Equatable {
        public var name: String
        /// nil: no detections (or no ground truth) on the pick split; the class gets no threshold.
        public var confidence: Double?
        public var precision: Double?
        public var recall: Double?
        public var f1: Double?
        public var fallback: Bool
        public var note: String?

        public init(name: String, confidence: Double?, precision: Double?, recall: Double?, f1: Double?, fallback: Bool, note: String?) {
            self.name = name; self.confidence = confidence; self.precision = precision; self.recall = recall
            self.f1 = f1; self.fallback = fallback; self.note = note
        }
    }

    public var strategy: String
    public var iouThreshold: Double
    public var pickedOn: EvaluationReport.SplitReference
    public var report: String
    public var classes: [Entry]

    public init(strategy: String, iouThreshold: Double, pickedOn: EvaluationReport.SplitReference, report: String, classes: [Entry]) {
        self.strategy = strategy; self.iouThreshold = iouThreshold; self.pickedOn = pickedOn; self.report = report; self.classes = classes
    }

    public func entry(named name: String) -> Entry? { classes.first { $0.name == name } }

    public func yaml() -> String {
        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        func n(_ v: Double?) -> String { v.map { "\($0)" } ?? "null" }
        var out = "# Per-class confidence thresholds written by `screenlab thresholds pick`.\n"
        out += "# precision/recall/f1 are on the split the thresholds were picked on (picked_on).\n"
        out += "strategy: \(q(strategy))\niou_threshold: \(iouThreshold)\nreport: \(q(report))\n"
        out += "picked_on:\n  dataset: \(q(pickedOn.dataset))\n"
        if let config = pickedOn.config { out += "  config: \(q(config))\n" }
        out += "  split: \(pickedOn.split.map(q) ?? "null")\n"
        out += "classes:\n"
        for e in classes {
            out += "  - name: \(q(e.name))\n    confidence: \(n(e.confidence))\n    precision: \(n(e.precision))\n"
            out += "    recall: \(n(e.recall))\n    f1: \(n(e.f1))\n    fallback: \(e.fallback)\n"
            if let note = e.note { out += "    note: \(q(note))\n" }
        }
        return out
    }

    public static func load(_ url: URL) throws -> ThresholdFile {
        let file = url.path
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw EvaluationError.badThresholds(file: file, reason: "cannot read the file")
        }
        let root: Any?
        do { root = try Yams.load(yaml: text) } catch {
            throw EvaluationError.badThresholds(file: file, reason: "not valid YAML: \(error)")
        }
        guard let top = root as? [String: Any] else {
            throw EvaluationError.badThresholds(file: file, reason: "expected a mapping with strategy, iou_threshold, report, picked_on and classes")
        }
        try checkKeys(top, allowed: ["strategy", "iou_threshold", "report", "picked_on", "classes"], at: "top level", file: file)
        guard let strategy = top["strategy"] as? String else { throw missing("strategy", file) }
        guard let iou = number(top["iou_threshold"]) else { throw missing("iou_threshold", file) }
        guard let picked = top["picked_on"] as? [String: Any], let dataset = picked["dataset"] as? String else { throw missing("picked_on.dataset", file) }
        try checkKeys(picked, allowed: ["dataset", "config", "split"], at: "picked_on", file: file)
        guard let list = top["classes"] as? [Any] else { throw missing("classes", file) }
        var entries: [Entry] = []
        for (i, item) in list.enumerated() {
            guard let e = item as? [String: Any], let name = e["name"] as? String else { throw missing("classes[\(i)].name", file) }
            try checkKeys(e, allowed: ["name", "confidence", "precision", "recall", "f1", "fallback", "note"], at: "classes[\(i)] (\(name))", file: file)
            let confidence = number(e["confidence"])
            if e["confidence"] != nil, !(e["confidence"] is NSNull), confidence == nil || !(confidence!.isFinite) {
                throw EvaluationError.badThresholds(file: file, reason: "classes[\(i)] (\(name)): confidence must be a finite number or null")
            }
            entries.append(Entry(name: name, confidence: confidence, precision: number(e["precision"]), recall: number(e["recall"]),
                                 f1: number(e["f1"]), fallback: e["fallback"] as? Bool ?? false, note: e["note"] as? String))
        }
        return ThresholdFile(strategy: strategy, iouThreshold: iou, pickedOn: .init(dataset: dataset, split: picked["split"] as? String, config: picked["config"] as? String),
                             report: top["report"] as? String ?? "", classes: entries)
    }

    static func number(_ value: Any?) -> Double? {
        if let d = value as? Double { return d }
        if let i = value as? Int { return Double(i) }
        return nil
    }

    static func missing(_ key: String, _ file: String) -> EvaluationError {
        .badThresholds(file: file, reason: "missing or invalid key '\(key)'")
    }

    static func checkKeys(_ map: [String: Any], allowed: Set<String>, at place: String, file: String) throws {
        if let unknown = map.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw EvaluationError.badThresholds(file: file, reason: "unknown key '\(unknown)' at \(place); allowed: \(allowed.sorted().joined(separator: ", "))")
        }
    }
}
