import Data

/// Adaptive Training Sample Selection (Zhang et al., CVPR 2020, "Bridging the Gap Between
/// Anchor-based and Anchor-free Detection", Algorithm 1), one image at a time.
///
/// Per ground truth g:
/// 1. on each level, the `candidatesPerLevel` priors whose centres are nearest g's centre
///    (Euclidean; ties: lower prior index) are candidates;
/// 2. the IoU threshold is mean + standard deviation of the candidates' IoUs with g — the
///    sample standard deviation (divisor n − 1), as `torch.std` computes it in the authors' code
///    and in mmdetection; with a single candidate it is 0;
/// 3. a candidate is positive when its IoU ≥ the threshold and its centre lies inside g by more
///    than 0.01 px on every side (mmdetection's `eps`).
/// A prior positive for several ground truths goes to the one it overlaps most (equal IoUs:
/// the lower ground-truth index).
///
/// Departure (`rescuesUnmatchedGroundTruths`, on by default): a ground truth left with no
/// positive — typically one thinner than a cell, so no prior centre falls inside it (a 6 px
/// page-control dot between the 8 px-spaced centres of stride 8), or one that lost its
/// priors to larger-IoU neighbours — takes its candidate of highest IoU (> 0) that no ground
/// truth claims. In the paper such objects never train; UI screens have many of them.
///
/// Two more departures for long, thin UI elements, off unless asked for (`Rules`):
/// - `minimumPositives` k: the threshold is lowered to the k-th highest IoU among the candidates
///   whose centre lies inside g, when mean + std is above it. For a 256×40 list row every
///   candidate has nearly the same IoU with its square prior (0.16–0.24), so mean + std lies
///   above all of them and the row trains on the one prior the rescue gives it: on vins-ui's
///   training screens 83 % of the containers of side √area 64–128 px, 78 % of those text fields
///   and 63 % of those text boxes.
/// - `reach`: a candidate whose box sides lie farther from its centre than its reach (an
///   anchor-free head's distributions end at bins − 1 strides) is no candidate: its targets
///   would be clamped and it would learn too small a box (28 % of the positives of text fields
///   of side 32–64 px were, all on stride 8).
public struct ATSSAssigner: Sendable {
    public let priors: PriorBoxes
    public var candidatesPerLevel: Int
    public var rescuesUnmatchedGroundTruths: Bool
    public var rules: Rules

    public struct Rules: Equatable, Sendable {
        /// 0: the paper's threshold alone.
        public var minimumPositives: Int
        /// Per prior, the farthest (input pixels) a box side may lie from the prior's centre; nil: no limit.
        public var reach: [Float]?
        /// A prior positive for several boxes goes to the smallest (FCOS's rule) instead of the
        /// one it overlaps most: UI elements nest (text in a button in a list row), and by IoU
        /// with a square prior the row wins the priors of the text inside it.
        public var smallestWins: Bool

        public init(minimumPositives: Int = 0, reach: [Float]? = nil, smallestWins: Bool = false) {
            precondition(minimumPositives >= 0, "ATSSAssigner.Rules needs minimumPositives ≥ 0, got \(minimumPositives)")
            self.minimumPositives = minimumPositives
            self.reach = reach
            self.smallestWins = smallestWins
        }

        public static let paper = Rules()
    }

    /// The mmdetection / ATSS margin by which a prior centre must lie inside a ground truth.
    static let centreMargin = 0.01

    public init(priors: PriorBoxes, candidatesPerLevel: Int = 9, rescuesUnmatchedGroundTruths: Bool = true, rules: Rules = .paper) {
        precondition(candidatesPerLevel > 0, "ATSSAssigner needs at least one candidate per level, got \(candidatesPerLevel)")
        precondition(rules.reach.map { $0.count == priors.count } ?? true,
                     "ATSSAssigner's reach has \(rules.reach?.count ?? 0) entries for \(priors.count) priors")
        self.priors = priors
        self.candidatesPerLevel = candidatesPerLevel
        self.rescuesUnmatchedGroundTruths = rescuesUnmatchedGroundTruths
        self.rules = rules
    }

