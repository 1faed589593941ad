import Foundation
import Support

/// `attributes.tsv` beside a YOLO folder: the element states (`selected`, `clickable`) that a
/// YOLO label line has no room for, so label files stay plain `class cx cy w h` that every YOLO
/// tool reads, and ScreenLab still gets the states back.
///
/// Tab separated, header first: `image` (the path under `images/`, the key `manifest.tsv`
/// uses), `line` (1-based line of the box in the image's label file), `class` (that line's
/// class id, so a label file edited by another tool afterwards is caught rather than giving a
/// state to the wrong box), `selected`, `clickable` (`true`, `false`, or empty for unknown).
/// Only boxes with a state have a row; the file is written only when some box has one.
public struct YOLOAttributes: Equatable {
    public struct Row: Equatable {
        public var classIndex: Int
        public var selected: Bool?
        public var clickable: Bool?
        /// Line in attributes.tsv, for messages.
        public var fileLine: Int
    }

    /// Image key → label-file line → row.
    public var rows: [String: [Int: Row]] = [:]

    public static let fileName = "attributes.tsv"
    static let header = ["image", "line", "class", "selected", "clickable"]

    public init() {}

    /// Nil when the file does not exist.
    public static func read(_ url: URL) throws -> YOLOAttributes? {
        guard FileKind.of(url.path) != .missing else { return nil }  // a link loop or FIFO is reported, not skipped
        return try parse(try FileText.read(url), url: url)
    }

    static func parse(_ text: String, url: URL) throws -> YOLOAttributes {
        var result = YOLOAttributes()
        for (line, fields) in try TabSeparatedFile.rows(text, header: header, url: url) {
            func flag(_ text: String) -> Bool?? { text.isEmpty ? .some(nil) : text == "true" ? true : text == "false" ? false : nil }
            guard fields.count == header.count, let labelLine = Int(fields[1]), labelLine >= 1, let classIndex = Int(fields[2]), classIndex >= 0,
                  let selected = flag(fields[3]), let clickable = flag(fields[4]) else {
                throw DatasetError.unreadable(file: url.path, line: line,
                                              reason: "expected image, line (≥ 1), class (≥ 0), selected, clickable (true, false or empty), tab separated")
            }
            guard result.rows[fields[0]]?[labelLine] == nil else {
                throw DatasetError.unreadable(file: url.path, line: line, reason: "\(fields[0]) line \(labelLine) has a row already")
            }
            result.rows[fields[0], default: [:]][labelLine] = Row(classIndex: classIndex, selected: selected, clickable: clickable, fileLine: line)
        }
        return result
    }

    /// Sets the states of one image's annotations (read from label-file `lines`), reporting rows
    /// whose line holds no box or a box of another class: the label file changed afterwards.
    func apply(to annotations: inout [Annotation], lines: [Int], image key: String, labelFile: String, file: URL,
               issues: IssueCollector) throws {
        guard let imageRows = rows[key] else { return }
        var used = Set<Int>()
        for (i, line) in lines.enumerated() {
            guard let row = imageRows[line] else { continue }
            used.insert(line)
            guard row.classIndex == annotations[i].classIndex else {
                try issues.report(DatasetIssue(.invalidAnnotation, file: file.path, line: row.fileLine,
                                               "says class \(row.classIndex) for \(labelFile):\(line), which has class \(annotations[i].classIndex); "
                                               + "the label file changed after \(Self.fileName) was written: fix or delete the row"))
                continue
            }
            annotations[i].selected = row.selected
            annotations[i].clickable = row.clickable
        }
        for (line, row) in imageRows.sorted(by: { $0.key < $1.key }) where !used.contains(line) {
            try issues.report(DatasetIssue(.invalidAnnotation, file: file.path, line: row.fileLine,
                                           "\(labelFile) has no box on line \(line); the label file changed after \(Self.fileName) was written: fix or delete the row"))
        }
    }

    func tsv() -> String {
        var text = Self.header.joined(separator: "\t") + "\n"
        func flag(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "" }
        for key in rows.keys.sorted() {
            for (line, row) in rows[key]!.sorted(by: { $0.key < $1.key }) {
                text += "\(key)\t\(line)\t\(row.classIndex)\t\(flag(row.selected))\t\(flag(row.clickable))\n"
            }
        }
        return text
    }
}
