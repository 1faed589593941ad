import Foundation
import Imaging

/// Line-art icon glyphs built from the canvas primitives.
enum IconGlyph: CaseIterable {
    case back, forward, close, plus, search, menu, more, heart, star, home, person, bell, gear
    case share, mail, camera, trash, play, pause, info, pin, calendar, clock, chat, cart, bookmark

    /// Glyphs that make sense in a navigation bar or toolbar.
    static let toolbar: [IconGlyph] = [.plus, .search, .more, .share, .gear, .bell, .heart, .bookmark, .mail, .cart, .trash, .info]
    static let tabs: [IconGlyph] = [.home, .search, .person, .bell, .gear, .heart, .star, .calendar, .chat, .cart, .play, .mail, .camera, .bookmark, .clock, .pin]
}

extension ScreenBuilder {
    /// Draws `glyph` in the square (x, y, size) and labels that square as an Icon. With `badge`,
    /// the glyph sits in white on a rounded square of that colour (the iOS Settings look).
    /// `surface` is the colour under the icon (glyph cut-outs are painted with it).
    mutating func icon(_ glyph: IconGlyph, x: Double, y: Double, size: Double, color: RGBA, badge: RGBA? = nil,
                       surface: RGBA? = nil, labelled: Bool = true, clickable: Bool? = true) {
        var ink = color
        var inset = 0.0
        if let badge {
            fillRounded(x, y, size, size, radius: size * 0.23, .solid(badge))
            ink = .white
            inset = size * 0.18
        }
        drawGlyph(glyph, x: x + inset, y: y + inset, s: size - 2 * inset, color: ink, cut: badge ?? surface ?? theme.background)
        if labelled { label(.icon, x: x, y: y, width: size, height: size, clickable: clickable) }
    }

