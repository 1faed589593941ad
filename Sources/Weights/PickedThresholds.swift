import Foundation
/// The thresholds `screenlab thresholds pick` wrote to a `thresholds.yaml`, as plain values.
/// Evaluation's `ThresholdFile` parses the YAML (one parser) and the caller copies its rows
/// here, since Weights does not depend on Evaluation.
public struct PickedThresholds: Equatable, Sendable {
    /// One `classes[i]` entry of the YAML.
    public struct Row: Equatable, Sendable {
        public var className: String
        /// nil: nothing detected on the pick split, so the class gets no threshold.
        public var confidence: Double?
        public var precision: Double?
        public var recall: Double?
        public var f1: Double?
        /// The strategy's target was not reached and max-F1 picked the confidence instead.
        public var fellBack: Bool
        /// Where this class was picked when not the file's split (a merged file).
        public var pickedOn: String?

        public init(className: String, confidence: Double?, precision: Double?, recall: Double?, f1: Double?,
                    fellBack: Bool = false, pickedOn: String? = nil) {
            self.className = className
            self.confidence = confidence
            self.precision = precision
            self.recall = recall
            self.f1 = f1
            self.fellBack = fellBack
            self.pickedOn = pickedOn
        }
    }

    /// The YAML file, named in errors.
    public var file: String
    /// Where the thresholds were picked: the split, or the whole dataset when `split` is nil.
    public var dataset: String
    public var split: String?
    /// In the YAML's order (row i is `classes[i]`).
    public var rows: [Row]

    public init(file: String, dataset: String, split: String?, rows: [Row]) {
        self.file = file
        self.dataset = dataset
        self.split = split
        self.rows = rows
    }

    /// The header entries for weights whose classes are `classes`, in class order. Rows with
    /// a null confidence give none; every other problem is an error naming the YAML file and
    /// its `classes[i]` entry.
    public func headerThresholds(forClasses classes: [String]) throws -> [ClassThreshold] {
        let classIndex = Dictionary(classes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let pickedOn = split ?? dataset
        guard !pickedOn.isEmpty else {
            throw WeightsError.invalidThresholds(file: file, key: "picked_on", reason: "names no dataset or split")
        }
        var seen: [String: Int] = [:]
        var picked: [(classIndex: Int, threshold: ClassThreshold)] = []
        for (index, row) in rows.enumerated() {
            let key = "classes[\(index)] (\(row.className))"
            func fail(_ reason: String) -> WeightsError { .invalidThresholds(file: file, key: key, reason: reason) }
            if let first = seen.updateValue(index, forKey: row.className) {
                throw fail("the class is listed twice (also classes[\(first)])")
            }
            guard let position = classIndex[row.className] else {
                throw fail("not one of the weights' \(classes.count) classes (\(listed(classes))); "
                           + "pick the thresholds on an evaluation of these weights")
            }
            guard let confidence = row.confidence else { continue }
            guard let precision = row.precision, let recall = row.recall, let f1 = row.f1 else {
                throw fail("has a confidence but no precision, recall or f1; pick the thresholds again with `screenlab thresholds pick`")
            }
            for (field, value) in [("confidence", confidence), ("precision", precision), ("recall", recall), ("f1", f1)]
            where !(0...1).contains(value) {
                throw fail("\(field) \(value) is not in [0, 1]")
            }
            picked.append((position, ClassThreshold(className: row.className, confidence: confidence, precision: precision,
                                                    recall: recall, f1: f1, split: row.pickedOn ?? pickedOn)))
        }
        return picked.sorted { $0.classIndex < $1.classIndex }.map(\.threshold)
    }

    /// Classes whose confidence came from the max-F1 fallback: the header keeps the confidence
    /// and its scores but not the flag (format 1.x has no field for it), so callers say so.
    public var fallbackClasses: [String] { rows.filter { $0.fellBack && $0.confidence != nil }.map(\.className) }
}

extension WeightsFile {
    /// `weights set-thresholds` (and `screenlab serve`'s Save): the weights of `input` with
    /// `picked` in their header, written to a new file `output` (atomically; never over `input`
    /// or any of `keeping`). The tensors are copied unchanged.
    @discardableResult
    public static func writeWithThresholds(from input: URL, picked: PickedThresholds, to output: URL, keeping: [URL] = []) throws -> WeightsFile {
        guard output.standardizedFileURL.resolvingSymlinksInPath() != input.standardizedFileURL.resolvingSymlinksInPath() else {
            throw WeightsError.invalidHeader(file: output.relativePath, key: "thresholds",
                                             reason: "the new weights file must differ from \(input.relativePath): the original is kept")
        }
        let weights = try WeightsFile.read(contentsOf: input)
        try weights.checkFinite(file: input.relativePath)
        let updated = try weights.settingThresholds(try picked.headerThresholds(forClasses: weights.header.classes), file: output.relativePath)
        try updated.write(to: output, notReplacing: [input] + keeping)
        return updated
    }
}
