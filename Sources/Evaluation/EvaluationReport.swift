import Data
import Foundation
import Support

/// The contents of `metrics.json`: what `thresholds pick` and `compare` read back.
public struct EvaluationReport: Equatable, Codable {
    public struct ClassReport: Equatable, Codable {
        public var name: String
        public var groundTruth: Int
        public var detections: Int
        public var ap50: Double?
        public var apCenter: Double?
        /// Present when thresholds were given: the confidence and P/R/F1 at it on this split.
        public var threshold: Double?
        public var precision: Double?
        public var recall: Double?
        public var f1: Double?
        /// Present when thresholds were given: detections with score ≥ the threshold (`detections` counts all).
        public var keptDetections: Int?
        /// Operating points (one per distinct score) under IoU matching, relative to the report folder.
        public var curveCSV: String
        /// COCO's summary for this class; nil without ground truth, and in reports written before it.
        public var coco: COCOSummaryReport.ClassScores?

        enum CodingKeys: String, CodingKey {
            case name, detections, threshold, precision, recall, f1, keptDetections = "detections_kept", coco
            case groundTruth = "ground_truth", ap50, apCenter = "ap_center", curveCSV = "curve_csv"
        }

        public init(name: String, groundTruth: Int, detections: Int, ap50: Double?, apCenter: Double?, curveCSV: String) {
            self.name = name; self.groundTruth = groundTruth; self.detections = detections
            self.ap50 = ap50; self.apCenter = apCenter; self.curveCSV = curveCSV
        }

