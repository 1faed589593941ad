import Data

/// One detection on the source image.
public struct DetectedBox: Equatable {
    public var classIndex: Int
    public var score: Double
    /// Source-image pixels, clipped to the image.
    public var box: BoundingBox

    public init(classIndex: Int, score: Double, box: BoundingBox) {
        self.classIndex = classIndex; self.score = score; self.box = box
    }
}

/// Head outputs of one image → detections on the source image; the one path shared by
/// training's validation, `evaluate --weights` and `predict`.
///
/// Steps, each greedy in one global order — score descending, then class index, then prior
/// index (the head's output position: level, row, column) — so results are deterministic:
/// 1. keep (prior, class) candidates with score ≥ their class's threshold;
/// 2. keep the `preNMSTopK` first;
/// 3. map boxes to the source image through the letterbox and clip; drop empty ones;
/// 4. class-wise NMS at `nmsIoU`;
/// 5. cross-class duplicate removal within `crossClassGroups` at `crossClassIoU`, among the
///    NMS survivors (as if run after NMS: a detection NMS drops cannot remove another);
/// 6. stop at `maxDetections`.
/// Candidates are sorted once (a 64-bit key per candidate); NMS then compares each candidate
/// only with the kept detections of its class, so ≥ 30k candidates cost a sort plus
/// O(preNMSTopK · kept per class).
public struct DetectionPostprocessor: Sendable {
    public let classCount: Int
    public let options: PostprocessOptions
    private let thresholds: [Double]
    /// [K·K]: whether two classes share a cross-class group.
    private let sharesGroup: [Bool]
    private let isGrouped: [Bool]

    public init(classCount: Int, options: PostprocessOptions = PostprocessOptions()) throws {
        try options.validate(classCount: classCount)
        self.classCount = classCount
        self.options = options
        thresholds = (0..<classCount).map { c in
            (c < options.classConfidenceThresholds.count ? options.classConfidenceThresholds[c] : nil) ?? options.scoreThreshold
        }
        var shares = [Bool](repeating: false, count: classCount * classCount)
        var grouped = [Bool](repeating: false, count: classCount)
        for group in options.crossClassGroups {
            for a in group {
                grouped[a] = true
                for b in group { shares[a * classCount + b] = true }
            }
        }
        sharesGroup = shares
        isGrouped = grouped
    }

    /// - Parameters:
    ///   - classProbabilities: [P, K] row-major, after the sigmoid.
    ///   - boxes: [P, 4] as x1, y1, x2, y2 in model-input pixels.
    ///   - mapping: the letterbox the input was made with.
    public func detections(classProbabilities: UnsafeBufferPointer<Float>, boxes: UnsafeBufferPointer<Float>,
                           mapping: InputToSourceMapping) -> [DetectedBox] {
        let priorCount = boxes.count / 4
        precondition(boxes.count == priorCount * 4 && classProbabilities.count == priorCount * classCount,
                     "DetectionPostprocessor: \(classProbabilities.count) probabilities and \(boxes.count) box values do not make [P, \(classCount)] and [P, 4]")
        precondition(priorCount * classCount < 1 << 32, "DetectionPostprocessor: more than 2³² candidates")

        // 1–2: candidates as sort keys: the high 32 bits order by score descending, the low 32
        // by class then prior, so one ascending sort gives the global order.
        var keys: [UInt64] = []
        for p in 0..<priorCount {
            for c in 0..<classCount {
                let score = classProbabilities[p * classCount + c]
                guard Double(score) >= thresholds[c] else { continue }
                keys.append(UInt64(~Self.orderPreservingBits(score)) << 32 | UInt64(c * priorCount + p))
            }
        }
        keys.sort()
        if keys.count > options.preNMSTopK { keys.removeLast(keys.count - options.preNMSTopK) }

        // 3–6.
        var nmsKept = [[BoundingBox]](repeating: [], count: classCount)
        var groupKept: [(classIndex: Int, box: BoundingBox)] = []
        var result: [DetectedBox] = []
        for key in keys {
            let low = Int(key & 0xFFFF_FFFF)
            let c = low / priorCount, p = low % priorCount
            guard let box = mapping.sourceBox(x1: Double(boxes[4 * p]), y1: Double(boxes[4 * p + 1]),
                                              x2: Double(boxes[4 * p + 2]), y2: Double(boxes[4 * p + 3])) else { continue }
            if nmsKept[c].contains(where: { $0.iou(box) > options.nmsIoU }) { continue }
            nmsKept[c].append(box)
            if isGrouped[c] {
                if groupKept.contains(where: { sharesGroup[c * classCount + $0.classIndex] && $0.box.iou(box) > options.crossClassIoU }) {
                    continue
                }
                groupKept.append((c, box))
            }
            result.append(DetectedBox(classIndex: c, score: Double(classProbabilities[p * classCount + c]), box: box))
            if result.count == options.maxDetections { break }
        }
        return result
    }

    public func detections(classProbabilities: [Float], boxes: [Float], mapping: InputToSourceMapping) -> [DetectedBox] {
        classProbabilities.withUnsafeBufferPointer { probabilities in
            boxes.withUnsafeBufferPointer { detections(classProbabilities: probabilities, boxes: $0, mapping: mapping) }
        }
    }

    /// Float bits as an unsigned integer that sorts like the float (negatives flipped), so a
    /// score can lead an integer sort key.
    @inline(__always)
    static func orderPreservingBits(_ value: Float) -> UInt32 {
        let bits = value.bitPattern
        return bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
    }
}
