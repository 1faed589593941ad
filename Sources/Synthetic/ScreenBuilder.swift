import Data
import Imaging
import Support
import Typography

/// A screen being drawn: the canvas, the labels collected so far, the screen's random stream
/// and its app's theme. Layout arguments are in points; `u` converts to pixels.
struct ScreenBuilder {
    var image: RGBImage
    var annotations: [Annotation] = []
    var rng: SeededRandom
    let theme: AppTheme
    let mix: ClassMix
    /// Pixels per point.
    let u: Double
    let fontUnit: Int
    /// Form field titles already on this screen (a form never asks for "Email" twice).
    var usedFieldTitles: Set<String> = []
    /// The true screen-reader elements so far, as label indices, in reading order
    /// (TrueElements.swift); `openElement` is where the element being drawn began.
    var elements: [[Int]] = []
    var openElement: Int?

    init(widthPoints: Int, heightPoints: Int, scale: Int, theme: AppTheme, mix: ClassMix = .standard, rng: SeededRandom) {
        self.mix = mix
        image = RGBImage(width: widthPoints * scale, height: heightPoints * scale, fill: theme.background.rgb)
        self.rng = rng
        self.theme = theme
        u = Double(scale)
        fontUnit = scale
    }

    /// Screen size in points.
    var width: Double { Double(image.width) / u }
    var height: Double { Double(image.height) / u }

    // MARK: Labels

    /// Records a box given in points; boxes are clipped to the image and dropped when nothing is left.
    mutating func label(_ kind: ScreenClass, x: Double, y: Double, width: Double, height: Double, selected: Bool? = nil, clickable: Bool? = nil) {
        let box = BoundingBox(x: x * u, y: y * u, width: width * u, height: height * u)
            .clipped(toWidth: Double(image.width), height: Double(image.height))
        guard box.width >= 1, box.height >= 1 else { return }
        annotations.append(Annotation(classIndex: kind.rawValue, box: box, selected: selected, clickable: clickable))
        if openElement == nil { elements.append([annotations.count - 1]) }
    }

    // MARK: Drawing in points

