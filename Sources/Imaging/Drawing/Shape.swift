import Foundation

/// A filled or stroked outline in pixel coordinates (see `CanvasPoint` for the convention).
/// Edges are anti-aliased by the signed distance of each pixel centre to the outline.
public enum Shape: Sendable {
    case rect(x: Double, y: Double, width: Double, height: Double)
    /// `radius` is clamped to half the shorter side (a capsule at most).
    case roundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double)
    case ellipse(centerX: Double, centerY: Double, radiusX: Double, radiusY: Double)
    /// A convex polygon, vertices in either winding order.
    case convexPolygon([CanvasPoint])
    /// A line segment `thickness` wide with round caps.
    case capsule(from: CanvasPoint, to: CanvasPoint, thickness: Double)

    public static func circle(centerX: Double, centerY: Double, radius: Double) -> Shape {
        .ellipse(centerX: centerX, centerY: centerY, radiusX: radius, radiusY: radius)
    }

    /// The same outline moved `amount` pixels inwards (used for strokes drawn inside the outline).
    func inset(by amount: Double) -> Shape? {
        switch self {
        case let .rect(x, y, w, h):
            return w > 2 * amount && h > 2 * amount ? .rect(x: x + amount, y: y + amount, width: w - 2 * amount, height: h - 2 * amount) : nil
        case let .roundedRect(x, y, w, h, r):
            guard w > 2 * amount, h > 2 * amount else { return nil }
            return .roundedRect(x: x + amount, y: y + amount, width: w - 2 * amount, height: h - 2 * amount, radius: max(min(r, w / 2, h / 2) - amount, 0))
        case let .ellipse(cx, cy, rx, ry):
            return rx > amount && ry > amount ? .ellipse(centerX: cx, centerY: cy, radiusX: rx - amount, radiusY: ry - amount) : nil
        case .convexPolygon, .capsule:
            return nil
        }
    }
}

/// The per-shape arithmetic the rasterizer needs; built once per draw call.
struct ShapeGeometry {
    private enum Kind { case roundedRect, ellipse, polygon, capsule }
    private let kind: Kind
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    private let centerX: Double, centerY: Double
    private let halfWidth: Double, halfHeight: Double, radius: Double  // rounded rect; ellipse radii in halfWidth/halfHeight
    /// Polygon edges as (nx, ny, c): signed distance = nx * x + ny * y - c, outward positive, (nx, ny) unit.
    private let edges: [(Double, Double, Double)]
    private let fromX: Double, fromY: Double, toX: Double, toY: Double  // capsule segment; radius = half thickness

    init(_ shape: Shape) {
        var edges: [(Double, Double, Double)] = []
        var (fromX, fromY, toX, toY) = (0.0, 0.0, 0.0, 0.0)
        switch shape {
        case let .rect(x, y, w, h), let .roundedRect(x, y, w, h, _):
            var r = 0.0
            if case let .roundedRect(_, _, _, _, radius) = shape { r = radius }
            let w = max(w, 0), h = max(h, 0)
            kind = .roundedRect
            minX = x; minY = y; maxX = x + w; maxY = y + h
            centerX = x + w / 2; centerY = y + h / 2; halfWidth = w / 2; halfHeight = h / 2
            radius = min(max(r, 0), w / 2, h / 2)
        case let .ellipse(cx, cy, rx, ry):
            kind = .ellipse
            let rx = max(rx, 0), ry = max(ry, 0)
            minX = cx - rx; minY = cy - ry; maxX = cx + rx; maxY = cy + ry
            centerX = cx; centerY = cy; halfWidth = rx; halfHeight = ry; radius = 0
        case let .convexPolygon(points):
            kind = .polygon
            minX = points.map(\.x).min() ?? 0; maxX = points.map(\.x).max() ?? 0
            minY = points.map(\.y).min() ?? 0; maxY = points.map(\.y).max() ?? 0
            centerX = 0; centerY = 0; halfWidth = 0; halfHeight = 0; radius = 0
            var area2 = 0.0
            for i in points.indices {
                let p = points[i], q = points[(i + 1) % points.count]
                area2 += p.x * q.y - q.x * p.y
            }
            // In y-down coordinates a positive shoelace sum means clockwise on screen; the outward normal
            // of edge p→q is then (dy, -dx); flip it for the other winding.
            let sign: Double = area2 >= 0 ? 1 : -1
            for i in points.indices where points.count >= 3 {
                let p = points[i], q = points[(i + 1) % points.count]
                let dx = q.x - p.x, dy = q.y - p.y, length = (dx * dx + dy * dy).squareRoot()
                guard length > 0 else { continue }
                let nx = sign * dy / length, ny = -sign * dx / length
                edges.append((nx, ny, nx * p.x + ny * p.y))
            }
        case let .capsule(from, to, thickness):
            kind = .capsule
            let r = max(thickness, 0) / 2
            minX = min(from.x, to.x) - r; maxX = max(from.x, to.x) + r
            minY = min(from.y, to.y) - r; maxY = max(from.y, to.y) + r
            centerX = 0; centerY = 0; halfWidth = 0; halfHeight = 0; radius = r
            (fromX, fromY, toX, toY) = (from.x, from.y, to.x, to.y)
        }
        self.edges = edges
        (self.fromX, self.fromY, self.toX, self.toY) = (fromX, fromY, toX, toY)
    }

