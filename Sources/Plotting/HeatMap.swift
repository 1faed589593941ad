import Foundation

/// A labelled matrix of coloured cells with the value printed in each (confusion matrices).
public struct HeatMap {
    public enum CellFormat: Equatable {
        case integer
        case decimals(Int)
        case percent(decimals: Int)
    }

    public var title: String
    public var rowLabels: [String]
    public var columnLabels: [String]
    /// values[row][column]; non-finite cells are drawn grey and empty.
    public var values: [[Double]]
    public var format: CellFormat
    public var rowAxisLabel: String
    public var columnAxisLabel: String
    /// Colour scale maximum; nil uses the largest finite value.
    public var maximum: Double?
    public var cellSize: Double

    public init(title: String, rowLabels: [String], columnLabels: [String], values: [[Double]], format: CellFormat = .integer,
                rowAxisLabel: String = "", columnAxisLabel: String = "", maximum: Double? = nil, cellSize: Double = 44) {
        self.title = title; self.rowLabels = rowLabels; self.columnLabels = columnLabels; self.values = values
        self.format = format; self.rowAxisLabel = rowAxisLabel; self.columnAxisLabel = columnAxisLabel
        self.maximum = maximum; self.cellSize = cellSize
    }

    /// Top-left corner of a cell in the rendered SVG.
    public func cellOrigin(row: Int, column: Int) -> (x: Double, y: Double) {
        let origin = gridOrigin
        return (origin.x + Double(column) * cellSize, origin.y + Double(row) * cellSize)
    }

    private var gridOrigin: (x: Double, y: Double) {
        let longestRow = Double(rowLabels.map(\.count).max() ?? 0)
        let longestColumn = Double(columnLabels.map(\.count).max() ?? 0)
        return (36 + longestRow * 6.6, 44 + longestColumn * 5.0)
    }

    public func svg() -> String {
        let origin = gridOrigin
        let rows = rowLabels.count, columns = columnLabels.count
        // Slanted column labels reach right of the last column.
        let width = origin.x + Double(columns) * cellSize + 24 + Double(columnLabels.last?.count ?? 0) * 4.5
        let height = origin.y + Double(rows) * cellSize + 24
        var svg = SVGDocument(width: width, height: height)
        if !title.isEmpty { svg.text(title, x: width / 2, y: 20, size: 15, anchor: .middle, bold: true, className: "title") }
        let finite = values.flatMap { $0 }.filter(\.isFinite)
        let top = maximum ?? max(finite.max() ?? 1, 1e-12)
        for row in 0..<rows {
            for column in 0..<columns {
                let value = row < values.count && column < values[row].count ? values[row][column] : .nan
                let (x, y) = cellOrigin(row: row, column: column)
                let label = "\(rowLabels[row]) → \(columnLabels[column])"
                guard value.isFinite else {
                    svg.rect(x: x, y: y, width: cellSize, height: cellSize, fill: "#eeeeee", stroke: "#ffffff", className: "cell", title: label)
                    continue
                }
                let t = top > 0 ? min(max(value / top, 0), 1) : 0
                svg.rect(x: x, y: y, width: cellSize, height: cellSize, fill: Self.color(t), stroke: "#ffffff",
                         className: "cell", title: "\(label): \(text(value))")
                svg.text(text(value), x: x + cellSize / 2, y: y + cellSize / 2 + 4, size: min(11, cellSize / 3.2), anchor: .middle,
                         fill: t > 0.55 ? "#ffffff" : "#222222", className: "cell-value")
            }
        }
        for (row, name) in rowLabels.enumerated() {
            svg.text(name, x: origin.x - 6, y: origin.y + (Double(row) + 0.5) * cellSize + 4, size: 11, anchor: .end, className: "row-label")
        }
        for (column, name) in columnLabels.enumerated() {
            let x = origin.x + (Double(column) + 0.5) * cellSize
            svg.text(name, x: x, y: origin.y - 6, size: 11, anchor: .start, rotate: -50, className: "column-label")
        }
        if !rowAxisLabel.isEmpty {
            svg.text(rowAxisLabel, x: 14, y: origin.y + Double(rows) * cellSize / 2, size: 12, anchor: .middle, rotate: -90, className: "axis-label")
        }
        if !columnAxisLabel.isEmpty {
            svg.text(columnAxisLabel, x: origin.x + Double(columns) * cellSize / 2, y: height - 6, size: 12, anchor: .middle, className: "axis-label")
        }
        return svg.render()
    }

    public func text(_ value: Double) -> String {
        switch format {
        case .integer: return String(format: "%.0f", value)
        case .decimals(let n): return String(format: "%.\(n)f", value)
        case .percent(let n): return String(format: "%.\(n)f%%", value * 100)
        }
    }

    /// White → dark blue, linear in each channel.
    static func color(_ t: Double) -> String {
        let low = (255.0, 255.0, 255.0), high = (8.0, 48.0, 107.0)
        let r = Int((low.0 + (high.0 - low.0) * t).rounded())
        let g = Int((low.1 + (high.1 - low.1) * t).rounded())
        let b = Int((low.2 + (high.2 - low.2) * t).rounded())
        return String(format: "#%02x%02x%02x", r, g, b)
    }
}
