import Data

/// Which ground truth each prior (point or anchor) learns from on one image.
public struct TargetAssignment: Equatable, Sendable {
    /// The value of `groundTruthIndex` for a prior that learns background.
    public static let background = -1

    /// Per prior: the index of its ground truth in the image's list, or `background`.
    public let groundTruthIndex: [Int]

    public init(groundTruthIndex: [Int]) { self.groundTruthIndex = groundTruthIndex }

    public var priorCount: Int { groundTruthIndex.count }
    public var positiveIndices: [Int] { groundTruthIndex.indices.filter { groundTruthIndex[$0] != Self.background } }
    public var positiveCount: Int { groundTruthIndex.reduce(0) { $0 + ($1 != Self.background ? 1 : 0) } }

    /// The ground truth prior `prior` learns (class and box), nil for background.
    public func groundTruth(ofPrior prior: Int, in groundTruths: [Annotation]) -> Annotation? {
        let g = groundTruthIndex[prior]
        return g == Self.background ? nil : groundTruths[g]
    }

    /// Per prior: the target class index, or −1 for background.
    public func targetClasses(_ groundTruths: [Annotation]) -> [Int] {
        groundTruthIndex.map { $0 == Self.background ? -1 : groundTruths[$0].classIndex }
    }
}

/// IoU of a box given as x1, y1, x2, y2 with a ground truth, in Double (the assigners' hand-
/// checked thresholds compare IoUs for equality, so they are computed one way everywhere).
@inline(__always)
func intersectionOverUnion(x1: Double, y1: Double, x2: Double, y2: Double, _ box: BoundingBox) -> Double {
    let iw = min(x2, box.maxX) - max(x1, box.minX)
    let ih = min(y2, box.maxY) - max(y1, box.minY)
    guard iw > 0, ih > 0 else { return 0 }
    let intersection = iw * ih
    let union = max(0, x2 - x1) * max(0, y2 - y1) + box.area - intersection
    return union > 0 ? intersection / union : 0
}

/// The k best (value, index) pairs seen, best first: a higher value wins, an equal value goes
/// to the lower index (so results do not depend on the sort's stability). Reused across ground
/// truths: `reset` keeps the storage. Insertion into a sorted buffer is O(k), and k ≤ 13 here.
struct TopKSelector {
    private(set) var values: [Double] = []
    private(set) var indices: [Int] = []
    private var capacity = 0

    mutating func reset(capacity: Int) {
        self.capacity = capacity
        values.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
    }

    var count: Int { values.count }

    @inline(__always)
    private static func isBetter(_ value: Double, _ index: Int, than otherValue: Double, _ otherIndex: Int) -> Bool {
        value > otherValue || (value == otherValue && index < otherIndex)
    }

    mutating func offer(_ value: Double, index: Int) {
        guard capacity > 0 else { return }
        if values.count == capacity {
            guard Self.isBetter(value, index, than: values[capacity - 1], indices[capacity - 1]) else { return }
            values.removeLast(); indices.removeLast()
        }
        var position = values.count
        while position > 0 && Self.isBetter(value, index, than: values[position - 1], indices[position - 1]) { position -= 1 }
        values.insert(value, at: position)
        indices.insert(index, at: position)
    }
}
