/// An axis-aligned box in source-image pixels, as corners. Accessibility keeps its own
/// geometry so the heuristics depend on nothing but class names and boxes.
public struct ScreenRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    /// Corners in any order are normalized, so a box can never have negative size.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = Swift.min(minX, maxX); self.maxX = Swift.max(minX, maxX)
        self.minY = Swift.min(minY, maxY); self.maxY = Swift.max(minY, maxY)
    }

    /// The COCO convention: top-left corner plus size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var area: Double { width * height }
    public var centerX: Double { (minX + maxX) / 2 }
    public var centerY: Double { (minY + maxY) / 2 }
    public var description: String { "[\(minX), \(minY), \(maxX), \(maxY)]" }

    public func union(_ other: ScreenRect) -> ScreenRect {
        ScreenRect(minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
                   maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    /// Width of the shared x-range; 0 when the ranges only touch or are apart.
    public func xOverlap(_ other: ScreenRect) -> Double {
        Swift.max(0, Swift.min(maxX, other.maxX) - Swift.max(minX, other.minX))
    }

    public func yOverlap(_ other: ScreenRect) -> Double {
        Swift.max(0, Swift.min(maxY, other.maxY) - Swift.max(minY, other.minY))
    }

    /// The x-ranges share at least a point (so zero-width boxes can still overlap).
    public func sharesXRange(with other: ScreenRect) -> Bool {
        Swift.min(maxX, other.maxX) >= Swift.max(minX, other.minX) && (xOverlap(other) > 0 || width == 0 || other.width == 0)
    }

    public func intersectionArea(_ other: ScreenRect) -> Double { xOverlap(other) * yOverlap(other) }

    /// Whether this box lies inside `outer`: at least `fraction` of its area, or — for a box
    /// with no area — its center. Detections are not pixel-tight, so an exact containment
    /// test would miss elements that poke a pixel out of their container.
    public func isInside(_ outer: ScreenRect, fraction: Double) -> Bool {
        if area > 0 { return intersectionArea(outer) >= fraction * area }
        return centerX >= outer.minX && centerX <= outer.maxX && centerY >= outer.minY && centerY <= outer.maxY
    }

    /// Whether every coordinate is a finite number; others are treated as absent.
    public var isFinite: Bool { [minX, minY, maxX, maxY].allSatisfy(\.isFinite) }
}
