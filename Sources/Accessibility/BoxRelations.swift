import Imaging

/// How the heuristics relate boxes (source-image pixels, the one `BoundingBox`): union, overlap
/// along each axis, loose containment.
extension BoundingBox {
    /// Corners in any order: a detection with a negative size is read as the box its corners span.
    public var normalized: BoundingBox {
        BoundingBox(minX: Swift.min(minX, maxX), minY: Swift.min(minY, maxY), maxX: Swift.max(minX, maxX), maxY: Swift.max(minY, maxY))
    }

    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
                    maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    /// Width of the shared x-range; 0 when the ranges only touch or are apart.
    public func xOverlap(_ other: BoundingBox) -> Double {
        Swift.max(0, Swift.min(maxX, other.maxX) - Swift.max(minX, other.minX))
    }

    public func yOverlap(_ other: BoundingBox) -> Double {
        Swift.max(0, Swift.min(maxY, other.maxY) - Swift.max(minY, other.minY))
    }

    /// The x-ranges share at least a point (so zero-width boxes can still overlap).
    public func sharesXRange(with other: BoundingBox) -> Bool {
        Swift.min(maxX, other.maxX) >= Swift.max(minX, other.minX) && (xOverlap(other) > 0 || width == 0 || other.width == 0)
    }

    public func intersectionArea(_ other: BoundingBox) -> Double { xOverlap(other) * yOverlap(other) }

    /// Whether this box lies inside `outer`: at least `fraction` of its area, or — for a box
    /// with no area — its center. Detections are not pixel-tight, so an exact containment
    /// test would miss elements that poke a pixel out of their container.
    public func isInside(_ outer: BoundingBox, fraction: Double) -> Bool {
        if area > 0 { return intersectionArea(outer) >= fraction * area }
        return centerX >= outer.minX && centerX <= outer.maxX && centerY >= outer.minY && centerY <= outer.maxY
    }

    /// Whether every coordinate is a finite number; others are treated as absent.
    public var isFinite: Bool { [minX, minY, maxX, maxY].allSatisfy(\.isFinite) }
}
