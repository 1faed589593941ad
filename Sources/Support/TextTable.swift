import Foundation

/// A table printed two ways: aligned columns for the terminal and GitHub Markdown for reports.
/// The first column and those in `leftAligned` are left-aligned; the rest hold numbers and are
/// right-aligned.
public struct TextTable: Equatable {
    public var header: [String]
    public var rows: [[String]]
    public var leftAligned: Set<Int>

    public init(header: [String], rows: [[String]] = [], leftAligned: Set<Int> = []) {
        self.header = header
        self.rows = rows
        self.leftAligned = leftAligned.union([0])
    }

    public func terminal() -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func render(_ row: [String]) -> String {
            var line = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return leftAligned.contains(column) ? cell + pad : pad + cell
            }.joined(separator: "  ")
            // By hand: the regular expression `\s+$` backtracks quadratically over a long padding
            // (13 s for one `runs show` whose registry held a 16,000-character name; the registry fuzzer).
            while line.last?.isWhitespace == true { line.removeLast() }
            return line
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([render(header), rule] + rows.map(render)).joined(separator: "\n")
    }

    public func markdown() -> String {
        let escape = { (cell: String) in cell.replacingOccurrences(of: "|", with: "\\|") }
        let align = header.indices.map { leftAligned.contains($0) ? ":---" : "---:" }
        return ([header, align] + rows).map { "| " + $0.map(escape).joined(separator: " | ") + " |" }.joined(separator: "\n")
    }
}
