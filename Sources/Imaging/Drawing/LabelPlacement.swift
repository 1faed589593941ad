/// Where the label tags of an overlay go, so that they stay readable on dense screens: a row of
/// icons a few pixels apart would otherwise print each tag over its neighbour's ("Icon 0.660.69").
public enum LabelPlacement {
    public typealias Rect = (x: Int, y: Int, width: Int, height: Int)

    /// For each box, in order, the top-left corner of its tag of `tagSizes[i]`. The first of these
    /// spots that lies in the image and overlaps no tag placed before wins: above the box at its
    /// left edge (where a reader looks first), inside its top-left corner, below it at its left
    /// edge, above it at its right edge, inside its bottom-left corner. Where all of them overlap,
    /// the one overlapping placed tags least wins (the earlier of equals); a spot is moved
    /// sideways into the image, never up or down.
    public static func place(boxes: [Rect], tagSizes: [(width: Int, height: Int)], imageWidth: Int, imageHeight: Int) -> [(x: Int, y: Int)] {
        precondition(boxes.count == tagSizes.count, "LabelPlacement: one tag size per box")
        var placed: [Rect] = [], origins: [(x: Int, y: Int)] = []
        for (box, size) in zip(boxes, tagSizes) {
            let candidates = spots(around: box, tag: size, imageWidth: imageWidth, imageHeight: imageHeight)
            var best = candidates[0], bestOverlap = Int.max
            for spot in candidates {
                let tag = (x: spot.x, y: spot.y, width: size.width, height: size.height)
                let overlap = placed.reduce(0) { $0 + intersectionArea(tag, $1) }
                if overlap < bestOverlap { (best, bestOverlap) = (spot, overlap) }
                if overlap == 0 { break }
            }
            placed.append((best.x, best.y, size.width, size.height))
            origins.append(best)
        }
        return origins
    }

    /// The candidate spots in order of preference, kept to those whose tag fits the image's
    /// height; never empty (a tag taller than the room left goes inside the box's top).
    static func spots(around box: Rect, tag: (width: Int, height: Int), imageWidth: Int, imageHeight: Int) -> [(x: Int, y: Int)] {
        let left = box.x, right = box.x + box.width - tag.width
        let above = box.y - tag.height, inside = box.y, below = box.y + box.height, insideBottom = box.y + box.height - tag.height
        let preferred = [(left, above), (left, inside), (left, below), (right, above), (left, insideBottom)]
        let maxX = max(imageWidth - tag.width, 0)
        let fitting = preferred
            .filter { $0.1 >= 0 && $0.1 + tag.height <= imageHeight }
            .map { (x: min(max($0.0, 0), maxX), y: $0.1) }
        return fitting.isEmpty ? [(x: min(max(left, 0), maxX), y: inside)] : fitting
    }

    static func intersectionArea(_ a: Rect, _ b: Rect) -> Int {
        let width = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let height = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return width > 0 && height > 0 ? width * height : 0
    }
}
