/// A colour with straight (non-premultiplied) alpha; `a == 255` is opaque.
public struct RGBA: Equatable, Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// `rgb` drawn at `opacity` in [0, 1] (values outside are clamped).
    public init(_ rgb: RGB, opacity: Double = 1) {
        self.init(rgb.r, rgb.g, rgb.b, UInt8((min(max(opacity, 0), 1) * 255).rounded()))
    }

    /// From `0xRRGGBB`.
    public init(hex: UInt32, opacity: Double = 1) {
        self.init(RGB(UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF)), opacity: opacity)
    }

    public var rgb: RGB { RGB(r, g, b) }

    public func withOpacity(_ opacity: Double) -> RGBA { RGBA(rgb, opacity: opacity * Double(a) / 255) }

    /// Linear mix in 8-bit sRGB space: `t = 0` gives `self`, `t = 1` gives `other`.
    public func mixed(with other: RGBA, _ t: Double) -> RGBA {
        func lerp(_ p: UInt8, _ q: UInt8) -> UInt8 {
            UInt8((Double(p) + (Double(q) - Double(p)) * min(max(t, 0), 1)).rounded())
        }
        return RGBA(lerp(r, other.r), lerp(g, other.g), lerp(b, other.b), lerp(a, other.a))
    }

    /// Rec. 601 luma in [0, 255]; picks black or white text on a coloured tag.
    public var luma: Double { 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b) }

    public static let black = RGBA(0, 0, 0)
    public static let white = RGBA(255, 255, 255)
}

/// A point in pixel coordinates: (0, 0) is the top-left corner of the top-left pixel,
/// so the centre of pixel (i, j) is (i + 0.5, j + 0.5).
public struct CanvasPoint: Equatable, Sendable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// What fills a shape: one colour or a gradient through evenly spaced colour stops.
public enum Paint: Sendable {
    case solid(RGBA)
    /// Colour varies along the segment `from → to` and is constant across it; clamped beyond the ends.
    case linearGradient(from: CanvasPoint, to: CanvasPoint, stops: [RGBA])
    /// Colour varies with the distance from `center`, reaching the last stop at `radius`.
    case radialGradient(center: CanvasPoint, radius: Double, stops: [RGBA])
}

/// A paint reduced to per-pixel arithmetic (no enum switch or array bounds in the inner loop).
struct PaintSampler {
    private enum Kind { case solid, linear, radial }
    private let kind: Kind
    private let stops: [SIMD4<Float>]
    private let originX: Double, originY: Double
    private let axisX: Double, axisY: Double  // linear: direction / |direction|²; radial: unused
    private let inverseRadius: Double

    init(_ paint: Paint) {
        func vector(_ c: RGBA) -> SIMD4<Float> { SIMD4(Float(c.r), Float(c.g), Float(c.b), Float(c.a) / 255) }
        switch paint {
        case .solid(let color):
            kind = .solid; stops = [vector(color)]
            originX = 0; originY = 0; axisX = 0; axisY = 0; inverseRadius = 0
        case let .linearGradient(from, to, colors):
            let dx = to.x - from.x, dy = to.y - from.y, length2 = dx * dx + dy * dy
            kind = colors.count > 1 && length2 > 0 ? .linear : .solid
            stops = colors.isEmpty ? [SIMD4(0, 0, 0, 0)] : colors.map(vector)
            originX = from.x; originY = from.y
            axisX = length2 > 0 ? dx / length2 : 0; axisY = length2 > 0 ? dy / length2 : 0
            inverseRadius = 0
        case let .radialGradient(center, radius, colors):
            kind = colors.count > 1 && radius > 0 ? .radial : .solid
            stops = colors.isEmpty ? [SIMD4(0, 0, 0, 0)] : colors.map(vector)
            originX = center.x; originY = center.y; axisX = 0; axisY = 0
            inverseRadius = radius > 0 ? 1 / radius : 0
        }
    }

    var isSolid: Bool { kind == .solid }
    var solidColor: SIMD4<Float> { stops[0] }

    /// Colour (r, g, b in 0...255, alpha in 0...1) at the centre of pixel (x, y).
    @inline(__always)
    func color(x: Int, y: Int) -> SIMD4<Float> {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let t: Double
        switch kind {
        case .solid: return stops[0]
        case .linear: t = (px - originX) * axisX + (py - originY) * axisY
        case .radial:
            let dx = px - originX, dy = py - originY
            t = (dx * dx + dy * dy).squareRoot() * inverseRadius
        }
        let position = min(max(t, 0), 1) * Double(stops.count - 1)
        let lower = min(Int(position), stops.count - 2)
        let fraction = Float(position - Double(lower))
        return stops[lower] + (stops[lower + 1] - stops[lower]) * fraction
    }
}
