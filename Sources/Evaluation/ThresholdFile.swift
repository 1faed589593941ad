import Foundation
import Support

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
        /// Where this class was picked, when not the file's `picked_on` (`thresholds merge`).
        public var pickedOn: String?
        /// How this class was picked, when not the file's `strategy` (`thresholds merge`).
        public var strategy: String?

        public init(name: String, confidence: Double?, precision: Double?, recall: Double?, f1: Double?, fallback: Bool, note: String?,
                    pickedOn: String? = nil, strategy: String? = nil) {
            self.name = name; self.confidence = confidence; self.precision = precision; self.recall = recall
            self.f1 = f1; self.fallback = fallback; self.note = note; self.pickedOn = pickedOn; self.strategy = strategy
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
        func q(_ s: String) -> String { ThresholdFile.doubleQuoted(s) }
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
            if let pickedOn = e.pickedOn { out += "    picked_on: \(q(pickedOn))\n" }
            if let strategy = e.strategy { out += "    strategy: \(q(strategy))\n" }
        }
        return out
    }

    /// Reads a thresholds file strictly (Support's YAML entry point): unknown or repeated keys,
    /// a confidence, precision, recall or F1 outside [0, 1], an IoU outside (0, 1] (or NaN) and a
    /// class listed twice are errors naming the file, line and key.
    /// A YAML double-quoted scalar that reads back as exactly `text`: backslash, quote and every
    /// control character escaped (a raw line break inside quotes would fold into a space).
    static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    public static func load(_ url: URL) throws -> ThresholdFile {
        do { return try decode(try YAMLDocument.load(url), file: url.path) } catch let error as YAMLError { throw badThresholds(error) }
    }

    /// The same from text (tests, the fuzzer).
    public static func parse(_ text: String, file: String) throws -> ThresholdFile {
        do { return try decode(try YAMLDocument.parse(text, file: file), file: file) } catch let error as YAMLError { throw badThresholds(error) }
    }

    static func badThresholds(_ error: YAMLError) -> EvaluationError {
        .badThresholds(file: error.file, reason: "\(error.line.map { "line \($0): " } ?? "")\(error.key.map { "'\($0)': " } ?? "")\(error.message)")
    }

    static func decode(_ document: YAMLValue?, file: String) throws -> ThresholdFile {
        guard let root = document else {
            throw YAMLError(file: file, line: nil, key: nil, "empty file; expected strategy, iou_threshold, picked_on and classes")
        }
        let top = try root.mapping(allowed: ["strategy", "iou_threshold", "report", "picked_on", "classes"])
        let picked = try top.required("picked_on").mapping(allowed: ["dataset", "config", "split"])
        var entries: [Entry] = []
        for item in try top.required("classes").list() {
            let e = try item.mapping(allowed: ["name", "confidence", "precision", "recall", "f1", "fallback", "note", "picked_on", "strategy"])
            let name = try e.required("name").string()
            if entries.contains(where: { $0.name == name }) { throw item.error("class '\(name)' is listed twice; keep one entry") }
            func unit(_ key: String) throws -> Double? { try e.optional(key)?.double(in: 0...1) }
            entries.append(Entry(name: name, confidence: try unit("confidence"), precision: try unit("precision"), recall: try unit("recall"),
                                 f1: try unit("f1"), fallback: try e.optional("fallback")?.bool() ?? false, note: try e.optional("note")?.scalarText(),
                                 pickedOn: try e.optional("picked_on")?.string(), strategy: try e.optional("strategy")?.string()))
        }
        let iou = try top.required("iou_threshold").double(in: 0...1)
        guard iou > 0 else { throw try top.required("iou_threshold").error("is 0; an IoU threshold must lie in (0, 1]") }
        return ThresholdFile(strategy: try top.required("strategy").string(), iouThreshold: iou,
                             pickedOn: .init(dataset: try picked.required("dataset").string(), split: try picked.optional("split")?.string(),
                                             config: try picked.optional("config")?.string()),
                             report: try top.optional("report")?.scalarText() ?? "", classes: entries)
    }

    /// This file with the entries of `classes` taken from `other` (picked on other data, say the
    /// synthetic screens of classes this file's split never shows), each marked with where and
    /// how it was picked. Every listed class must be in both files, once.
    public func merging(_ other: ThresholdFile, classes names: [String], file: String, otherFile: String) throws -> ThresholdFile {
        guard !names.isEmpty else { throw EvaluationError.badThresholds(file: otherFile, reason: "no classes to take from it") }
        var merged = self
        for name in names {
            guard let index = merged.classes.firstIndex(where: { $0.name == name }) else {
                throw EvaluationError.badThresholds(file: file, reason: "'\(name)' is not one of its classes (\(classes.map(\.name).joined(separator: ", ")))")
            }
            guard var entry = other.entry(named: name) else {
                throw EvaluationError.badThresholds(file: otherFile, reason: "'\(name)' is not one of its classes (\(other.classes.map(\.name).joined(separator: ", ")))")
            }
            entry.pickedOn = entry.pickedOn ?? other.pickedOn.description
            entry.strategy = entry.strategy ?? other.strategy
            merged.classes[index] = entry
        }
        return merged
    }
}