    /// All coordinates below are fractions of the icon square `s`.
    private mutating func drawGlyph(_ glyph: IconGlyph, x: Double, y: Double, s: Double, color c: RGBA, cut: RGBA) {
        let t = max(s * 0.09, 1.2 / u)  // stroke width, at least about a pixel
        func px(_ f: Double) -> Double { x + f * s }
        func py(_ f: Double) -> Double { y + f * s }
        switch glyph {
        case .back:
            line(px(0.62), py(0.15), px(0.3), py(0.5), thickness: t * 1.2, c); line(px(0.3), py(0.5), px(0.62), py(0.85), thickness: t * 1.2, c)
        case .forward:
            line(px(0.38), py(0.15), px(0.7), py(0.5), thickness: t * 1.2, c); line(px(0.7), py(0.5), px(0.38), py(0.85), thickness: t * 1.2, c)
        case .close:
            line(px(0.18), py(0.18), px(0.82), py(0.82), thickness: t, c); line(px(0.82), py(0.18), px(0.18), py(0.82), thickness: t, c)
        case .plus:
            line(px(0.5), py(0.1), px(0.5), py(0.9), thickness: t, c); line(px(0.1), py(0.5), px(0.9), py(0.5), thickness: t, c)
        case .search:
            strokeCircle(px(0.42), py(0.42), s * 0.32, thickness: t, c); line(px(0.66), py(0.66), px(0.92), py(0.92), thickness: t * 1.3, c)
        case .menu:
            for f in [0.22, 0.5, 0.78] { line(px(0.1), py(f), px(0.9), py(f), thickness: t, c) }
        case .more:
            for f in [0.18, 0.5, 0.82] { fillCircle(px(f), py(0.5), s * 0.1, .solid(c)) }
        case .heart:
            fillCircle(px(0.3), py(0.36), s * 0.22, .solid(c)); fillCircle(px(0.7), py(0.36), s * 0.22, .solid(c))
            polygon([(px(0.1), py(0.44)), (px(0.9), py(0.44)), (px(0.5), py(0.9))], c)
            polygon([(px(0.3), py(0.3)), (px(0.7), py(0.3)), (px(0.9), py(0.44)), (px(0.1), py(0.44))], c)
        case .star:
            let points = (0..<10).map { i -> (Double, Double) in
                let angle = -Double.pi / 2 + Double(i) * Double.pi / 5, r = i % 2 == 0 ? 0.48 : 0.2
                return (px(0.5 + r * cos(angle)), py(0.53 + r * sin(angle)))
            }
            polygon((0..<5).map { points[$0 * 2 + 1] }, c)
            for i in 0..<5 { polygon([points[i * 2], points[(i * 2 + 1) % 10], points[(i * 2 + 9) % 10]], c) }
        case .home:
            polygon([(px(0.5), py(0.08)), (px(0.95), py(0.48)), (px(0.05), py(0.48))], c)
            fillRect(px(0.2), py(0.45), s * 0.6, s * 0.47, c)
            fillRect(px(0.42), py(0.62), s * 0.16, s * 0.3, cut)
        case .person:
            fillCircle(px(0.5), py(0.3), s * 0.2, .solid(c))
            fillRounded(px(0.14), py(0.58), s * 0.72, s * 0.38, radius: s * 0.3, .solid(c))
        case .bell:
            fillRounded(px(0.22), py(0.12), s * 0.56, s * 0.66, radius: s * 0.26, .solid(c))
            fillRounded(px(0.1), py(0.64), s * 0.8, s * 0.14, radius: s * 0.06, .solid(c))
            fillCircle(px(0.5), py(0.86), s * 0.09, .solid(c))
        case .gear:
            for i in 0..<8 {
                let a = Double(i) * Double.pi / 4
                line(px(0.5 + 0.25 * cos(a)), py(0.5 + 0.25 * sin(a)), px(0.5 + 0.4 * cos(a)), py(0.5 + 0.4 * sin(a)), thickness: s * 0.14, c)
            }
            strokeCircle(px(0.5), py(0.5), s * 0.3, thickness: s * 0.14, c)
        case .share:
            strokeRounded(px(0.18), py(0.38), s * 0.64, s * 0.56, radius: s * 0.06, thickness: t, c)
            fillRect(px(0.38), py(0.34), s * 0.24, s * 0.1, cut)
            line(px(0.5), py(0.05), px(0.5), py(0.6), thickness: t, c)
            line(px(0.32), py(0.22), px(0.5), py(0.05), thickness: t, c); line(px(0.5), py(0.05), px(0.68), py(0.22), thickness: t, c)
        case .mail:
            strokeRounded(px(0.06), py(0.2), s * 0.88, s * 0.6, radius: s * 0.06, thickness: t, c)
            line(px(0.1), py(0.25), px(0.5), py(0.55), thickness: t, c); line(px(0.5), py(0.55), px(0.9), py(0.25), thickness: t, c)
        case .camera:
            fillRounded(px(0.05), py(0.25), s * 0.9, s * 0.62, radius: s * 0.12, .solid(c))
            fillRounded(px(0.32), py(0.14), s * 0.36, s * 0.16, radius: s * 0.04, .solid(c))
            fillCircle(px(0.5), py(0.56), s * 0.2, .solid(cut)); fillCircle(px(0.5), py(0.56), s * 0.12, .solid(c))
        case .trash:
            line(px(0.12), py(0.2), px(0.88), py(0.2), thickness: t, c)
            fillRect(px(0.38), py(0.08), s * 0.24, s * 0.1, c)
            strokeRounded(px(0.22), py(0.26), s * 0.56, s * 0.66, radius: s * 0.08, thickness: t, c)
            line(px(0.42), py(0.4), px(0.42), py(0.78), thickness: t * 0.8, c); line(px(0.58), py(0.4), px(0.58), py(0.78), thickness: t * 0.8, c)
        case .play:
            polygon([(px(0.22), py(0.1)), (px(0.88), py(0.5)), (px(0.22), py(0.9))], c)
        case .pause:
            fillRounded(px(0.2), py(0.1), s * 0.2, s * 0.8, radius: s * 0.05, .solid(c)); fillRounded(px(0.6), py(0.1), s * 0.2, s * 0.8, radius: s * 0.05, .solid(c))
        case .info:
            strokeCircle(px(0.5), py(0.5), s * 0.46, thickness: t, c)
            fillCircle(px(0.5), py(0.3), s * 0.06, .solid(c)); fillRect(px(0.45), py(0.42), s * 0.1, s * 0.34, c)
        case .pin:
            fillCircle(px(0.5), py(0.38), s * 0.3, .solid(c))
            polygon([(px(0.24), py(0.5)), (px(0.76), py(0.5)), (px(0.5), py(0.95))], c)
            fillCircle(px(0.5), py(0.38), s * 0.11, .solid(cut))
        case .calendar:
            strokeRounded(px(0.08), py(0.14), s * 0.84, s * 0.78, radius: s * 0.1, thickness: t, c)
            fillRect(px(0.08), py(0.14), s * 0.84, s * 0.18, c)
            for row in 0..<2 { for col in 0..<3 { fillRect(px(0.24 + 0.2 * Double(col)), py(0.46 + 0.2 * Double(row)), s * 0.12, s * 0.1, c) } }
        case .clock:
            strokeCircle(px(0.5), py(0.5), s * 0.46, thickness: t, c)
            line(px(0.5), py(0.5), px(0.5), py(0.24), thickness: t, c); line(px(0.5), py(0.5), px(0.7), py(0.6), thickness: t, c)
        case .chat:
            fillRounded(px(0.06), py(0.12), s * 0.88, s * 0.62, radius: s * 0.2, .solid(c))
            polygon([(px(0.22), py(0.7)), (px(0.46), py(0.7)), (px(0.2), py(0.92))], c)
        case .cart:
            line(px(0.05), py(0.15), px(0.22), py(0.15), thickness: t, c)
            polygon([(px(0.2), py(0.28)), (px(0.95), py(0.28)), (px(0.85), py(0.64)), (px(0.3), py(0.64))], c)
            fillCircle(px(0.36), py(0.84), s * 0.08, .solid(c)); fillCircle(px(0.8), py(0.84), s * 0.08, .solid(c))
        case .bookmark:
            fillRect(px(0.22), py(0.08), s * 0.56, s * 0.6, c)
            polygon([(px(0.22), py(0.66)), (px(0.5), py(0.66)), (px(0.22), py(0.92))], c)
            polygon([(px(0.5), py(0.66)), (px(0.78), py(0.66)), (px(0.78), py(0.92))], c)
        }
    }
}
