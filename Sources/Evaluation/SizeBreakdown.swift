import Data

/// A way to cut boxes by size, on √area: COCO's small / medium / large in each image's own
/// pixels (so figures line up with pycocotools' areaRng), or UI sizes in model-input pixels,
/// after the letterbox that fits the screen into the detector's input — the pixels the model
/// actually sees, the same for a 385×640 Rico screen and a 1242×2208 iPhone one.
public struct SizeScheme: Equatable, Codable, Sendable {
    public enum Space: String, Codable, Sendable { case source, input }

    /// Boxes with √area in [minSide, maxSide] (both ends included, as pycocotools' areaRng).
    public struct Bucket: Equatable, Codable, Sendable {
        public var name: String
        public var minSide: Double
        public var maxSide: Double
        enum CodingKeys: String, CodingKey { case name, minSide = "min_side", maxSide = "max_side" }
    }

    public var name: String
    public var space: Space
    /// The input the letterbox fits into (`space == .input`).
    public var inputWidth: Int?
    public var inputHeight: Int?
    public var buckets: [Bucket]

    enum CodingKeys: String, CodingKey { case name, space, inputWidth = "input_width", inputHeight = "input_height", buckets }

    /// pycocotools' areaRng for bbox: small [0, 32²], medium [32², 96²], large [96², 1e5²].
    public static let coco = SizeScheme(name: "COCO sizes (source pixels)", space: .source, inputWidth: nil, inputHeight: nil, buckets: [
        Bucket(name: "small", minSide: 0, maxSide: 32), Bucket(name: "medium", minSide: 32, maxSide: 96),
        Bucket(name: "large", minSide: 96, maxSide: 1e5),
    ])

    /// Octaves of √area at the model's input: a 4-px page-control dot, a 12-px glyph, a 20-px text
    /// line, a 48-px button, a 96-px card, a full-width picture. The detector's strides (8, 16, 32)
    /// sit at these edges.
    public static func input(width: Int, height: Int) -> SizeScheme {
        let edges: [Double] = [0, 8, 16, 32, 64, 128, 1e5]
        let buckets = (0..<(edges.count - 1)).map { i -> Bucket in
            let name = i == 0 ? "< 8 px" : i == edges.count - 2 ? "≥ \(Int(edges[i])) px" : "\(Int(edges[i]))–\(Int(edges[i + 1])) px"
            return Bucket(name: name, minSide: edges[i], maxSide: edges[i + 1])
        }
        return SizeScheme(name: "UI sizes (\(width)×\(height) model input)", space: .input, inputWidth: width, inputHeight: height, buckets: buckets)
    }

    /// Multiplies a box's w·h in source pixels into this scheme's pixels for an image of that size.
    func areaScale(imageWidth: Int, imageHeight: Int) -> Double {
        guard space == .input, let inputWidth, let inputHeight, imageWidth > 0, imageHeight > 0 else { return 1 }
        let scale = min(Double(inputWidth) / Double(imageWidth), Double(inputHeight) / Double(imageHeight))
        return scale * scale
    }
}

/// Boxes of one area range, in units scaled per image (see `SizeScheme.areaScale`).
struct AreaRange {
    let minimum: Double, maximum: Double
    let imageScale: [Double]

    func excludes(_ area: Double, image: Int) -> Bool {
        let scaled = area * imageScale[image]
        return scaled < minimum || scaled > maximum
    }
}

/// One class's scores on the boxes of one size bucket.
public struct SizeBucketScores: Equatable, Codable, Sendable {
    /// Ground-truth boxes of the class in the bucket.
    public var groundTruth: Int
    /// AP at IoU 0.5 with the evaluation's interpolation (nil without ground truth).
    public var ap50: Double?
    /// pycocotools' AP@0.5:0.95 for this area range (coco101).
    public var ap50to95: Double?
    /// Share of the bucket's boxes found at IoU ≥ 0.5 by any kept detection.
    public var recall50: Double?

