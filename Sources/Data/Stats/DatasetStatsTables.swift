import Foundation
import Plotting
import Support

/// The tables and charts of `data stats`, for the terminal and for a Markdown + SVG report.
extension DatasetStats {
    /// Boxes per class per split ("boxes (images)" per cell), with a total row.
    public func classTable() -> TextTable {
        var table = TextTable(header: ["class"] + splits.map(\.name))
        for (c, name) in classes.enumerated() {
            table.rows.append([name] + splits.map { "\($0.boxesPerClass[c]) (\($0.imagesPerClass[c]))" })
        }
        table.rows.append(["total boxes (images)"] + splits.map { "\($0.boxCount) (\($0.imageCount))" })
        return table
    }

    public func summaryTable() -> TextTable {
        var table = TextTable(header: ["split", "images", "boxes", "boxes/image mean", "median", "p90", "max", "images without boxes"])
        for split in splits {
            let mean = split.imageCount > 0 ? Double(split.boxCount) / Double(split.imageCount) : 0
            let perImage = split.boxesPerImage
            table.rows.append([split.name, "\(split.imageCount)", "\(split.boxCount)", String(format: "%.2f", mean),
                               "\(DatasetStats.percentile(perImage, 0.5))", "\(DatasetStats.percentile(perImage, 0.9))",
                               "\(perImage.max() ?? 0)", "\(split.emptyImageCount)"])
        }
        return table
    }

    public func shapeTable() -> TextTable {
        var table = TextTable(header: ["class", "boxes", "median side px", "median side / image side", "median aspect w/h"])
        for (name, shape) in zip(classes, shapes) {
            guard let shape else { table.rows.append([name, "0", "-", "-", "-"]); continue }
            table.rows.append([name, "\(shape.boxCount)", String(format: "%.1f", shape.medianSide),
                               String(format: "%.3f", shape.medianRelativeSide), String(format: "%.2f", shape.medianAspect)])
        }
        return table
    }

    /// Box side √(w·h) in octaves: the scale bins a detector's anchors cover.
    public var sideHistogram: Histogram { Histogram(values: boxSides.map { log2($0) }, binCount: 20, range: 1...11) }
    /// Aspect in half-octaves from 1:32 to 32:1.
    public var aspectHistogram: Histogram { Histogram(values: aspects.map { log2($0) }, binCount: 20, range: -5...5) }
    public var boxesPerImageHistogram: Histogram {
        // Whole-number bins (width 1, 2, 3, ...) so each bin holds the counts its label names.
        let counts = splits.last?.boxesPerImage ?? []
        let values = (counts.max() ?? 0) + 1
        let binWidth = (values + 29) / 30
        let bins = (values + binWidth - 1) / binWidth
        return Histogram(values: counts.map(Double.init), binCount: bins, range: 0...Double(bins * binWidth))
    }

    /// Histogram as a table with text bars; `label` turns a bin's edges into its row title.
    public static func histogramTable(_ histogram: Histogram, title: String, label: (Double, Double) -> String) -> TextTable {
        var table = TextTable(header: [title, "count", ""], leftAligned: [2])
        let top = max(1, histogram.counts.max() ?? 1)
        if histogram.below > 0 { table.rows.append(["below range", "\(histogram.below)", ""]) }
        for (i, count) in histogram.counts.enumerated() {
            table.rows.append([label(histogram.edges[i], histogram.edges[i + 1]), "\(count)",
                               String(repeating: "#", count: Int((40 * Double(count) / Double(top)).rounded(.up)))])
        }
        if histogram.above > 0 { table.rows.append(["above range", "\(histogram.above)", ""]) }
        return table
    }

    public func sideTable() -> TextTable {
        DatasetStats.histogramTable(sideHistogram, title: "box side √(w·h) px") { String(format: "%.0f – %.0f", exp2($0), exp2($1)) }
    }

    public func aspectTable() -> TextTable {
        DatasetStats.histogramTable(aspectHistogram, title: "aspect w/h") { String(format: "%.2f – %.2f", exp2($0), exp2($1)) }
    }

    public func boxesPerImageTable() -> TextTable {
        DatasetStats.histogramTable(boxesPerImageHistogram, title: "boxes per image") { low, high in
            let first = Int(low.rounded()), last = Int(high.rounded()) - 1
            return first == last ? "\(first)" : "\(first) – \(last)"
        }
    }

    /// Every table, for the terminal.
    public func terminalReport() -> String {
        [("Boxes (images) per class and split", classTable()), ("Boxes per image", summaryTable()),
         ("Box shapes per class", shapeTable()), ("Box sizes (all classes)", sideTable()),
         ("Aspect ratios (all classes)", aspectTable()), ("Boxes per image (all splits)", boxesPerImageTable())]
            .map { "\($0.0)\n\($0.1.terminal())" }.joined(separator: "\n\n")
    }

    /// `report.md` with the tables and four SVG charts beside it.
    /// Staged and moved into `folder` at the end (see `OutputFolder`), so a failure writes nothing.
    public func writeReport(title: String, to folder: URL) throws {
        let output = try OutputFolder(folder, existing: .merge)
        let all = splits.last!
        let charts: [(file: String, svg: String)] = [
            ("class-counts.svg", BarChart(title: "Boxes per class (all splits)", categories: classes,
                                          values: all.boxesPerClass.map(Double.init), valueAxis: Axis(label: "boxes"),
                                          valueDecimals: 0).svg()),
            ("boxes-per-image.svg", boxesPerImageHistogram.svg(title: "Boxes per image", xLabel: "boxes in the image", yLabel: "images")),
            ("box-sides.svg", sideHistogram.svg(title: "Box size", xLabel: "log2 √(width·height) in px (5 = 32 px, 7 = 128 px)", yLabel: "boxes")),
            ("aspects.svg", aspectHistogram.svg(title: "Box aspect ratio", xLabel: "log2 (width / height) (0 = square, 2 = 4:1)", yLabel: "boxes")),
        ]
        for chart in charts { try output.write(chart.svg, to: chart.file) }
        var markdown = "# \(title)\n\n"
        markdown += "## Boxes (images) per class and split\n\n\(classTable().markdown())\n\n![class counts](class-counts.svg)\n\n"
        markdown += "## Boxes per image\n\n\(summaryTable().markdown())\n\n![boxes per image](boxes-per-image.svg)\n\n"
        markdown += "## Box shapes per class\n\n\(shapeTable().markdown())\n\n"
        markdown += "## Box sizes (all classes)\n\n\(sideTable().markdown())\n\n![box sides](box-sides.svg)\n\n"
        markdown += "## Aspect ratios (all classes)\n\n\(aspectTable().markdown())\n\n![aspects](aspects.svg)\n"
        try output.write(markdown, to: "report.md")
        try output.commit()
    }
}
