import XCTest
@testable import Plotting

final class PlottingTests: XCTestCase {
    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    func testNumberFormattingIsCompactAndLocaleFree() {
        XCTAssertEqual(SVG.number(3), "3")
        XCTAssertEqual(SVG.number(2.5), "2.5")
        XCTAssertEqual(SVG.number(1.23456), "1.23")
        XCTAssertEqual(SVG.number(-0.001), "0")
        XCTAssertEqual(SVG.number(.nan), "0")
        XCTAssertEqual(SVG.escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;")
    }

    func testNiceTicksCoverTheRangeInRoundSteps() {
        let axis = NiceTicks.axis(for: 0.03...0.97, count: 5)
        XCTAssertEqual(axis.step, 0.2, accuracy: 1e-12)
        XCTAssertEqual(axis.range.lowerBound, 0, accuracy: 1e-12)
        XCTAssertEqual(axis.range.upperBound, 1, accuracy: 1e-12)
        XCTAssertEqual(axis.ticks.count, 6)
        XCTAssertEqual(SVG.tickLabel(axis.ticks[3], step: axis.step), "0.6")
        let big = NiceTicks.axis(for: 0...47045, count: 5)
        XCTAssertEqual(big.step, 10000)
        XCTAssertEqual(big.ticks.last, 50000)
    }

    func testLinearScaleMapsEndsAndRunsBackwards() {
        let scale = LinearScale(domain: 0...1, pixelStart: 400, pixelEnd: 40)
        XCTAssertEqual(scale.pixel(0), 400)
        XCTAssertEqual(scale.pixel(1), 40)
        XCTAssertEqual(scale.pixel(0.25), 310)
    }

    func testLineChartDrawsSeriesLegendAndMarkerAtKnownPoint() {
        let pr = LineSeries(name: "Text", x: [0, 0.5, 1], y: [1, 0.8, 0.4],
                            markers: [ChartMarker(x: 0.5, y: 0.8, label: "conf 0.30")])
        let other = LineSeries(name: "Icon", x: [0, 1], y: [0.9, 0.1], markers: [ChartMarker(x: 1, y: 0.1, title: "Icon: conf 0.10")])
        let chart = LineChart(title: "PR", xAxis: Axis(label: "recall", range: 0...1), yAxis: Axis(label: "precision", range: 0...1),
                              series: [pr, other], width: 640, height: 420)
        let svg = chart.svg()
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        XCTAssertTrue(svg.hasSuffix("</svg>\n"))
        XCTAssertEqual(count("class=\"series\"", in: svg), 2)
        XCTAssertEqual(count("class=\"marker\"", in: svg), 2)
        XCTAssertEqual(count("class=\"legend-label\"", in: svg), 2)
        // 0, 0.2, ..., 1 on both axes.
        XCTAssertEqual(count("class=\"tick-label\"", in: svg), 12)
        // The legend (names of 4 letters: 44 + 4 · 6.5 = 70 px) sits right of the plot, which is
        // x 64...550 (640 − 20 − 70), y 40...368: (0.5, 0.8) is at (307, 105.6).
        let (xs, ys) = chart.scales()
        XCTAssertEqual(xs.pixel(1), 550, accuracy: 1e-9)
        XCTAssertEqual(xs.pixel(0.5), 307, accuracy: 1e-9)
        XCTAssertEqual(ys.pixel(0.8), 105.6, accuracy: 1e-9)
        XCTAssertTrue(svg.contains("<rect x=\"562\" y=\"40\" width=\"54\" height=\"40\" fill=\"#ffffff\" stroke=\"#cccccc\" class=\"legend\"/>"), svg)
        XCTAssertTrue(svg.contains("points=\"64,40 307,105.6 550,236.8\""))
        // Markers take their series' colour and carry a tooltip; only labelled ones get text.
        XCTAssertTrue(svg.contains("<circle cx=\"307\" cy=\"105.6\" r=\"5\" fill=\"\(SVG.color(0))\" stroke=\"#ffffff\" class=\"marker\"><title>conf 0.30</title></circle>"), svg)
        XCTAssertTrue(svg.contains("fill=\"\(SVG.color(1))\" stroke=\"#ffffff\" class=\"marker\"><title>Icon: conf 0.10</title>"), svg)
        XCTAssertTrue(svg.contains(">conf 0.30</text>"))
        XCTAssertFalse(svg.contains(">Icon: conf 0.10</text>"))
        XCTAssertEqual(svg, chart.svg(), "output must be deterministic")

        let single = LineChart(title: "Text: PR", xAxis: Axis(label: "recall", range: 0...1), yAxis: Axis(label: "precision", range: 0...1),
                               series: [pr], width: 640, height: 420)
        XCTAssertEqual(count("class=\"legend", in: single.svg()), 0, "one series: the title names it, no legend")
        XCTAssertEqual(single.scales().x.pixel(1), 620, accuracy: 1e-9, "and the plot keeps the full width")
    }

    func testPaletteGivesThirteenClassesDistinctColoursAndDashesTheSecondSet() {
        let strokes = (0..<14).map { "\(SVG.color($0)) \(SVG.dash($0) ?? "solid")" }
        XCTAssertEqual(Set((0..<14).map(SVG.color)).count, 14)
        XCTAssertEqual((0..<14).map { SVG.dash($0) == nil }, Array(repeating: true, count: 7) + Array(repeating: false, count: 7))
        // Past 14 series the colours repeat with the other dash pattern, so no two series look alike up to 28.
        XCTAssertEqual(Set((0..<28).map { "\(SVG.color($0)) \(SVG.dash($0) ?? "solid")" }).count, 28)
        XCTAssertEqual(Set(strokes).count, 14)
        let dashed = LineChart(title: "", xAxis: Axis(label: "x"), yAxis: Axis(label: "y"),
                               series: (0..<8).map { LineSeries(name: "s\($0)", x: [0, 1], y: [0, 1]) }).svg()
        XCTAssertEqual(count("stroke-dasharray=\"6 3\"", in: dashed), 2, "series 7: its line and its legend swatch")
    }

    func testLineChartBreaksAtNonFinitePoints() {
        let series = LineSeries(name: "", x: [0, 1, .nan, 3, 4], y: [0, 1, 2, 3, 4])
        let svg = LineChart(title: "", xAxis: Axis(label: "x"), yAxis: Axis(label: "y"), series: [series]).svg()
        XCTAssertEqual(count("<polyline", in: svg), 2)
        XCTAssertEqual(count("class=\"legend\"", in: svg), 0, "unnamed series get no legend")
    }

    func testBarChartOneBarPerCategoryWithHeightsProportional() {
        let chart = BarChart(title: "Counts", categories: ["A", "B", "C"], values: [10, 20, 0],
                             valueAxis: Axis(label: "boxes", range: 0...20), valueDecimals: 0)
        let svg = chart.svg()
        XCTAssertEqual(count("class=\"bar\"", in: svg), 3)
        XCTAssertEqual(count("class=\"category-label\"", in: svg), 3)
        XCTAssertEqual(count("class=\"bar-value\"", in: svg), 3)
        // Plot height 328 px for 0...20: a 10 bar is 164 px tall, a 20 bar 328.
        XCTAssertTrue(svg.contains("height=\"164\" fill=\"\(SVG.color(0))\" class=\"bar\""))
        XCTAssertTrue(svg.contains("height=\"328\" fill=\"\(SVG.color(0))\" class=\"bar\""))
    }

    func testBarChartSlantsManyLongLabels() {
        let names = ["Checkbox (Selected)", "Checkbox (Unselected)", "Container", "Dialog", "Icon", "Page Control", "Picture"]
        let svg = BarChart(title: "", categories: names, values: names.indices.map(Double.init), valueAxis: Axis(label: "")).svg()
        XCTAssertEqual(count("rotate(-35", in: svg), names.count)
        XCTAssertTrue(svg.contains("Checkbox (Selected)"))
    }

    func testHistogramBinsIncludingEdgesAndOutliers() {
        let histogram = Histogram(values: [0, 0.1, 0.5, 0.99, 1.0, -1, 2, .nan], binCount: 4, range: 0...1)
        XCTAssertEqual(histogram.counts, [2, 0, 1, 2], "0.5 opens the third bin; 1.0 closes the last")
        XCTAssertEqual(histogram.below, 1)
        XCTAssertEqual(histogram.above, 1)
        XCTAssertEqual(histogram.nonFinite, 1)
        XCTAssertEqual(histogram.edges, [0, 0.25, 0.5, 0.75, 1])
        let svg = histogram.svg(title: "scores", xLabel: "score")
        XCTAssertEqual(count("class=\"bar\"", in: svg), 3, "the empty bin draws no bar")
    }

    func testHeatMapCellsLabelsAndColours() {
        let map = HeatMap(title: "Confusion", rowLabels: ["a", "b"], columnLabels: ["a", "b", "bg"],
                          values: [[5, 1, 0], [0, 10, .nan]], format: .integer, cellSize: 40)
        let svg = map.svg()
        XCTAssertEqual(count("class=\"cell\"", in: svg), 6)
        XCTAssertEqual(count("class=\"cell-value\"", in: svg), 5)
        XCTAssertEqual(count("class=\"row-label\"", in: svg), 2)
        XCTAssertEqual(count("class=\"column-label\"", in: svg), 3)
        let origin = map.cellOrigin(row: 1, column: 1)
        XCTAssertTrue(svg.contains("x=\"\(SVG.number(origin.x))\" y=\"\(SVG.number(origin.y))\" width=\"40\" height=\"40\" fill=\"#08306b\""),
                      "the maximum cell is the darkest colour")
        XCTAssertEqual(HeatMap.color(0), "#ffffff")
        XCTAssertEqual(HeatMap(title: "", rowLabels: [], columnLabels: [], values: [], format: .percent(decimals: 1)).text(0.1234), "12.3%")
    }

    /// A curve of 20,000 points on a 600-pixel chart is drawn with the points the resolution
    /// needs: none closer than half a pixel to the one before, the ends kept, the shape the same.
    func testLongCurvesAreThinnedToTheChartsResolution() {
        let count = 20_000
        let xs = (0..<count).map { Double($0) / Double(count - 1) }
        let chart = LineChart(title: "PR", xAxis: Axis(label: "recall", range: 0...1), yAxis: Axis(label: "precision", range: 0...1),
                              series: [LineSeries(name: "run", x: xs, y: xs.map { 1 - $0 * $0 })])
        let svg = chart.svg()
        let list = svg.components(separatedBy: "points=\"")[1].components(separatedBy: "\"")[0].split(separator: " ")
        XCTAssertLessThan(list.count, 2_000, "thinned to the chart's width, not 20,000 points")
        XCTAssertGreaterThan(list.count, 300, "still a point every pixel or two")
        let pixels = [(0.0, 0.0), (0.1, 0.1), (0.2, 0.0), (3, 3), (3.2, 3), (3.3, 3.1)]
        let thinned = LineChart.thinned(pixels)
        XCTAssertEqual(thinned.map(\.0), [0, 3, 3.3], "points within half a pixel of the last kept one dropped; the last kept")
        XCTAssertEqual(LineChart.thinned([(0, 0), (0.1, 0)]).count, 2, "two points are a segment")
    }
}
