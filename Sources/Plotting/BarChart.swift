import Foundation

/// One bar per category (class counts, per-class AP); long labels are drawn slanted.
public struct BarChart {
    public var title: String
    public var categories: [String]
    public var values: [Double]
    public var valueAxis: Axis
    public var categoryLabel: String
    /// Print each value above its bar with this many decimals (nil: no value labels).
    public var valueDecimals: Int?
    public var color: String
    public var width: Double
    public var height: Double

    public init(title: String, categories: [String], values: [Double], valueAxis: Axis, categoryLabel: String = "",
                valueDecimals: Int? = nil, color: String = SVG.color(0), width: Double = 640, height: Double = 420) {
        self.title = title; self.categories = categories; self.values = values; self.valueAxis = valueAxis
        self.categoryLabel = categoryLabel; self.valueDecimals = valueDecimals; self.color = color
        self.width = width; self.height = height
    }

    /// Bottom margin grows with the longest label because labels are slanted at 35°.
    private var frame: ChartFrame {
        let longest = Double(categories.map(\.count).max() ?? 0)
        let slanted = categories.count > 6 || longest > 10
        guard slanted else { return ChartFrame(width: width, height: height) }
        // The first slanted label reaches left of its bar by about 5 px per character.
        let firstLength = Double(categories.first?.count ?? 0)
        return ChartFrame(width: width, height: height, left: max(64, firstLength * 5.2 - 10), bottom: min(height * 0.45, 34 + longest * 4.2))
    }

    public func valueScale() -> LinearScale { layout().scale }

    public func svg() -> String {
        let frame = self.frame
        let (scale, ticks, step) = layout()
        var svg = SVGDocument(width: width, height: height)
        frame.drawTitle(title, in: &svg)
        frame.drawYAxis(valueAxis, ticks: ticks, step: step, scale: scale, in: &svg)
        let slot = (frame.plotRight - frame.plotLeft) / Double(max(categories.count, 1))
        let slanted = frame.bottom > 52
        let baseline = scale.pixel(max(scale.domain.lowerBound, 0))
        for (index, name) in categories.enumerated() {
            let value = index < values.count ? values[index] : .nan
            let center = frame.plotLeft + slot * (Double(index) + 0.5)
            if value.isFinite {
                let top = scale.pixel(value)
                svg.rect(x: center - slot * 0.4, y: min(top, baseline), width: slot * 0.8, height: abs(baseline - top),
                         fill: color, className: "bar", title: "\(name): \(Self.format(value, valueDecimals ?? 3))")
                if let decimals = valueDecimals {
                    svg.text(Self.format(value, decimals), x: center, y: min(top, baseline) - 4, size: 10, anchor: .middle, className: "bar-value")
                }
            }
            if slanted {
                svg.text(name, x: center, y: frame.plotBottom + 12, size: 11, anchor: .end, rotate: -35, className: "category-label")
            } else {
                svg.text(name, x: center, y: frame.plotBottom + 17, size: 11, anchor: .middle, className: "category-label")
            }
        }
        frame.drawXAxisLine(label: categoryLabel, in: &svg)
        return svg.render()
    }

    private func layout() -> (scale: LinearScale, ticks: [Double], step: Double) {
        let frame = self.frame
        let range: ClosedRange<Double>, ticks: [Double], step: Double
        if let fixed = valueAxis.range {
            range = fixed
            step = NiceTicks.step(for: fixed.upperBound - fixed.lowerBound, count: valueAxis.tickCount)
            ticks = NiceTicks.axis(for: fixed, count: valueAxis.tickCount).ticks.filter { $0 >= fixed.lowerBound - step * 1e-6 && $0 <= fixed.upperBound + step * 1e-6 }
        } else {
            let finite = values.filter(\.isFinite)
            let nice = NiceTicks.axis(for: min(0, finite.min() ?? 0)...max(finite.max() ?? 1, 0), count: valueAxis.tickCount)
            (range, ticks, step) = (nice.range, nice.ticks, nice.step)
        }
        return (LinearScale(domain: range, pixelStart: frame.plotBottom, pixelEnd: frame.plotTop), ticks, step)
    }

    static func format(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
}

/// Equal-width bins over a range; values outside it are counted apart rather than dropped silently.
public struct Histogram: Equatable {
    public var edges: [Double]
    public var counts: [Int]
    public var below: Int
    public var above: Int
    public var nonFinite: Int

    /// `range` defaults to the data's min...max; the last bin includes its upper edge.
    public init(values: [Double], binCount: Int, range: ClosedRange<Double>? = nil) {
        let bins = max(1, binCount)
        let finite = values.filter(\.isFinite)
        var low = range?.lowerBound ?? finite.min() ?? 0
        var high = range?.upperBound ?? finite.max() ?? 1
        if high <= low { low -= 0.5; high += 0.5 }
        let width = (high - low) / Double(bins)
        edges = (0...bins).map { low + Double($0) * width }
        edges[bins] = high
        counts = Array(repeating: 0, count: bins)
        below = 0; above = 0; nonFinite = values.count - finite.count
        for value in finite {
            if value < low { below += 1; continue }
            if value > high { above += 1; continue }
            counts[min(bins - 1, Int((value - low) / width))] += 1
        }
    }

    /// Adjacent bars over a numeric x axis.
    public func svg(title: String, xLabel: String, yLabel: String = "count", color: String = SVG.color(0),
                    width: Double = 640, height: Double = 420) -> String {
        let frame = ChartFrame(width: width, height: height)
        let xNice = NiceTicks.axis(for: edges[0]...edges[edges.count - 1])
        let yNice = NiceTicks.axis(for: 0...Double(max(counts.max() ?? 1, 1)))
        let yStep = max(1, yNice.step)
        let yTicks = yNice.ticks.filter { $0 == $0.rounded() }
        let xScale = LinearScale(domain: xNice.range, pixelStart: frame.plotLeft, pixelEnd: frame.plotRight)
        let yScale = LinearScale(domain: yNice.range, pixelStart: frame.plotBottom, pixelEnd: frame.plotTop)
        var svg = SVGDocument(width: width, height: height)
        frame.drawTitle(title, in: &svg)
        frame.drawYAxis(Axis(label: yLabel), ticks: yTicks, step: yStep, scale: yScale, in: &svg)
        frame.drawXAxis(Axis(label: xLabel), ticks: xNice.ticks, step: xNice.step, scale: xScale, in: &svg)
        for (index, count) in counts.enumerated() where count > 0 {
            let x0 = xScale.pixel(edges[index]), x1 = xScale.pixel(edges[index + 1])
            let top = yScale.pixel(Double(count))
            svg.rect(x: x0, y: top, width: x1 - x0, height: frame.plotBottom - top, fill: color, stroke: "#ffffff",
                     className: "bar", title: "[\(SVG.number(edges[index])), \(SVG.number(edges[index + 1]))): \(count)")
        }
        return svg.render()
    }
}
