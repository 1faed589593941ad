import Foundation

/// The rows of a ScreenLab side file (`attributes.tsv`, `accessibility.tsv`): a fixed header
/// line, then tab-separated rows, each with its 1-based file line for error messages. Blank
/// lines are skipped; CR-only and CRLF line endings split like LF (a file edited elsewhere
/// must not merge its rows into one).
enum TabSeparatedFile {
    static func rows(_ text: String, header: [String], url: URL, remedy: String = "") throws -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if offset == 0 {
                guard fields == header else {
                    throw DatasetError.unreadable(file: url.path, line: 1, reason: "header must be \(header.joined(separator: "<tab>"))\(remedy)")
                }
                continue
            }
            rows.append((offset + 1, fields))
        }
        return rows
    }
}
