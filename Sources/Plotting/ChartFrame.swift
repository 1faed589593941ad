/// Axis description shared by line and bar charts.
public struct Axis: Equatable {
    public var label: String
    /// Fixed data range; nil lets the chart fit the data (widened to nice ticks).
    public var range: ClosedRange<Double>?
    public var tickCount: Int

    public init(label: String, range: ClosedRange<Double>? = nil, tickCount: Int = 5) {
        self.label = label
        self.range = range
        self.tickCount = tickCount
    }
}

/// Title, margins and the plot rectangle of a chart; draws axes with ticks and grid lines.
struct ChartFrame {
    let width: Double
    let height: Double
    let left: Double, right: Double, top: Double, bottom: Double

    init(width: Double, height: Double, left: Double = 64, right: Double = 20, top: Double = 40, bottom: Double = 52) {
        self.width = width; self.height = height
        self.left = left; self.right = right; self.top = top; self.bottom = bottom
    }

    var plotLeft: Double { left }
    var plotRight: Double { width - right }
    var plotTop: Double { top }
    var plotBottom: Double { height - bottom }

    func drawTitle(_ title: String, in svg: inout SVGDocument) {
        guard !title.isEmpty else { return }
        svg.text(title, x: width / 2, y: 22, size: 15, anchor: .middle, bold: true, className: "title")
    }

    /// Y axis with numeric ticks and horizontal grid lines.
    func drawYAxis(_ axis: Axis, ticks: [Double], step: Double, scale: LinearScale, in svg: inout SVGDocument) {
        for tick in ticks {
            let y = scale.pixel(tick)
            svg.line(x1: plotLeft, y1: y, x2: plotRight, y2: y, stroke: "#e6e6e6", className: "grid")
            svg.line(x1: plotLeft - 4, y1: y, x2: plotLeft, y2: y, stroke: "#444", className: "tick")
            svg.text(SVG.tickLabel(tick, step: step), x: plotLeft - 7, y: y + 4, size: 11, anchor: .end, className: "tick-label")
        }
        svg.line(x1: plotLeft, y1: plotTop, x2: plotLeft, y2: plotBottom, stroke: "#444", className: "axis")
        if !axis.label.isEmpty {
            svg.text(axis.label, x: 16, y: (plotTop + plotBottom) / 2, size: 12, anchor: .middle, rotate: -90, className: "axis-label")
        }
    }

    /// X axis with numeric ticks and vertical grid lines.
    func drawXAxis(_ axis: Axis, ticks: [Double], step: Double, scale: LinearScale, in svg: inout SVGDocument) {
        for tick in ticks {
            let x = scale.pixel(tick)
            svg.line(x1: x, y1: plotTop, x2: x, y2: plotBottom, stroke: "#e6e6e6", className: "grid")
            svg.line(x1: x, y1: plotBottom, x2: x, y2: plotBottom + 4, stroke: "#444", className: "tick")
            svg.text(SVG.tickLabel(tick, step: step), x: x, y: plotBottom + 17, size: 11, anchor: .middle, className: "tick-label")
        }
        drawXAxisLine(label: axis.label, in: &svg)
    }

    func drawXAxisLine(label: String, in svg: inout SVGDocument) {
        svg.line(x1: plotLeft, y1: plotBottom, x2: plotRight, y2: plotBottom, stroke: "#444", className: "axis")
        if !label.isEmpty {
            svg.text(label, x: (plotLeft + plotRight) / 2, y: height - 10, size: 12, anchor: .middle, className: "axis-label")
        }
    }
}
