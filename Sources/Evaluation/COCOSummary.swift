/// One class's share of COCO's summary: AP over IoU 0.50:0.05:0.95 and AR at each cap.
public struct COCOClassSummary: Equatable {
    /// coco101 AP at each of `COCOSummary.iouThresholds`, at the summary's cap; nil without
    /// ground truth (pycocotools: -1, left out of the means).
    public var apPerIoU: [Double]?
    /// Recall at the last kept detection averaged over the IoU thresholds, one per `COCOSummary.caps`
    /// entry; nil without ground truth.
    public var recall: [Double]?

    /// mAP@0.5:0.95's per-class term: the mean over the IoU thresholds.
    public var ap: Double? { apPerIoU.map { $0.reduce(0, +) / Double($0.count) } }
    public var ap50: Double? { apPerIoU?[COCOSummary.index50] }
    public var ap75: Double? { apPerIoU?[COCOSummary.index75] }
}

/// COCO's detection summary computed as pycocotools' COCOeval does for bbox with one area range
/// ('all') and maxDets cut per image and class: greedy matching per IoU threshold in score order,
/// coco101 precision per threshold, recall at the last detection. Crowd regions need no handling:
/// the COCO reader skips iscrowd annotations (UI screens have none), so every box counts.
public struct COCOSummary: Equatable {
    /// np.linspace(0.5, 0.95, 10) as numpy computes it (i · step + start, the last value exactly
    /// the stop), so IoUs that sit on a threshold fall on the same side as in pycocotools.
    public static let iouThresholds: [Double] = {
        let start = 0.5, stop = 0.95, step: Double = (stop - start) / 9
        var values: [Double] = (0..<9).map { (i: Int) -> Double in Double(i) * step + start }
        values.append(stop)
        return values
    }()
    static let index50 = 0, index75 = 5

    /// Detections kept per image and class (COCOeval's maxDets[-1]).
    public var maxDetections: Int
    /// The caps AR is reported at: COCO's 1, 10, 100 below `maxDetections`, then `maxDetections`.
    public var caps: [Int]
    public var classes: [COCOClassSummary]

    public static func caps(upTo cap: Int) -> [Int] { [1, 10, 100].filter { $0 < cap } + [cap] }

    /// Means over classes with ground truth, as COCOeval.summarize() averages entries > -1.
    public var map: Double? { Self.mean(classes.map(\.ap)) }
    public var map50: Double? { Self.mean(classes.map(\.ap50)) }
    public var map75: Double? { Self.mean(classes.map(\.ap75)) }
    /// Mean AR at `caps[i]`.
    public func mar(_ i: Int) -> Double? { Self.mean(classes.map { $0.recall?[i] }) }
    /// Mean AR at `maxDetections`.
    public var marAtCap: Double? { mar(caps.count - 1) }

    static func mean(_ values: [Double?]) -> Double? {
        let present = values.compactMap { $0 }
        return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }
}