    /// Signed distance from (x, y) to the outline, negative inside (exact for rectangles, rounded
    /// rectangles, circles, capsules; the usual first-order approximation for ellipses; exact
    /// inside and slightly underestimated outside polygon corners).
    @inline(__always)
    func signedDistance(_ x: Double, _ y: Double) -> Double {
        switch kind {
        case .roundedRect:
            let qx = abs(x - centerX) - (halfWidth - radius), qy = abs(y - centerY) - (halfHeight - radius)
            let ox = max(qx, 0), oy = max(qy, 0)
            return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
        case .ellipse:
            guard halfWidth > 0, halfHeight > 0 else { return .infinity }
            let px = (x - centerX) / halfWidth, py = (y - centerY) / halfHeight
            let k0 = (px * px + py * py).squareRoot()
            let qx = px / halfWidth, qy = py / halfHeight
            let k1 = (qx * qx + qy * qy).squareRoot()
            return k1 > 0 ? k0 * (k0 - 1) / k1 : -min(halfWidth, halfHeight)
        case .polygon:
            guard !edges.isEmpty else { return .infinity }
            var d = -Double.infinity
            for (nx, ny, c) in edges { d = max(d, nx * x + ny * y - c) }
            return d
        case .capsule:
            let dx = toX - fromX, dy = toY - fromY, length2 = dx * dx + dy * dy
            let t = length2 > 0 ? min(max(((x - fromX) * dx + (y - fromY) * dy) / length2, 0), 1) : 0
            let ex = x - (fromX + t * dx), ey = y - (fromY + t * dy)
            return (ex * ex + ey * ey).squareRoot() - radius
        }
    }

    /// Half the shape's width on the horizontal line at `y`, or nil when the line misses it.
    /// Only for the shapes symmetric about a vertical axis through `centerX`.
    private func halfSpan(atY y: Double) -> Double? {
        switch kind {
        case .roundedRect:
            let dy = abs(y - centerY)
            guard dy <= halfHeight else { return nil }
            let cornerDy = dy - (halfHeight - radius)
            if cornerDy <= 0 { return halfWidth }
            return halfWidth - radius + (radius * radius - cornerDy * cornerDy).squareRoot()
        case .ellipse:
            let t = (y - centerY) / halfHeight
            guard halfHeight > 0, t * t <= 1 else { return nil }
            return halfWidth * (1 - t * t).squareRoot()
        case .polygon, .capsule:
            return nil
        }
    }

    /// For pixel row `row`: the pixel columns that may be touched (`outer`) and those wholly inside
    /// the shape (`full`, possibly empty), so the rasterizer evaluates distances only near edges.
    func columns(row: Int) -> (outer: Range<Int>, full: Range<Int>) {
        let top = Double(row), bottom = top + 1
        switch kind {
        case .polygon, .capsule:
            return (Int(floor(minX))..<Int(ceil(maxX)), 0..<0)
        case .roundedRect, .ellipse:
            // Both shapes are widest at centerY and narrow monotonically away from it.
            guard let widest = halfSpan(atY: min(max(centerY, top), bottom)) else { return (0..<0, 0..<0) }
            let outer = Int(floor(centerX - widest))..<Int(ceil(centerX + widest))
            guard let a = halfSpan(atY: top), let b = halfSpan(atY: bottom) else { return (outer, 0..<0) }
            let narrowest = min(a, b)
            let lo = Int(ceil(centerX - narrowest)), hi = Int(floor(centerX + narrowest))
            return (outer, lo < hi ? lo..<hi : 0..<0)
        }
    }
}
