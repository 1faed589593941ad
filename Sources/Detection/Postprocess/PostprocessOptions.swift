/// What `DetectionPostprocessor` keeps of a head's per-point class probabilities and boxes.
public struct PostprocessOptions: Equatable, Sendable {
    /// Minimum score a (point, class) candidate needs before NMS. 0.05 for `predict` and
    /// validation (mmdetection's test default); evaluation passes ~0.001 so the precision–recall
    /// curve reaches low confidences (the AP integrates over all of them).
    public var scoreThreshold: Double
    /// Per class, a confidence threshold that replaces `scoreThreshold` for that class (from a
    /// weights file's picked thresholds); nil or a missing entry uses `scoreThreshold`. Empty
    /// means none. Scores equal to a threshold are kept, as in Evaluation's operating points.
    public var classConfidenceThresholds: [Double?]
    /// At most this many candidates per image (all classes together) go into NMS, the highest
    /// scores first: bounds NMS's cost on an untrained model that scores everything.
    public var preNMSTopK: Int
    /// Class-wise NMS: a detection overlapping a higher-scoring kept one of its class with
    /// IoU > this is dropped. 0.6 (mmdetection's ATSS/GFL test setting) rather than 0.5/0.45:
    /// dense UI screens put genuinely distinct elements next to each other (stacked text lines,
    /// icon rows, nested containers).
    public var nmsIoU: Double
    /// Groups of visually similar classes (class indices; see `SimilarClassGroups`). Screen
    /// Recognition's duplicate removal: among detections whose classes share a group, one that
    /// overlaps a higher-scoring kept one with IoU > `crossClassIoU` is dropped (one element
    /// detected as both Icon and Picture keeps its best label).
    public var crossClassGroups: [[Int]]
    /// 0.8: only near-identical boxes are duplicates; an icon inside a picture (lower IoU) stays.
    /// AP is scored with `scoringCrossClassIoU` instead (no cross-class removal).
    public var crossClassIoU: Double
    /// The cross-class IoU that removes nothing (no IoU exceeds 1): what AP is scored with, since
    /// each class's AP is a detector's, and a wrong-class box outscoring the right one would
    /// otherwise delete a true positive from the right class's curve.
    public static let scoringCrossClassIoU = 1.0
    /// At most this many detections per screen. 300 rather than COCO's 100: UI screens hold 50+
    /// elements and dense lists more than 100.
    public var maxDetections: Int

    public init(scoreThreshold: Double = 0.05, classConfidenceThresholds: [Double?] = [], preNMSTopK: Int = 1000,
                nmsIoU: Double = 0.6, crossClassGroups: [[Int]] = [], crossClassIoU: Double = 0.8, maxDetections: Int = 300) {
        self.scoreThreshold = scoreThreshold
        self.classConfidenceThresholds = classConfidenceThresholds
        self.preNMSTopK = preNMSTopK
        self.nmsIoU = nmsIoU
        self.crossClassGroups = crossClassGroups
        self.crossClassIoU = crossClassIoU
        self.maxDetections = maxDetections
    }

    /// Throws, naming the option and its value, unless these options fit a model of `classCount` classes.
    public func validate(classCount: Int) throws {
        func fail(_ option: String, _ value: Any, _ need: String) -> PostprocessOptionsError {
            PostprocessOptionsError(description: "post-processing option \(option) is \(value); it must be \(need)")
        }
        guard classCount >= 1 else { throw fail("class count", classCount, "at least 1") }
        guard scoreThreshold.isFinite else { throw fail("scoreThreshold", scoreThreshold, "a finite number") }
        guard classConfidenceThresholds.isEmpty || classConfidenceThresholds.count == classCount else {
            throw fail("classConfidenceThresholds", "\(classConfidenceThresholds.count) entries", "empty or one per class (\(classCount))")
        }
        for (c, threshold) in classConfidenceThresholds.enumerated() where threshold.map({ !$0.isFinite }) ?? false {
            throw fail("classConfidenceThresholds[\(c)]", threshold!, "a finite number or null")
        }
        guard preNMSTopK >= 1 else { throw fail("preNMSTopK", preNMSTopK, "at least 1") }
        guard maxDetections >= 1 else { throw fail("maxDetections", maxDetections, "at least 1") }
        guard (0...1).contains(nmsIoU) else { throw fail("nmsIoU", nmsIoU, "in [0, 1]") }
        guard (0...1).contains(crossClassIoU) else { throw fail("crossClassIoU", crossClassIoU, "in [0, 1]") }
        for (g, group) in crossClassGroups.enumerated() {
            if let bad = group.first(where: { !(0..<classCount).contains($0) }) {
                throw fail("crossClassGroups[\(g)]", group, "class indices in 0..<\(classCount) (found \(bad))")
            }
        }
    }
}

public struct PostprocessOptionsError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// Screen Recognition's groups of classes a detector confuses on the same element, and their
/// mapping onto a dataset's class list.
public enum SimilarClassGroups {
    /// A glyph and an image look alike at icon size; a segmented control, a text field and a
    /// container are all outlined rectangles around text.
    public static let screenRecognition: [[String]] = [
        ["Icon", "Picture"],
        ["Segmented Control", "Text Field", "Container"],
    ]

    /// The groups as class indices into `classNames` (names matched case-insensitively). Names
    /// the taxonomy lacks are ignored, and a group left with fewer than two classes is dropped:
    /// it could remove nothing.
    public static func indexGroups(classNames: [String], groupNames: [[String]] = screenRecognition) -> [[Int]] {
        let lowered = classNames.map { $0.lowercased() }
        return groupNames.compactMap { names in
            var indices: [Int] = []
            for name in names {
                if let index = lowered.firstIndex(of: name.lowercased()), !indices.contains(index) { indices.append(index) }
            }
            return indices.count >= 2 ? indices : nil
        }
    }
}