extension EvaluationIndex {
    /// One class matched at every IoU threshold at once: bit t of `hits[k]` is set when det[d]
    /// (the class's k-th detection, in order) is a true positive at `thresholds[t]`; detections
    /// whose per-image rank is ≥ `cap` are skipped (pycocotools cuts each image's list to maxDets
    /// before matching). IoUs are computed once per detection and box and reused for every
    /// threshold; per threshold the rule is `rank`'s (highest IoU ≥ threshold, exact ties to the
    /// later box). `matched` holds one threshold bit mask per ground-truth box and is left all zero.
    ///
    /// With `area` (pycocotools' areaRng): ground truth whose area lies outside the range is
    /// ignored: a detection takes an ignored box only when no counted one reaches the threshold,
    /// and is then ignored itself (bit t of `ignored[k]`), as is an unmatched detection whose own
    /// area lies outside.
    func matchAllThresholds(classIndex c: Int, thresholds: [Double], cap: Int, matched: inout [UInt16],
                            area: AreaRange? = nil) -> (hits: [UInt16], ignored: [UInt16]) {
        precondition(thresholds.count <= 16)
        let range = classStart[c]..<classStart[c + 1]
        let allBits = UInt16(truncatingIfNeeded: (1 << thresholds.count) - 1)
        var hits = [UInt16](repeating: 0, count: range.count)
        var ignored = [UInt16](repeating: 0, count: area == nil ? 0 : range.count)
        var touched: [Int] = []
        var overlaps: [Double] = []
        for (rank, d) in range.enumerated() where detImageRank[d] < cap {
            let p = det[d]
            let candidates = gtRange(image: p.imageIndex, classIndex: c)
            let boxArea = p.box.width * p.box.height
            var mask: UInt16 = 0, ignoredMask: UInt16 = 0
            if !candidates.isEmpty {
                overlaps.removeAll(keepingCapacity: true)
                var highest = 0.0
                for g in candidates {
                    let overlap = iou(p.box, boxArea: boxArea, gt: g)
                    overlaps.append(overlap)
                    highest = max(highest, overlap)
                }
                // Thresholds ascend: once none of the boxes reaches one, none reaches the next.
                for (t, threshold) in thresholds.enumerated() where threshold <= highest {
                    let bit = UInt16(1) << UInt16(t)
                    var best = -1, bestIoU = threshold, bestIgnored = false
                    // Counted boxes first; ignored ones only when no counted box reached the threshold.
                    for pass in 0..<(area == nil ? 1 : 2) where best < 0 {
                        let ignoredPass = pass == 1
                        for (j, g) in candidates.enumerated() where matched[g] & bit == 0 {
                            if let area, area.excludes(gtArea[g], image: p.imageIndex) != ignoredPass { continue }
                            if overlaps[j] < bestIoU { continue }
                            bestIoU = overlaps[j]
                            best = g
                            bestIgnored = ignoredPass
                        }
                    }
                    if best >= 0 {
                        if matched[best] == 0 { touched.append(best) }
                        matched[best] |= bit
                        mask |= bit
                        if bestIgnored { ignoredMask |= bit }
                    }
                }
            }
            if let area {
                if area.excludes(boxArea, image: p.imageIndex) { ignoredMask |= allBits & ~mask }
                ignored[rank] = ignoredMask
            }
            hits[rank] = mask
        }
        for g in touched { matched[g] = 0 }
        return (hits, ignored)
    }

    /// COCO's summary for every class at `cap` detections per image and class.
    func cocoSummary(cap: Int) -> COCOSummary {
        let thresholds = COCOSummary.iouThresholds
        let caps = COCOSummary.caps(upTo: cap)
        var matched = [UInt16](repeating: 0, count: gtClass.count)
        var classes: [COCOClassSummary] = []
        for c in 0..<classCount {
            let n = gtCount[c]
            guard n > 0 else {
                classes.append(COCOClassSummary(apPerIoU: nil, recall: nil))
                continue
            }
            let masks = matchAllThresholds(classIndex: c, thresholds: thresholds, cap: cap, matched: &matched).hits
            let start = classStart[c]
            // The ranked list pycocotools accumulates: every detection within the cap, in class order.
            var kept: [Int] = []
            kept.reserveCapacity(masks.count)
            for k in masks.indices where detImageRank[start + k] < cap { kept.append(k) }
            var apPerIoU: [Double] = []
            var hits = [Bool](repeating: false, count: kept.count)
            for t in thresholds.indices {
                let bit = UInt16(1) << UInt16(t)
                for (i, k) in kept.enumerated() { hits[i] = masks[k] & bit != 0 }
                apPerIoU.append(AveragePrecision.coco101(hits, groundTruthCount: n))
            }
            // True positives per cap and threshold: a detection counts for every cap above its image rank.
            var truePositives = [[Int]](repeating: [Int](repeating: 0, count: thresholds.count), count: caps.count)
            for k in kept where masks[k] != 0 {
                let imageRank = Int(detImageRank[start + k])
                for (i, limit) in caps.enumerated() where imageRank < limit {
                    for t in thresholds.indices where masks[k] & (UInt16(1) << UInt16(t)) != 0 { truePositives[i][t] += 1 }
                }
            }
            let recall = truePositives.map { counts in counts.reduce(0.0) { $0 + Double($1) / Double(n) } / Double(thresholds.count) }
            classes.append(COCOClassSummary(apPerIoU: apPerIoU, recall: recall))
        }
        return COCOSummary(maxDetections: cap, caps: caps, classes: classes)
    }
}
