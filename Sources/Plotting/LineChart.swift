/// A point picked on a curve (a chosen confidence threshold), drawn as a ringed dot with a label.
public struct ChartMarker: Equatable {
    public var x: Double
    public var y: Double
    /// Text drawn next to the dot ("" for none: crowded charts).
    public var label: String
    /// Tooltip (`<title>`); nil: the label.
    public var title: String?
    /// nil: the colour of its series.
    public var color: String?

    public init(x: Double, y: Double, label: String = "", title: String? = nil, color: String? = nil) {
        self.x = x; self.y = y; self.label = label; self.title = title; self.color = color
    }
}

public struct LineSeries: Equatable {
    public var name: String
    /// Points in drawing order; a non-finite point breaks the line.
    public var x: [Double]
    public var y: [Double]
    /// nil: the palette colour of the series index (and its dash pattern, `SVG.dash`).
    public var color: String?
    /// SVG stroke-dasharray, nil for a solid line (used with an explicit `color`).
    public var dashArray: String?
    public var markers: [ChartMarker]

    public init(name: String, x: [Double], y: [Double], color: String? = nil, dashArray: String? = nil, markers: [ChartMarker] = []) {
        self.name = name; self.x = x; self.y = y; self.color = color; self.dashArray = dashArray; self.markers = markers
    }

    func stroke(index: Int) -> (color: String, dash: String?) { color.map { ($0, dashArray) } ?? (SVG.color(index), SVG.dash(index)) }
}

/// Several series over shared numeric axes, with optional markers and, for two or more named
/// series, a legend to the right of the plot (outside it, so it hides no curve or label).
public struct LineChart {
    public var title: String
    public var xAxis: Axis
    public var yAxis: Axis
    public var series: [LineSeries]
    public var width: Double
    public var height: Double
    public var showLegend: Bool

    public init(title: String, xAxis: Axis, yAxis: Axis, series: [LineSeries],
                width: Double = 640, height: Double = 420, showLegend: Bool = true) {
        self.title = title; self.xAxis = xAxis; self.yAxis = yAxis; self.series = series
        self.width = width; self.height = height; self.showLegend = showLegend
    }

    /// Pixel mapping of both axes after fitting (exposed so tests can locate known points).
    public func scales() -> (x: LinearScale, y: LinearScale) {
        let layout = self.layout()
        return (layout.x.scale, layout.y.scale)
    }

    /// Named series listed in the legend: none for a single series (the title names it).
    private var legendEntries: [(offset: Int, element: LineSeries)] {
        let named = series.enumerated().filter { !$0.element.name.isEmpty }
        return showLegend && named.count > 1 ? Array(named) : []
    }

    private var legendWidth: Double {
        let entries = legendEntries
        guard !entries.isEmpty else { return 0 }
        return 44 + Double(entries.map { $0.element.name.count }.max() ?? 0) * 6.5
    }

    private var frame: ChartFrame { ChartFrame(width: width, height: height, right: 20 + legendWidth) }

    /// The points a polyline needs at the chart's resolution: each kept point is at least half a
    /// pixel from the one kept before it, and the last point is always kept. A PR curve of a real
    /// run has a point per detection (tens of thousands); drawn whole, `compare` of six runs wrote
    /// a 12.7 MB page in 23 s (found by Fuzz/registry as a timeout).
    static func thinned(_ pixels: [(Double, Double)], minimumStep: Double = 0.5) -> [(Double, Double)] {
        guard pixels.count > 2 else { return pixels }
        var kept = [pixels[0]]
        let squared = minimumStep * minimumStep
        for point in pixels.dropFirst().dropLast() {
            let last = kept[kept.count - 1], dx = point.0 - last.0, dy = point.1 - last.1
            if dx * dx + dy * dy >= squared { kept.append(point) }
        }
        kept.append(pixels[pixels.count - 1])
        return kept
    }

