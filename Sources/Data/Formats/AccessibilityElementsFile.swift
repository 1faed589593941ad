import Foundation
import Support

/// `accessibility.tsv` beside a YOLO folder: each screen's true screen-reader elements in
/// navigation order (`Sample.accessibilityElements`), which label files have no room for.
///
/// Tab separated, header first: `image` (the key `manifest.tsv` uses), `elements` (the
/// elements in order, `;` between them, each the 1-based label-file lines of its boxes with
/// `,` between them: `1,2,5;3;4`). Written only when some sample has elements.
public struct AccessibilityElementsFile: Equatable {
    /// Image key → elements as label-file lines (1-based), in order.
    public var rows: [String: [[Int]]] = [:]

    public static let fileName = "accessibility.tsv"
    static let header = ["image", "elements"]

    public init() {}

    public func tsv() -> String {
        var text = Self.header.joined(separator: "\t") + "\n"
        for (key, elements) in rows.sorted(by: { $0.key < $1.key }) {
            text += key + "\t" + elements.map { $0.map(String.init).joined(separator: ",") }.joined(separator: ";") + "\n"
        }
        return text
    }

    /// Nil when the file does not exist.
    public static func read(_ url: URL) throws -> AccessibilityElementsFile? {
        guard FileKind.of(url.path) != .missing else { return nil }
        return try parse(try FileText.read(url), url: url)
    }

    static func parse(_ text: String, url: URL) throws -> AccessibilityElementsFile {
        var result = AccessibilityElementsFile()
        for (line, fields) in try TabSeparatedFile.rows(text, header: header, url: url, remedy: "; fix or delete the file") {
            let elements = fields.count == 2 ? fields[1].split(separator: ";").map { $0.split(separator: ",").map { Int($0) } } : []
            guard fields.count == 2, !elements.isEmpty, elements.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ($0 ?? 0) >= 1 } }) else {
                throw DatasetError.unreadable(file: url.path, line: line,
                                              reason: "expected image<tab>elements, elements like 1,2;3 (label lines ≥ 1); fix or delete the row")
            }
            guard result.rows[fields[0]] == nil else {
                throw DatasetError.unreadable(file: url.path, line: line, reason: "\(fields[0]) has a row already; delete one of them")
            }
            result.rows[fields[0]] = elements.map { $0.map { $0! } }
        }
        return result
    }

    /// One image's elements as annotation indices, given the label-file line of each
    /// annotation; lines that hold no box (skipped or edited since) are left out.
    func elements(image key: String, lines: [Int]) -> [[Int]]? {
        guard let rows = rows[key] else { return nil }
        var index: [Int: Int] = [:]
        for (i, line) in lines.enumerated() { index[line] = i }
        return rows.map { $0.compactMap { index[$0] } }.filter { !$0.isEmpty }
    }
}
