import Foundation
import Support
import Imaging

/// `manifest.tsv` beside a YOLO folder: one row per image with at least the columns
/// `image`, `width`, `height` (tab separated, header first), optionally `group`.
/// `image` is the path under `images/` (the file name for a flat folder). It lets a
/// reader skip opening 2,673 image headers (vins-ui) and carries the app group, which
/// YOLO itself has no place for. Other columns are ignored.
public struct ImageManifest {
    public struct Row: Equatable {
        public var width: Int
        public var height: Int
        public var group: String?
        /// The row's other columns by header name (e.g. vins-ui's `source` and `split`), for
        /// `evaluate --where source=vins_iphone`.
        public var columns: [String: String] = [:]
    }

    public var rows: [String: Row]

    public static let fileName = "manifest.tsv"

    public init(rows: [String: Row] = [:]) { self.rows = rows }

    /// Nil when the file does not exist or lacks the width/height columns.
    public static func read(_ url: URL) throws -> ImageManifest? {
        guard FileKind.of(url.path) != .missing else { return nil }  // a link loop or FIFO is reported, not skipped
        return try parse(try FileText.read(url), url: url)
    }

    /// Nil when the header lacks the width/height columns.
    static func parse(_ text: String, url: URL) throws -> ImageManifest? {
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).makeIterator()
        guard let header = lines.next()?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init),
              let imageColumn = header.firstIndex(of: "image"), let widthColumn = header.firstIndex(of: "width"),
              let heightColumn = header.firstIndex(of: "height") else { return nil }
        let groupColumn = header.firstIndex(of: "group")
        let otherColumns = header.indices.filter { ![imageColumn, widthColumn, heightColumn, groupColumn].contains($0) && !header[$0].isEmpty }
        var rows: [String: Row] = [:]
        var lineNumber = 1
        while let line = lines.next() {
            lineNumber += 1
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == header.count, let width = Int(fields[widthColumn]), let height = Int(fields[heightColumn]),
                  ImageSizeLimits.contains(width: width, height: height) else {
                throw DatasetError.unreadable(file: url.path, line: lineNumber,
                                              reason: "expected \(header.count) tab-separated fields with width and height in 1...\(ImageSizeLimits.maximumSide)")
            }
            let group = groupColumn.map { String(fields[$0]) }.flatMap { $0.isEmpty ? nil : $0 }
            let columns = Dictionary(otherColumns.map { (header[$0], String(fields[$0])) }, uniquingKeysWith: { first, _ in first })
            rows[String(fields[imageColumn])] = Row(width: width, height: height, group: group, columns: columns)
        }
        return ImageManifest(rows: rows)
    }

    public func tsv() -> String {
        let withGroups = rows.values.contains { $0.group != nil }
        var text = withGroups ? "image\twidth\theight\tgroup\n" : "image\twidth\theight\n"
        for key in rows.keys.sorted() {
            let row = rows[key]!
            text += "\(key)\t\(row.width)\t\(row.height)" + (withGroups ? "\t\(row.group ?? "")" : "") + "\n"
        }
        return text
    }
}

/// Reads image sizes from headers only (`ImageIO.readSize`), never decoding pixels.
public enum ImageSizeReader {
    public static func size(of url: URL) -> Result<(width: Int, height: Int), DatasetIssue> {
        do { return .success(try ImageIO.readSize(url)) } catch let error as ImageError where error.kind == .missing {
            return .failure(DatasetIssue(.missingImage, file: url.path, "no such file"))
        } catch {
            return .failure(DatasetIssue(.unreadableImage, file: url.path, "\(error)"))
        }
    }
}

/// Image sizes a dataset may declare (COCO width/height, manifest.tsv): the decoder's own bound.
/// A COCO image of width 2^40 overflowed `width * height` in `data stats` and `data split`.
public enum ImageSizeLimits {
    public static let maximumSide = 1 << 16

    public static func contains(width: Int, height: Int) -> Bool {
        (1...maximumSide).contains(width) && (1...maximumSide).contains(height)
    }
}
