/// §5.6: "(i) We build vertical segments by determining Y coordinates where we can draw a
/// horizontal line across the screen without overlapping any element. (ii) Within each
/// vertical segment, we build horizontal segments by locating X coordinates where we can draw
/// a vertical line down the segment without overlapping any element. (iii) We recursively call
/// this algorithm on all horizontal segments to further create vertical segments and so forth.
/// When we can no longer subdivide a segment, we order the elements inside by top-to-bottom.
/// If there is a tie, we order them left-to-right."
public enum XYCut {
    /// The reading order of `boxes`: their indices, first to last.
    ///
    /// Boxes that only touch can be cut apart (`split`). Segments deeper than `maximumDepth` are ordered as if they could not be cut;
    /// the work runs on an explicit stack, so no layout can overflow the call stack, and each
    /// level costs a sort of the segment: O(depth · n log n) at worst.
    public static func order(_ boxes: [ScreenRect], maximumDepth: Int = AccessibilityOptions().maximumCutDepth) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(boxes.count)
        // Pending segments, last-in first-out: pushed in reverse so they pop in reading order.
        var pending: [(members: [Int], depth: Int)] = [(Array(boxes.indices), 0)]
        while let (members, depth) = pending.popLast() {
            guard members.count > 1 else { result += members; continue }
            var parts: [[Int]] = []
            if depth < maximumDepth {
                for band in split(members, boxes, along: \.minY, \.maxY) {
                    parts += split(band, boxes, along: \.minX, \.maxX)
                }
            }
            if parts.count <= 1 {
                result += members.sorted { (boxes[$0].minY, boxes[$0].minX, $0) < (boxes[$1].minY, boxes[$1].minX, $1) }
            } else {
                pending += parts.reversed().map { ($0, depth + 1) }
            }
        }
        return result
    }

    /// The members split at every coordinate where a line across crosses no box, in
    /// ascending order along the axis (a sweep over the boxes sorted by their low edge). A line
    /// along a box's edge does not cross it, but one through a zero-size box does: points on
    /// one row stay in one segment.
    static func split(_ members: [Int], _ boxes: [ScreenRect], along low: KeyPath<ScreenRect, Double>, _ high: KeyPath<ScreenRect, Double>) -> [[Int]] {
        let sorted = members.sorted { (boxes[$0][keyPath: low], $0) < (boxes[$1][keyPath: low], $1) }
        var parts: [[Int]] = [], current: [Int] = []
        var reach = -Double.infinity, reachIsAPoint = false
        for index in sorted {
            let start = boxes[index][keyPath: low], end = boxes[index][keyPath: high]
            if !current.isEmpty, start > reach || (start == reach && !reachIsAPoint && end > start) {
                parts.append(current); current = []
            }
            current.append(index)
            if end > reach { reach = end; reachIsAPoint = start == end } else if end == reach, start == end { reachIsAPoint = true }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
