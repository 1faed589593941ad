import Imaging

/// One line of text laid out in a font: each glyph at a whole-pixel pen position, and the ink
/// box of all of them. Coordinates are relative to the pen's start on the baseline, y down.
/// No shaping and no kerning: right for Latin, Greek, Cyrillic and CJK, not for scripts whose
/// letters change shape with their neighbours (Arabic, Indic), which the generator does not use.
public struct TextLine: Sendable {
    public struct Placed: Sendable { public let glyph: Glyph; public let x: Int }

    public let glyphs: [Placed]
    public let metrics: LineMetrics
    /// Ink bounds, max exclusive; all zero when nothing is inked (spaces only, empty text).
    public let inkMinX: Int, inkMaxX: Int, inkMinY: Int, inkMaxY: Int

    public var inkWidth: Int { inkMaxX - inkMinX }
    public var inkHeight: Int { inkMaxY - inkMinY }
    public var hasInk: Bool { inkMaxX > inkMinX && inkMaxY > inkMinY }

    /// Lays `text` out in `font` through the shared glyph cache.
    public init(_ text: String, font: Font, cache: GlyphCache = .shared) throws {
        let (glyphs, metrics) = try cache.glyphs(Array(text.unicodeScalars), font: font)
        var pen = 0  // 26.6: advances keep their fractions, each glyph lands on the nearest pixel
        var placed: [Placed] = []
        placed.reserveCapacity(glyphs.count)
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for glyph in glyphs {
            let x = (pen + 32) >> 6
            placed.append(Placed(glyph: glyph, x: x))
            if glyph.width > 0 {
                minX = min(minX, x + glyph.left); maxX = max(maxX, x + glyph.left + glyph.width)
                minY = min(minY, glyph.top); maxY = max(maxY, glyph.top + glyph.height)
            }
            pen += glyph.advance
        }
        self.glyphs = placed
        self.metrics = metrics
        if minX == Int.max { (inkMinX, inkMaxX, inkMinY, inkMaxY) = (0, 0, 0, 0) } else { (inkMinX, inkMaxX, inkMinY, inkMaxY) = (minX, maxX, minY, maxY) }
    }
}

extension RGBImage {
    /// Blends `line`'s coverage in `color` (its alpha scales the coverage) with the pen starting at
    /// (`x`, `baseline`) in pixels. Ink outside the image is clipped.
    public mutating func draw(_ line: TextLine, x: Int, baseline: Int, color: RGBA) {
        let alpha = Int(color.a)
        guard alpha > 0 else { return }
        let r = Int(color.r), g = Int(color.g), b = Int(color.b)
        let width = self.width, height = self.height
        pixels.withUnsafeMutableBufferPointer { out in
            for placed in line.glyphs where placed.glyph.width > 0 {
                let glyph = placed.glyph
                let x0 = x + placed.x + glyph.left, y0 = baseline + glyph.top
                let gx0 = max(0, -x0), gx1 = min(glyph.width, width - x0)
                let gy0 = max(0, -y0), gy1 = min(glyph.height, height - y0)
                guard gx0 < gx1, gy0 < gy1 else { continue }
                glyph.coverage.withUnsafeBufferPointer { coverage in
                    for gy in gy0..<gy1 {
                        var o = ((y0 + gy) * width + x0 + gx0) * 3
                        var c = gy * glyph.width + gx0
                        for _ in gx0..<gx1 {
                            let a = Int(coverage[c]) * alpha  // 0…255², blended in integers: same bytes on every machine
                            if a != 0 {
                                out[o] = UInt8((Int(out[o]) * (65025 - a) + r * a + 32512) / 65025)
                                out[o + 1] = UInt8((Int(out[o + 1]) * (65025 - a) + g * a + 32512) / 65025)
                                out[o + 2] = UInt8((Int(out[o + 2]) * (65025 - a) + b * a + 32512) / 65025)
                            }
                            o += 3; c += 1
                        }
                    }
                }
            }
        }
    }
}