    public func svg() -> String {
        let frame = self.frame
        let (x, y) = layout()
        var svg = SVGDocument(width: width, height: height)
        frame.drawTitle(title, in: &svg)
        frame.drawYAxis(yAxis, ticks: y.ticks, step: y.step, scale: y.scale, in: &svg)
        frame.drawXAxis(xAxis, ticks: x.ticks, step: x.step, scale: x.scale, in: &svg)
        for (index, series) in series.enumerated() {
            let stroke = series.stroke(index: index)
            for run in finiteRuns(series) where !run.isEmpty {
                let pixels = LineChart.thinned(run.map { (x.scale.pixel($0.0), y.scale.pixel($0.1)) })
                if pixels.count == 1 {
                    svg.circle(cx: pixels[0].0, cy: pixels[0].1, r: 2, fill: stroke.color, className: "series-point")
                } else {
                    svg.polyline(pixels, stroke: stroke.color, dashArray: stroke.dash, className: "series")
                }
            }
        }
        for (index, series) in series.enumerated() {
            for marker in series.markers where marker.x.isFinite && marker.y.isFinite {
                let cx = x.scale.pixel(marker.x), cy = y.scale.pixel(marker.y)
                let title = marker.title ?? (marker.label.isEmpty ? nil : marker.label)
                svg.circle(cx: cx, cy: cy, r: 5, fill: marker.color ?? series.stroke(index: index).color, stroke: "#ffffff",
                           className: "marker", title: title)
                if !marker.label.isEmpty {
                    // Near the right edge the label goes left of the dot so it is not clipped.
                    let flip = cx + 7 + Double(marker.label.count) * 6 > frame.plotRight
                    svg.text(marker.label, x: flip ? cx - 7 : cx + 7, y: cy - 7, size: 10, anchor: flip ? .end : .start,
                             fill: "#333", className: "marker-label")
                }
            }
        }
        drawLegend(frame: frame, in: &svg)
        return svg.render()
    }

    private func drawLegend(frame: ChartFrame, in svg: inout SVGDocument) {
        let entries = legendEntries
        guard !entries.isEmpty else { return }
        let rowHeight = 16.0
        let boxLeft = frame.plotRight + 12
        let boxTop = frame.plotTop
        svg.rect(x: boxLeft, y: boxTop, width: legendWidth - 16, height: Double(entries.count) * rowHeight + 8,
                 fill: "#ffffff", stroke: "#cccccc", className: "legend")
        for (row, entry) in entries.enumerated() {
            let y = boxTop + 12 + Double(row) * rowHeight
            let stroke = entry.element.stroke(index: entry.offset)
            svg.line(x1: boxLeft + 6, y1: y, x2: boxLeft + 24, y2: y, stroke: stroke.color, width: 2.5, dashArray: stroke.dash,
                     className: "legend-swatch")
            svg.text(entry.element.name, x: boxLeft + 29, y: y + 4, size: 11, className: "legend-label")
        }
    }

    private func finiteRuns(_ series: LineSeries) -> [[(Double, Double)]] {
        var runs: [[(Double, Double)]] = [[]]
        for (px, py) in zip(series.x, series.y) {
            if px.isFinite && py.isFinite { runs[runs.count - 1].append((px, py)) } else if !runs[runs.count - 1].isEmpty { runs.append([]) }
        }
        return runs
    }

    private func layout() -> (x: (scale: LinearScale, ticks: [Double], step: Double), y: (scale: LinearScale, ticks: [Double], step: Double)) {
        let frame = self.frame
        let allX = series.flatMap { $0.x + $0.markers.map(\.x) }.filter(\.isFinite)
        let allY = series.flatMap { $0.y + $0.markers.map(\.y) }.filter(\.isFinite)
        func fitted(_ axis: Axis, _ values: [Double]) -> (ClosedRange<Double>, [Double], Double) {
            if let range = axis.range {
                let step = NiceTicks.step(for: range.upperBound - range.lowerBound, count: axis.tickCount)
                let ticks = NiceTicks.axis(for: range, count: axis.tickCount).ticks.filter { range.contains($0) || abs($0 - range.upperBound) < step * 1e-6 }
                return (range, ticks, step)
            }
            let range = (values.min() ?? 0)...(values.max() ?? 1)
            let nice = NiceTicks.axis(for: range, count: axis.tickCount)
            return (nice.range, nice.ticks, nice.step)
        }
        let (xRange, xTicks, xStep) = fitted(xAxis, allX)
        let (yRange, yTicks, yStep) = fitted(yAxis, allY)
        let xScale = LinearScale(domain: xRange, pixelStart: frame.plotLeft, pixelEnd: frame.plotRight)
        let yScale = LinearScale(domain: yRange, pixelStart: frame.plotBottom, pixelEnd: frame.plotTop)
        return ((xScale, xTicks, xStep), (yScale, yTicks, yStep))
    }
}