    public func assign(_ groundTruths: [Annotation]) -> ATSSAssignment {
        let priorCount = priors.count
        var assigned = [Int](repeating: TargetAssignment.background, count: priorCount)
        var assignedIoU = [Double](repeating: -1, count: priorCount)
        var thresholds: [Double] = []
        thresholds.reserveCapacity(groundTruths.count)
        // Per ground truth, its candidates and their IoUs, kept for the rescue pass.
        let perGroundTruth = candidatesPerLevel * priors.levelRanges.count
        var candidates = [Int](repeating: 0, count: groundTruths.count * perGroundTruth)
        var candidateIoUs = [Double](repeating: 0, count: groundTruths.count * perGroundTruth)
        var candidateCounts = [Int](repeating: 0, count: groundTruths.count)
        var nearest = TopKSelector()
        let centerX = priors.centerX, centerY = priors.centerY

        for (g, truth) in groundTruths.enumerated() {
            let box = truth.box
            let base = g * perGroundTruth
            var n = 0
            for range in priors.levelRanges {
                nearest.reset(capacity: min(candidatesPerLevel, range.count))
                if !range.isEmpty { centerX.withUnsafeBufferPointer { xs in
                    centerY.withUnsafeBufferPointer { ys in
                        nearest.offerNearest(centerX: xs.baseAddress!, centerY: ys.baseAddress!, range: range, x: box.centerX, y: box.centerY)
                    }
                } }
                for p in nearest.indices where reaches(p, box) {
                    candidates[base + n] = p
                    candidateIoUs[base + n] = intersectionOverUnion(
                        x1: Double(priors.x1[p]), y1: Double(priors.y1[p]), x2: Double(priors.x2[p]), y2: Double(priors.y2[p]), box)
                    n += 1
                }
            }
            candidateCounts[g] = n
            var threshold = Self.meanPlusStandardDeviation(candidateIoUs[base..<(base + n)])
            if rules.minimumPositives > 0 {
                let inside = (base..<(base + n)).filter {
                    Self.centreLiesInside(Double(priors.centerX[candidates[$0]]), Double(priors.centerY[candidates[$0]]), box)
                }
                if !inside.isEmpty {
                    let ranked = inside.map { candidateIoUs[$0] }.sorted(by: >)
                    threshold = min(threshold, ranked[min(rules.minimumPositives, ranked.count) - 1])
                }
            }
            thresholds.append(threshold)
            for c in base..<(base + n) {
                let p = candidates[c], iou = candidateIoUs[c]
                guard iou >= threshold, Self.centreLiesInside(Double(priors.centerX[p]), Double(priors.centerY[p]), box) else { continue }
                if assigned[p] != TargetAssignment.background {
                    let other = groundTruths[assigned[p]].box
                    let area = box.width * box.height, otherArea = other.width * other.height
                    let wins = rules.smallestWins && area != otherArea ? area < otherArea : iou > assignedIoU[p]
                    guard wins else { continue }
                }
                assigned[p] = g
                assignedIoU[p] = iou
            }
        }

        var rescued: [Int] = []
        if rescuesUnmatchedGroundTruths && !groundTruths.isEmpty {
            var positives = [Int](repeating: 0, count: groundTruths.count)
            for g in assigned where g != TargetAssignment.background { positives[g] += 1 }
            for g in groundTruths.indices where positives[g] == 0 {
                var best = -1, bestIoU = 0.0
                for c in (g * perGroundTruth)..<(g * perGroundTruth + candidateCounts[g]) {
                    let p = candidates[c], iou = candidateIoUs[c]
                    guard assigned[p] == TargetAssignment.background, iou > 0 else { continue }
                    if iou > bestIoU || (iou == bestIoU && p < best) { best = p; bestIoU = iou }
                }
                if best >= 0 { assigned[best] = g; rescued.append(g) }
            }
        }
        return ATSSAssignment(targets: TargetAssignment(groundTruthIndex: assigned), iouThresholds: thresholds,
                              rescuedGroundTruths: rescued)
    }

    /// Whether prior p can stand for `box`: each side within its reach of the prior's centre.
    func reaches(_ p: Int, _ box: BoundingBox) -> Bool {
        guard let reach = rules.reach else { return true }
        let x = Double(priors.centerX[p]), y = Double(priors.centerY[p])
        return max(x - box.minX, box.maxX - x, y - box.minY, box.maxY - y) <= Double(reach[p])
    }

    static func meanPlusStandardDeviation(_ values: ArraySlice<Double>) -> Double {
        guard !values.isEmpty else { return .infinity }
        let n = Double(values.count)
        let mean = values.reduce(0, +) / n
        guard values.count > 1 else { return mean }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        return mean + variance.squareRoot()
    }

    static func centreLiesInside(_ x: Double, _ y: Double, _ box: BoundingBox) -> Bool {
        x - box.minX > centreMargin && box.maxX - x > centreMargin && y - box.minY > centreMargin && box.maxY - y > centreMargin
    }
}

extension ATSSAssigner {
    /// The training loss's ATSS for a detector's head: on an anchor-free head's points (square
    /// priors of 8 strides, a reach of bins − 1 strides when `withinReach`), or on its anchors
    /// (whose log-scale offsets have no fixed reach).
    public init(head decoder: HeadDecoder, minimumPositives: Int, withinReach: Bool, smallestWins: Bool = false,
                rescuesUnmatchedGroundTruths: Bool = true) {
        if let points = decoder.points {
            self.init(priors: PriorBoxes(points: points), rescuesUnmatchedGroundTruths: rescuesUnmatchedGroundTruths,
                      rules: Rules(minimumPositives: minimumPositives, reach: withinReach ? Self.reach(of: decoder) : nil, smallestWins: smallestWins))
        } else {
            self.init(priors: PriorBoxes(anchors: decoder.anchors!), rescuesUnmatchedGroundTruths: rescuesUnmatchedGroundTruths,
                      rules: Rules(minimumPositives: minimumPositives, smallestWins: smallestWins))
        }
    }

    /// Per point of an anchor-free head, the farthest a box side can be decoded: bins − 1 strides
    /// (nil for an anchored head).
    public static func reach(of decoder: HeadDecoder) -> [Float]? {
        decoder.points.map { points in points.stride.map { $0 * Float(decoder.configuration.distributionBins - 1) } }
    }
}

/// An ATSS result with what it was decided from, for logs and tests.
public struct ATSSAssignment: Equatable, Sendable {
    public let targets: TargetAssignment
    /// Per ground truth: the adaptive IoU threshold (mean + sample std of its candidates' IoUs).
    public let iouThresholds: [Double]
    /// Ground truths that got their one positive from the rescue pass, in index order.
    public let rescuedGroundTruths: [Int]
}