    mutating func fillRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ color: RGBA) {
        image.fill(.rect(x: x * u, y: y * u, width: w * u, height: h * u), color: color)
    }

    mutating func fillRounded(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double, _ paint: Paint) {
        image.fill(.roundedRect(x: x * u, y: y * u, width: w * u, height: h * u, radius: radius * u), with: paint)
    }

    mutating func strokeRounded(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double, thickness: Double, _ color: RGBA) {
        image.stroke(.roundedRect(x: x * u, y: y * u, width: w * u, height: h * u, radius: radius * u), thickness: thickness * u, color: color)
    }

    mutating func fillCircle(_ cx: Double, _ cy: Double, _ r: Double, _ paint: Paint) {
        image.fill(.circle(centerX: cx * u, centerY: cy * u, radius: r * u), with: paint)
    }

    mutating func strokeCircle(_ cx: Double, _ cy: Double, _ r: Double, thickness: Double, _ color: RGBA) {
        image.stroke(.circle(centerX: cx * u, centerY: cy * u, radius: r * u), thickness: thickness * u, color: color)
    }

    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, thickness: Double, _ color: RGBA) {
        image.drawLine(from: CanvasPoint(x0 * u, y0 * u), to: CanvasPoint(x1 * u, y1 * u), thickness: thickness * u, color: color)
    }

    mutating func polygon(_ points: [(Double, Double)], _ color: RGBA) {
        image.fill(.convexPolygon(points.map { CanvasPoint($0.0 * u, $0.1 * u) }), color: color)
    }

    /// A one-pixel hairline separator.
    mutating func separator(x: Double, y: Double, width: Double) {
        image.fillRect(x: Int(x * u), y: Int(y * u), width: Int(width * u), height: 1, color: theme.separator)
    }

    // MARK: Text
    // `factor` is a step of the type scale (1 caption, 2 body, 3 title, 4 large title): the bitmap
    // font's integer scale, or the theme's font size for that step (ThemeFonts).

    var words: Lexicon { theme.words }

    /// The height in points of a line box (ascender to descender, or the bitmap font's cell).
    func lineHeight(_ factor: Int) -> Double {
        guard let fonts = theme.fonts else { return Double(BitmapFont.cellHeight * factor) }
        let metrics = try? GlyphCache.shared.lineMetrics(fonts.font(factor: factor, bold: false, scale: fontUnit))
        return Double(metrics?.height ?? 0) / u
    }

    private func line(_ text: String, factor: Int, bold: Bool) -> TextLine? {
        // The generator opened every face before the first screen, so this does not fail in practice;
        // if it did, the text is left out rather than the process stopped.
        theme.fonts.flatMap { try? TextLine(text, font: $0.font(factor: factor, bold: bold, scale: fontUnit)) }
    }

    /// Width and height in points of `text` at font `factor`: the ink's width (bitmap: its
    /// columns; bold adds one pixel) by the line box's height.
    func measure(_ text: String, factor: Int, bold: Bool = false) -> (width: Double, height: Double) {
        guard theme.fonts != nil else {
            let size = BitmapFont.measure(text, scale: factor * fontUnit)
            return ((Double(size.width) + (bold ? 1 : 0)) / u, Double(size.height) / u)
        }
        return (Double(line(text, factor: factor, bold: bold)?.inkWidth ?? 0) / u, lineHeight(factor))
    }

    /// Cuts words (characters in languages written without spaces) off the end until `text`
    /// fits `maxWidth` points; nil if not even one word (two characters) fits.
    func fitting(_ text: String, factor: Int, maxWidth: Double, bold: Bool = false) -> String? {
        if !words.spaced && !text.contains(" ") {
            var characters = Array(text)
            while characters.count >= 2 {
                let candidate = String(characters)
                if measure(candidate, factor: factor, bold: bold).width <= maxWidth { return candidate }
                characters.removeLast()
            }
            return nil
        }
        var parts = text.split(separator: " ").map(String.init)
        while !parts.isEmpty {
            let candidate = parts.joined(separator: " ")
            if measure(candidate, factor: factor, bold: bold).width <= maxWidth { return candidate }
            parts.removeLast()
        }
        return nil
    }

    /// Draws and labels one line of text with its line box's top-left at (x, y); returns its size
    /// in points. The Text box is the ink's bounding box (bitmap: the glyph cell, cap height plus
    /// descender rows). Ink starts at x, so measured widths centre and align it exactly.
    @discardableResult
    mutating func text(_ string: String, x: Double, y: Double, factor: Int, color: RGBA, bold: Bool = false,
                       labelled: Bool = true, clickable: Bool? = nil) -> (width: Double, height: Double) {
        let px = Int((x * u).rounded()), py = Int((y * u).rounded())
        guard theme.fonts != nil else {
            let scale = factor * fontUnit
            image.drawText(string, x: px, y: py, scale: scale, color: color)
            if bold { image.drawText(string, x: px + 1, y: py, scale: scale, color: color) }
            let size = measure(string, factor: factor, bold: bold)
            if labelled {
                label(.text, x: Double(px) / u, y: Double(py) / u, width: size.width, height: size.height, clickable: clickable)
            }
            return size
        }
        guard let line = line(string, factor: factor, bold: bold) else { return (0, lineHeight(factor)) }
        let originX = px - line.inkMinX, baseline = py + line.metrics.ascent
        image.draw(line, x: originX, baseline: baseline, color: color)
        if labelled && line.hasInk {
            label(.text, x: Double(originX + line.inkMinX) / u, y: Double(baseline + line.inkMinY) / u,
                  width: Double(line.inkWidth) / u, height: Double(line.inkHeight) / u, clickable: clickable)
        }
        return (Double(line.inkWidth) / u, Double(line.metrics.height) / u)
    }

    /// Text vertically centred on `centerY`: the cap height is centred (descenders hang below like real type).
    @discardableResult
    mutating func text(_ string: String, x: Double, centerY: Double, factor: Int, color: RGBA, bold: Bool = false,
                       labelled: Bool = true, clickable: Bool? = nil) -> (width: Double, height: Double) {
        guard let fonts = theme.fonts else {
            let capHeight = Double(BitmapFont.capHeight * factor * fontUnit) / u
            return text(string, x: x, y: centerY - capHeight / 2, factor: factor, color: color, bold: bold, labelled: labelled, clickable: clickable)
        }
        let metrics = (try? GlyphCache.shared.lineMetrics(fonts.font(factor: factor, bold: bold, scale: fontUnit))) ?? LineMetrics(ascent: 0, descent: 0, capHeight: 0)
        let top = centerY + Double(metrics.capHeight) / u / 2 - Double(metrics.ascent) / u
        return text(string, x: x, y: top, factor: factor, color: color, bold: bold, labelled: labelled, clickable: clickable)
    }

    // MARK: Random helpers

    mutating func chance(_ p: Double) -> Bool { rng.chance(p) }
    /// A yes/no layout choice that draws `classes`, its probability raised by their class-mix multipliers.
    mutating func chance(_ p: Double, drawing classes: ScreenClass...) -> Bool { rng.chance(mix.chance(p, drawing: classes)) }
    /// A placement only a boosted mix makes; draws nothing (and is false) unless `kind` is boosted.
    mutating func extraChance(_ p: Double, drawing kind: ScreenClass) -> Bool {
        mix[kind] > 1 && rng.chance(ClassMix.extra(p, by: mix[kind]))
    }
    /// Checked or not, on or off: the selected variant's share shifted by the pair's multipliers.
    mutating func selected(_ p: Double, _ selected: ScreenClass, _ unselected: ScreenClass) -> Bool {
        rng.chance(ClassMix.selectedShare(p, selected: mix[selected], unselected: mix[unselected]))
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int { rng.int(in: range) }
    mutating func uniform(_ a: Double, _ b: Double) -> Double { rng.uniform(a, b) }
    mutating func pick<T>(_ list: [T]) -> T { Vocabulary.pick(list, &rng) }
    mutating func phrase(_ count: Int) -> String { theme.words.phrase(&rng, words: count) }
}