        /// AP values are written even when null (a class without ground truth); P/R/F1 only with thresholds.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(groundTruth, forKey: .groundTruth)
            try c.encode(detections, forKey: .detections)
            try c.encode(ap50, forKey: .ap50)
            try c.encode(apCenter, forKey: .apCenter)
            try c.encode(curveCSV, forKey: .curveCSV)
            try c.encode(coco, forKey: .coco)
            if threshold != nil || precision != nil {
                try c.encode(threshold, forKey: .threshold)
                try c.encode(precision, forKey: .precision)
                try c.encode(recall, forKey: .recall)
                try c.encode(f1, forKey: .f1)
                try c.encode(keptDetections, forKey: .keptDetections)
            }
        }
    }

    /// Where thresholds came from and where they are applied: never the same split if avoidable.
    public struct ThresholdSource: Equatable, Codable {
        public var file: String
        public var strategy: String
        public var pickedOn: SplitReference
        public var reportedOn: SplitReference
        public var sameSplit: Bool

        enum CodingKeys: String, CodingKey {
            case file, strategy, pickedOn = "picked_on", reportedOn = "reported_on", sameSplit = "same_split"
        }
    }

    public struct SplitReference: Equatable, Codable {
        /// The data itself (YOLO folder or COCO .json): an absolute path with symlinks resolved
        /// when made by `init(resolving:)`, so it does not depend on the working directory.
        public var dataset: String
        /// The dataset config it was loaded through, if any (absolute).
        public var config: String?
        public var split: String?
        public init(dataset: String, split: String?, config: String? = nil) { self.dataset = dataset; self.split = split; self.config = config }
        public var description: String {
            let name = config ?? dataset
            return split.map { "\(name) split '\($0)'" } ?? "\(name) (all images)"
        }

        /// `--data PATH[:SPLIT]` as absolute paths: a config is recorded with the data it points to.
        public init(resolving reference: DatasetReference) {
            let path = Self.absolute(reference.path)
            let isConfig = (try? DatasetLoader.format(of: URL(fileURLWithPath: path))) == .config
            self.init(dataset: Self.dataLocation(path), split: reference.split, config: isConfig ? path : nil)
        }

        /// Same data and same split, however each was written on the command line: a config and
        /// the folder it points to are the same data. Relative paths (files written before paths
        /// were resolved) are taken from the current folder.
        public func isSameSplit(as other: SplitReference) -> Bool {
            split == other.split && Self.dataLocation(dataset) == Self.dataLocation(other.dataset)
        }

        static func absolute(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }

        /// The data a path stands for: the target of a dataset config, else the path itself.
        static func dataLocation(_ path: String) -> String {
            let url = URL(fileURLWithPath: absolute(path))
            guard (try? DatasetLoader.format(of: url)) == .config, let config = try? DatasetConfig.read(url) else { return url.path }
            return absolute(config.dataURL.path)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(dataset, forKey: .dataset)
            try c.encode(config, forKey: .config)
            try c.encode(split, forKey: .split)
        }
        enum CodingKeys: String, CodingKey { case dataset, config, split }
    }

    public struct Confusion: Equatable, Codable {
        public var labels: [String]
        /// Confidence per class used for the matrix; null for a class without a threshold (none of its detections kept).
        public var thresholds: [Double?]
        public var counts: [[Int]]

        public init(labels: [String], thresholds: [Double?], counts: [[Int]]) {
            self.labels = labels; self.thresholds = thresholds; self.counts = counts
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(labels, forKey: .labels)
            var list = c.nestedUnkeyedContainer(forKey: .thresholds)
            for threshold in thresholds { if let threshold { try list.encode(threshold) } else { try list.encodeNil() } }
            try c.encode(counts, forKey: .counts)
        }
        enum CodingKeys: String, CodingKey { case labels, thresholds, counts }
    }

    public var format: Int
    public var data: SplitReference
    public var predictions: String
    public var predictionsRead: Int
    public var predictionsSkipped: [String: Int]
    public var iouThreshold: Double
    public var interpolation: String
    public var maxDetections: Int?
    public var images: Int
    public var classes: [ClassReport]
    public var map50: Double?
    public var mapCenter: Double?
    public var weightedMap50: Double?
    public var weightedMapCenter: Double?
    public var thresholds: ThresholdSource?
    public var confusion: Confusion
    public var notes: [String]
    /// COCO's summary (mAP@0.5:0.95, AP75, AR at the caps); nil in reports written before it.
    public var coco: COCOSummaryReport? = nil
    /// AP and recall per box size, one entry per scheme (`EvaluationOptions.sizeSchemes`); nil
    /// when none was asked for, and in reports written before it.
    public var sizes: [SizeBreakdown]? = nil

    enum CodingKeys: String, CodingKey {
        case format, data, predictions, images, classes, thresholds, confusion, notes, interpolation, coco, sizes
        case predictionsRead = "predictions_read", predictionsSkipped = "predictions_skipped"
        case iouThreshold = "iou_threshold", maxDetections = "max_detections"
        case map50, mapCenter = "map_center", weightedMap50 = "weighted_map50", weightedMapCenter = "weighted_map_center"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(format, forKey: .format)
        try c.encode(data, forKey: .data)
        try c.encode(predictions, forKey: .predictions)
        try c.encode(predictionsRead, forKey: .predictionsRead)
        try c.encode(predictionsSkipped, forKey: .predictionsSkipped)
        try c.encode(iouThreshold, forKey: .iouThreshold)
        try c.encode(interpolation, forKey: .interpolation)
        try c.encode(maxDetections, forKey: .maxDetections)
        try c.encode(images, forKey: .images)
        try c.encode(classes, forKey: .classes)
        try c.encode(map50, forKey: .map50)
        try c.encode(mapCenter, forKey: .mapCenter)
        try c.encode(weightedMap50, forKey: .weightedMap50)
        try c.encode(weightedMapCenter, forKey: .weightedMapCenter)
        try c.encode(thresholds, forKey: .thresholds)
        try c.encode(confusion, forKey: .confusion)
        try c.encode(notes, forKey: .notes)
        try c.encodeIfPresent(coco, forKey: .coco)
        try c.encodeIfPresent(sizes, forKey: .sizes)
    }

    public static let currentFormat = 1

    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads `DIR/metrics.json` (or a metrics.json path).
    public static func load(_ path: String) throws -> (report: EvaluationReport, folder: URL) {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            url = url.appendingPathComponent("metrics.json")
        }
        let data: Data
        do { data = Data(try ReadableFile.contents(of: url, maximumBytes: 256 << 20)) } catch let error as FileReadError {
            let hint = error.kind == .notFound ? "; pass a folder written by `screenlab evaluate --out`" : ""
            throw EvaluationError.badReport(path: url.path, reason: "\(error.reason)\(hint)")
        }
        let report: EvaluationReport
        do {
            report = try JSONDecoder().decode(EvaluationReport.self, from: data)
        } catch {
            throw EvaluationError.badReport(path: url.path, reason: "not a ScreenLab metrics.json (\(Self.describe(error)))")
        }
        // Classes are found by name (compare, thresholds, serve): two of one name would silently
        // read the first one's figures for both.
        var seen: [String: Int] = [:]
        for (i, c) in report.classes.enumerated() {
            if let first = seen[c.name] {
                throw EvaluationError.badReport(path: url.path, reason: "classes[\(first)] and classes[\(i)] are both named '\(c.name)'; "
                                                + "class names must be unique (evaluate again with a dataset whose classes are)")
            }
            seen[c.name] = i
        }
        return (report, url.deletingLastPathComponent())
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        default:
            return "\(error)"
        }
    }
}
