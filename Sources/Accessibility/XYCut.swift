import Imaging

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
    /// Boxes that only touch can be cut apart, and with `slack` > 0 so can boxes overlapping by
    /// up to `slack` pixels (and a quarter of the smaller box: see `split`). `slack` 0 is the
    /// paper's rule. Segments deeper than `maximumDepth` are ordered as if they could not be
    /// cut; the work runs on an explicit stack, so no layout can overflow the call stack, and
    /// each level costs a sort of the segment: O(depth · n log n) at worst.
    public static func order(_ boxes: [BoundingBox], slack: Double = 0, maximumDepth: Int = AccessibilityOptions().maximumCutDepth) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(boxes.count)
        // Pending segments, last-in first-out: pushed in reverse so they pop in reading order.
        var pending: [(members: [Int], depth: Int)] = [(Array(boxes.indices), 0)]
        while let (members, depth) = pending.popLast() {
            guard members.count > 1 else { result += members; continue }
            var parts: [[Int]] = []
            if depth < maximumDepth {
                for band in split(members, boxes, along: \.minY, \.maxY, slack: slack) {
                    parts += split(band, boxes, along: \.minX, \.maxX, slack: slack)
                }
            }
            if parts.count <= 1 {
                result += topToBottomThenLeftToRight(members, boxes)
            } else {
                pending += parts.reversed().map { ($0, depth + 1) }
            }
        }
        return result
    }

    /// An uncut segment in the paper's order: by top, ties left to right. Our reading of a
    /// tie: detections of one line never share a top to the pixel, so an element whose top is
    /// within half the smaller height of the top that began the line is on that line (a tab
    /// bar inside a Container detection reads left to right, not by a pixel of difference).
    static func topToBottomThenLeftToRight(_ members: [Int], _ boxes: [BoundingBox]) -> [Int] {
        let byTop = members.sorted { (boxes[$0].minY, boxes[$0].minX, $0) < (boxes[$1].minY, boxes[$1].minX, $1) }
        var result: [Int] = [], line: [Int] = []
        func finishLine() { result += line.sorted { (boxes[$0].minX, boxes[$0].minY, $0) < (boxes[$1].minX, boxes[$1].minY, $1) } }
        for index in byTop {
            if let first = line.first, boxes[index].minY - boxes[first].minY <= 0.5 * min(boxes[first].height, boxes[index].height) {
                line.append(index)
            } else {
                finishLine()
                line = [index]
            }
        }
        finishLine()
        return result
    }

    /// The members split at every coordinate where a line across crosses no box, in
    /// ascending order along the axis (a sweep over the boxes sorted by their low edge). A line
    /// along a box's edge does not cross it, but one through a zero-size box does: points on
    /// one row stay in one segment.
    ///
    /// `slack` (our choice, not the paper's): detections are not pixel-tight, and two cards of
    /// a grid whose boxes overlap by 3 pixels would block the cut between the rows and turn a
    /// row-by-row grid into columns. A cut may cross the box that reaches furthest and the next
    /// one by up to `slack`, and by at most a quarter of the smaller of the two, so lines of
    /// small icons or text overlapping by most of their height are never cut apart.
    static func split(_ members: [Int], _ boxes: [BoundingBox], along low: KeyPath<BoundingBox, Double>, _ high: KeyPath<BoundingBox, Double>,
                      slack: Double = 0) -> [[Int]] {
        let sorted = members.sorted { (boxes[$0][keyPath: low], $0) < (boxes[$1][keyPath: low], $1) }
        var parts: [[Int]] = [], current: [Int] = []
        var reach = -Double.infinity, reachIsAPoint = false, reachExtent = 0.0
        for index in sorted {
            let start = boxes[index][keyPath: low], end = boxes[index][keyPath: high]
            let allowed = max(0, min(slack, 0.25 * min(end - start, reachExtent)))
            if !current.isEmpty, start > reach - allowed || (start == reach && !reachIsAPoint && end > start) {
                parts.append(current); current = []
                reach = -Double.infinity
            }
            current.append(index)
            if end > reach {
                reach = end; reachIsAPoint = start == end; reachExtent = end - start
            } else if end == reach, start == end {
                reachIsAPoint = true
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
