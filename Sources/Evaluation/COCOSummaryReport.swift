/// COCO's summary as `metrics.json` stores it: `coco` at the top level (the cap, the thresholds
/// and the means) and `coco` in each class (null for a class without ground truth, which
/// pycocotools marks -1 and leaves out of the means). Reports written before it have neither.
public struct COCOSummaryReport: Equatable, Codable {
    /// Detections kept per image and class before matching (COCOeval's maxDets; its default is 100).
    public var maxDetections: Int
    public var iouThresholds: [Double]
    /// AR is reported at each of these caps (COCO's 1, 10, 100 below the cap, then the cap).
    public var caps: [Int]
    public var map: Double?
    public var map50: Double?
    public var map75: Double?
    /// Mean AR keyed by cap ("1", "10", "100", "300").
    public var mar: [String: Double]

    enum CodingKeys: String, CodingKey {
        case maxDetections = "max_detections_per_image_and_class", iouThresholds = "iou_thresholds", caps
        case map = "map50_95", map50, map75, mar
    }

    public init(_ summary: COCOSummary) {
        maxDetections = summary.maxDetections
        iouThresholds = COCOSummary.iouThresholds
        caps = summary.caps
        map = summary.map; map50 = summary.map50; map75 = summary.map75
        mar = Dictionary(uniqueKeysWithValues: summary.caps.indices.compactMap { i in summary.mar(i).map { (String(summary.caps[i]), $0) } })
    }

    /// Mean AR at the cap itself.
    public var marAtCap: Double? { mar[String(maxDetections)] }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(maxDetections, forKey: .maxDetections)
        try c.encode(iouThresholds, forKey: .iouThresholds)
        try c.encode(caps, forKey: .caps)
        try c.encode(map, forKey: .map)
        try c.encode(map50, forKey: .map50)
        try c.encode(map75, forKey: .map75)
        try c.encode(mar, forKey: .mar)
    }

    public struct ClassScores: Equatable, Codable {
        public var ap: Double
        public var ap50: Double
        public var ap75: Double
        public var apPerIoU: [Double]
        /// AR keyed by cap, as `mar`.
        public var ar: [String: Double]

        enum CodingKeys: String, CodingKey { case ap = "ap50_95", ap50, ap75, apPerIoU = "ap_per_iou", ar }

        /// nil for a class without ground truth.
        public init?(_ scores: COCOClassSummary, caps: [Int]) {
            guard let perIoU = scores.apPerIoU, let recall = scores.recall, let ap = scores.ap,
                  let ap50 = scores.ap50, let ap75 = scores.ap75 else { return nil }
            self.ap = ap; self.ap50 = ap50; self.ap75 = ap75; apPerIoU = perIoU
            ar = Dictionary(uniqueKeysWithValues: zip(caps.map(String.init), recall))
        }
    }
}
