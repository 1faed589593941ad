import Imaging

/// One group a heuristic found: which of its input elements become one, and as what.
struct ElementGroup {
    var indices: [Int]
    var kind: String
    var grouping: AccessibleElement.Grouping
    var labelHint: String?
}

extension Array where Element == AccessibleElement {
    /// The elements with each group merged into one element at its first member's position;
    /// elements in no group stay as they are. Groups must not share indices.
    func regrouped(_ groups: [ElementGroup]) -> [AccessibleElement] {
        var groupOf = [Int?](repeating: nil, count: count)
        for (g, group) in groups.enumerated() { for i in group.indices { groupOf[i] = g } }
        var emitted = Set<Int>(), result: [AccessibleElement] = []
        for (i, element) in enumerated() {
            guard let g = groupOf[i] else { result.append(element); continue }
            guard emitted.insert(g).inserted else { continue }
            let group = groups[g]
            result.append(.merging(group.indices.map { self[$0] }, kind: group.kind, grouping: group.grouping, labelHint: group.labelHint))
        }
        return result
    }
}

extension BoundingBox {
    /// Whether `other` lies below this box: its top is not above ours and its middle is past
    /// our bottom (so a line that overlaps ours by a few pixels still counts, a neighbour on
    /// the same line does not).
    func hasBelow(_ other: BoundingBox) -> Bool {
        other.minY >= minY && other.centerY > maxY
    }

    /// Vertical gap from our bottom to `other`'s top; negative when they overlap.
    func gap(toBelow other: BoundingBox) -> Double { other.minY - maxY }
}
