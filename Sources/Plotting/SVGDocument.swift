import Foundation

/// A minimal SVG writer: elements are appended as text in call order, so the same calls
/// always give byte-identical output (charts are diffed and committed in reports).
public struct SVGDocument {
    public let width: Double
    public let height: Double
    private var body: [String] = []

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String,
                              stroke: String? = nil, className: String? = nil, title: String? = nil) {
        var attributes = "x=\"\(SVG.number(x))\" y=\"\(SVG.number(y))\" width=\"\(SVG.number(max(0, width)))\" height=\"\(SVG.number(max(0, height)))\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        append("rect", attributes, className: className, title: title)
    }

    public mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String,
                              width strokeWidth: Double = 1, dashed: Bool = false, dashArray: String? = nil, className: String? = nil) {
        var attributes = "x1=\"\(SVG.number(x1))\" y1=\"\(SVG.number(y1))\" x2=\"\(SVG.number(x2))\" y2=\"\(SVG.number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(SVG.number(strokeWidth))\""
        if let dash = dashArray ?? (dashed ? "4 3" : nil) { attributes += " stroke-dasharray=\"\(dash)\"" }
        append("line", attributes, className: className)
    }

    public mutating func polyline(_ points: [(Double, Double)], stroke: String, width strokeWidth: Double = 1.5,
                                  dashArray: String? = nil, className: String? = nil) {
        let list = points.map { "\(SVG.number($0.0)),\(SVG.number($0.1))" }.joined(separator: " ")
        var attributes = "points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(SVG.number(strokeWidth))\" stroke-linejoin=\"round\""
        if let dashArray { attributes += " stroke-dasharray=\"\(dashArray)\"" }
        append("polyline", attributes, className: className)
    }

    public mutating func circle(cx: Double, cy: Double, r: Double, fill: String, stroke: String? = nil,
                                className: String? = nil, title: String? = nil) {
        var attributes = "cx=\"\(SVG.number(cx))\" cy=\"\(SVG.number(cy))\" r=\"\(SVG.number(r))\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        append("circle", attributes, className: className, title: title)
    }

    public enum Anchor: String { case start, middle, end }

    public mutating func text(_ content: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start,
                              fill: String = "#222", bold: Bool = false, rotate: Double? = nil, className: String? = nil) {
        var attributes = "x=\"\(SVG.number(x))\" y=\"\(SVG.number(y))\" font-size=\"\(SVG.number(size))\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(fill)\""
        if bold { attributes += " font-weight=\"bold\"" }
        if let rotate { attributes += " transform=\"rotate(\(SVG.number(rotate)) \(SVG.number(x)) \(SVG.number(y)))\"" }
        if let className { attributes += " class=\"\(className)\"" }
        body.append("<text \(attributes)>\(SVG.escape(content))</text>")
    }

    private mutating func append(_ tag: String, _ attributes: String, className: String?, title: String? = nil) {
        let classAttribute = className.map { " class=\"\($0)\"" } ?? ""
        if let title {
            body.append("<\(tag) \(attributes)\(classAttribute)><title>\(SVG.escape(title))</title></\(tag)>")
        } else {
            body.append("<\(tag) \(attributes)\(classAttribute)/>")
        }
    }

    /// Standalone SVG text (no external fonts, styles or scripts), usable as a file or inline in HTML.
    public func render() -> String {
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(SVG.number(width))\" height=\"\(SVG.number(height))\" viewBox=\"0 0 \(SVG.number(width)) \(SVG.number(height))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(SVG.number(width))\" height=\"\(SVG.number(height))\" fill=\"#ffffff\"/>\n"
        for element in body { out += element + "\n" }
        out += "</svg>\n"
        return out
    }
}

/// Formatting shared by all charts.
public enum SVG {
    /// Coordinates with at most two decimals and no trailing zeros: compact and locale-free.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var rounded = (value * 100).rounded() / 100
        if rounded == 0 { rounded = 0 }  // no "-0"
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// 14 colours, so the 13 Screen Recognition classes never share one: Okabe–Ito's colour-blind-safe
    /// set (yellow left out: too pale on white), then Paul Tol's "muted" set. No 14 hues stay apart
    /// for every kind of colour blindness, so series from the second set are also dashed (`dash`).
    /// The same series index always gets the same colour.
    public static let palette = ["#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000",
                                 "#332288", "#ddcc77", "#882255", "#999933", "#44aa99", "#aa4499", "#cc6677"]

    public static func color(_ index: Int) -> String { palette[wrapped(index)] }

    /// Stroke dash pattern of a series: solid for the first seven colours, dashed for the next seven
    /// (and alternating on wrap-around), a second cue besides hue.
    public static func dash(_ index: Int) -> String? {
        let round = ((index % (2 * palette.count)) + 2 * palette.count) % (2 * palette.count)
        return (wrapped(index) >= 7) != (round >= palette.count) ? "6 3" : nil
    }

    private static func wrapped(_ index: Int) -> Int { ((index % palette.count) + palette.count) % palette.count }

    /// Text for a tick value: as few decimals as the tick step needs.
    public static func tickLabel(_ value: Double, step: Double) -> String {
        let decimals = step >= 1 ? 0 : min(6, Int((-log10(step) - 1e-9).rounded(.up)))
        let shown = abs(value) < abs(step) * 1e-6 ? 0 : value
        return String(format: "%.\(decimals)f", shown)
    }
}
