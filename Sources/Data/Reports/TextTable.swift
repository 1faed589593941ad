/// A table printed two ways: aligned columns for the terminal and GitHub Markdown for reports.
/// Columns after the first are right-aligned (they hold numbers).
public struct TextTable: Equatable {
    public var header: [String]
    public var rows: [[String]]

    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    public func terminal() -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func render(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([render(header), rule] + rows.map(render)).joined(separator: "\n")
    }

    public func markdown() -> String {
        let escape = { (cell: String) in cell.replacingOccurrences(of: "|", with: "\\|") }
        let align = header.indices.map { $0 == 0 ? ":---" : "---:" }
        return ([header, align] + rows).map { "| " + $0.map(escape).joined(separator: " | ") + " |" }.joined(separator: "\n")
    }
}