    enum CodingKeys: String, CodingKey { case groundTruth = "ground_truth", ap50, ap50to95 = "ap50_95", recall50 = "recall50" }
}

/// Every class's scores per size bucket of one scheme, and the means over classes with boxes
/// in the bucket (as the main table averages classes with ground truth).
public struct SizeBreakdown: Equatable, Codable, Sendable {
    public var scheme: SizeScheme
    /// Detections kept per image and class before matching (COCO's maxDets).
    public var maxDetections: Int
    /// [bucket][class], classes in the evaluation's order.
    public var scores: [[SizeBucketScores]]

    enum CodingKeys: String, CodingKey { case scheme, maxDetections = "max_detections_per_image_and_class", scores }

    public func meanAP50(bucket b: Int) -> Double? { COCOSummary.mean(scores[b].map(\.ap50)) }
    public func meanAP50to95(bucket b: Int) -> Double? { COCOSummary.mean(scores[b].map(\.ap50to95)) }
    public func meanRecall50(bucket b: Int) -> Double? { COCOSummary.mean(scores[b].map(\.recall50)) }
    public func groundTruth(bucket b: Int) -> Int { scores[b].reduce(0) { $0 + $1.groundTruth } }
}

extension EvaluationIndex {
    /// Per bucket of `scheme` and class: pycocotools' matching with boxes outside the bucket
    /// ignored (`matchAllThresholds(area:)`), at `cap` detections per image and class.
    func sizeBreakdown(_ scheme: SizeScheme, samples: [Sample], cap: Int, interpolation: Interpolation) -> SizeBreakdown {
        let thresholds = COCOSummary.iouThresholds
        let imageScale = samples.map { scheme.areaScale(imageWidth: $0.width, imageHeight: $0.height) }
        var matched = [UInt16](repeating: 0, count: gtClass.count)
        var scores: [[SizeBucketScores]] = []
        for bucket in scheme.buckets {
            let area = AreaRange(minimum: bucket.minSide * bucket.minSide, maximum: bucket.maxSide * bucket.maxSide, imageScale: imageScale)
            var row: [SizeBucketScores] = []
            for c in 0..<classCount {
                var counted = 0
                for image in 0..<imageCount {
                    for g in gtRange(image: image, classIndex: c) where !area.excludes(gtArea[g], image: image) { counted += 1 }
                }
                guard counted > 0 else {
                    row.append(SizeBucketScores(groundTruth: 0, ap50: nil, ap50to95: nil, recall50: nil))
                    continue
                }
                let (hits, ignored) = matchAllThresholds(classIndex: c, thresholds: thresholds, cap: cap, matched: &matched, area: area)
                let start = classStart[c]
                var perThreshold: [Double] = []
                var ranked: [Bool] = []
                var ap50: Double?
                var found50 = 0
                for t in thresholds.indices {
                    let bit = UInt16(1) << UInt16(t)
                    ranked.removeAll(keepingCapacity: true)
                    for k in hits.indices where detImageRank[start + k] < cap && ignored[k] & bit == 0 {
                        ranked.append(hits[k] & bit != 0)
                    }
                    perThreshold.append(AveragePrecision.coco101(ranked, groundTruthCount: counted))
                    if t == COCOSummary.index50 {
                        found50 = ranked.lazy.filter { $0 }.count
                        ap50 = interpolation == .coco101 ? perThreshold[t] : AveragePrecision.allPoint(ranked, groundTruthCount: counted)
                    }
                }
                row.append(SizeBucketScores(groundTruth: counted, ap50: ap50, ap50to95: perThreshold.reduce(0, +) / Double(perThreshold.count),
                                            recall50: Double(found50) / Double(counted)))
            }
            scores.append(row)
        }
        return SizeBreakdown(scheme: scheme, maxDetections: cap, scores: scores)
    }
}
