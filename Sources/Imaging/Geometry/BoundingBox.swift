/// An axis-aligned box in pixels: top-left corner plus size (the COCO convention); pixel edges
/// at integers (pixel i covers [i, i + 1)), top-left origin. The one box type from the labels
/// through augmentation, letterboxing and the detections (Data names it too: `Data.BoundingBox`).
public struct BoundingBox: Equatable, Hashable, Codable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var centerX: Double { x + width / 2 }
    public var centerY: Double { y + height / 2 }
    public var area: Double { max(0, width) * max(0, height) }

    /// Intersection over union; 0 when either box has no area.
    public func iou(_ other: BoundingBox) -> Double {
        let iw = min(maxX, other.maxX) - max(minX, other.minX)
        let ih = min(maxY, other.maxY) - max(minY, other.minY)
        guard iw > 0, ih > 0 else { return 0 }
        let inter = iw * ih
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// Boundary counts as inside (the center-hit rule of Screen Recognition's "center" AP).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= minX && px <= maxX && py >= minY && py <= maxY
    }

    /// The part of the box inside `[0, width] × [0, height]`.
    public func clipped(toWidth w: Double, height h: Double) -> BoundingBox {
        let x0 = min(max(minX, 0), w), y0 = min(max(minY, 0), h)
        let x1 = min(max(maxX, 0), w), y1 = min(max(maxY, 0), h)
        return BoundingBox(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }
}
