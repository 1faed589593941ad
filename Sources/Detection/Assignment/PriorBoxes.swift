/// Prior boxes (x1, y1, x2, y2 in input pixels) and their centres, grouped by pyramid level:
/// what ATSS compares ground truths against.
public struct PriorBoxes: Equatable, Sendable {
    public let x1: [Float]
    public let y1: [Float]
    public let x2: [Float]
    public let y2: [Float]
    public let centerX: [Float]
    public let centerY: [Float]
    public let levelRanges: [Range<Int>]

    public var count: Int { x1.count }

    public init(x1: [Float], y1: [Float], x2: [Float], y2: [Float], centerX: [Float], centerY: [Float],
                levelRanges: [Range<Int>]) {
        precondition([y1.count, x2.count, y2.count, centerX.count, centerY.count].allSatisfy { $0 == x1.count }
                     && levelRanges.last?.upperBound == x1.count,
                     "PriorBoxes: every array needs one value per prior and the level ranges must cover them")
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        self.centerX = centerX; self.centerY = centerY
        self.levelRanges = levelRanges
    }

    /// The priors of an anchor-free head: a square of side `anchorScale`·stride on each point.
    /// 8 is ATSS's choice (Zhang et al. 2020, §4: one square anchor of 8S per location;
    /// mmdetection's `octave_base_scale=8`); it only sets the IoUs the adaptive threshold is
    /// computed from, not which points are candidates.
    public init(points: PointGrid, anchorScale: Float = 8) {
        let half = points.stride.map { $0 * anchorScale / 2 }
        self.init(x1: zip(points.x, half).map { $0 - $1 }, y1: zip(points.y, half).map { $0 - $1 },
                  x2: zip(points.x, half).map { $0 + $1 }, y2: zip(points.y, half).map { $0 + $1 },
                  centerX: points.x, centerY: points.y, levelRanges: points.levelRanges)
    }

    public init(anchors: AnchorGrid) {
        let halfWidth = anchors.width.map { $0 / 2 }, halfHeight = anchors.height.map { $0 / 2 }
        self.init(x1: zip(anchors.centerX, halfWidth).map { $0 - $1 }, y1: zip(anchors.centerY, halfHeight).map { $0 - $1 },
                  x2: zip(anchors.centerX, halfWidth).map { $0 + $1 }, y2: zip(anchors.centerY, halfHeight).map { $0 + $1 },
                  centerX: anchors.centerX, centerY: anchors.centerY, levelRanges: anchors.levelRanges)
    }
}
