import Foundation
import Support

/// Reads a YOLO folder (see `YOLOLayout` for the accepted layouts) into a `Dataset`.
///
/// Image sizes come from `manifest.tsv` when it has them (no image is opened) and otherwise
/// from each image's header. An image named in two splits becomes one sample listed in both
/// splits (so `data check` can report it). Strict mode throws on the first missing image,
/// malformed line or unknown class; lenient mode records them and skips the line or image.
public enum YOLOReader {
    public struct Options {
        /// Trust `manifest.tsv` sizes; `data check` turns this off to open every header.
        public var useManifestSizes = true
        public var showProgress = false
        public init(useManifestSizes: Bool = true, showProgress: Bool = false) {
            self.useManifestSizes = useManifestSizes
            self.showProgress = showProgress
        }
    }

    public static func read(_ folder: URL, options: Options = Options(), issues: IssueCollector = IssueCollector(strict: true)) throws -> Dataset {
        let layout = try YOLOLayout.discover(folder.standardizedFileURL)
        let manifest = try ImageManifest.read(layout.root.appendingPathComponent(ImageManifest.fileName))
        let attributesURL = layout.root.appendingPathComponent(YOLOAttributes.fileName)
        let attributes = try YOLOAttributes.read(attributesURL).map { (table: $0, file: attributesURL) }
        let accessibility = try AccessibilityElementsFile.read(layout.root.appendingPathComponent(AccessibilityElementsFile.fileName))
        var dataset = Dataset(root: layout.root, classes: layout.classes)
        var indexByPath: [String: Int] = [:]
        let named: [(name: String?, images: [YOLOLayout.ImageEntry])] =
            layout.splits.isEmpty ? [(nil, layout.unsplitImages)] : layout.splits.map { ($0.name, $0.images) }
        let total = named.reduce(0) { $0 + $1.images.count }
        let progress = ProgressLine("reading \(folder.lastPathComponent)", total: total, unit: "images", enabled: options.showProgress)
        for (splitName, images) in named {
            var indices: [Int] = []
            var firstListing: [String: YOLOLayout.ImageEntry] = [:]  // this split's entries by path
            for entry in images {
                defer { progress.advance() }
                if let first = firstListing[entry.url.path] {
                    let place = first.line.map { "line \($0)" } ?? first.listedIn
                    try issues.report(DatasetIssue(.duplicateListEntry, file: entry.listedIn, line: entry.line,
                                                   "\(relativePath(entry.url, root: layout.root)) is already listed on \(place); the second listing is ignored"))
                    continue
                }
                firstListing[entry.url.path] = entry
                if let existing = indexByPath[entry.url.path] {
                    indices.append(existing)
                    continue
                }
                guard let sample = try readSample(entry, layout: layout, manifest: options.useManifestSizes ? manifest : nil,
                                                  groups: manifest, attributes: attributes, accessibility: accessibility, issues: issues) else { continue }
                indexByPath[entry.url.path] = dataset.samples.count
                indices.append(dataset.samples.count)
                dataset.samples.append(sample)
            }
            if let splitName { dataset.splits[splitName] = indices }
        }
        if options.showProgress { progress.finish() }
        return dataset
    }

    static func readSample(_ entry: YOLOLayout.ImageEntry, layout: YOLOLayout, manifest: ImageManifest?, groups: ImageManifest?,
                           attributes: (table: YOLOAttributes, file: URL)?, accessibility: AccessibilityElementsFile? = nil,
                           issues: IssueCollector) throws -> Sample? {
        let key = manifestKey(entry.url, root: layout.root)
        let size: (width: Int, height: Int)
        if let row = manifest?.rows[key], FileManager.default.fileExists(atPath: entry.url.path) {
            size = (row.width, row.height)
        } else {
            switch ImageSizeReader.size(of: entry.url) {
            case let .success(headerSize): size = headerSize
            case var .failure(issue):
                if issue.kind == .missingImage {
                    issue = DatasetIssue(.missingImage, file: entry.listedIn, line: entry.line, "\(entry.url.path) does not exist")
                }
                try issues.report(issue)
                return nil
            }
        }
        let labelURL = YOLOLayout.labelURL(forImage: entry.url)
        var lines: [Int] = []
        var annotations = try readLabels(labelURL, classCount: layout.classes.count,
                                         imageWidth: size.width, imageHeight: size.height, issues: issues, lineNumbers: &lines)
        try attributes?.table.apply(to: &annotations, lines: lines, image: key, labelFile: labelURL.path, file: attributes!.file, issues: issues)
        let imagePath = relativePath(entry.url, root: layout.root)
        issues.recordSources(lines.map { AnnotationSource(file: labelURL.path, line: $0) }, forImage: imagePath)
        return Sample(id: sampleID(entry.url, root: layout.root), imagePath: imagePath,
                      width: size.width, height: size.height, annotations: annotations, group: groups?.rows[key]?.group,
                      accessibilityElements: accessibility?.elements(image: key, lines: lines),
                      metadata: groups?.rows[key].flatMap { $0.columns.isEmpty ? nil : $0.columns })
    }

    /// The boxes of one label file; a missing file is an image without boxes.
    public static func readLabels(_ url: URL, classCount: Int, imageWidth: Int, imageHeight: Int,
                                  issues: IssueCollector) throws -> [Annotation] {
        var lineNumbers: [Int] = []
        return try readLabels(url, classCount: classCount, imageWidth: imageWidth, imageHeight: imageHeight,
                              issues: issues, lineNumbers: &lineNumbers)
    }

    /// Also returns the line number of each annotation.
    static func readLabels(_ url: URL, classCount: Int, imageWidth: Int, imageHeight: Int,
                           issues: IssueCollector, lineNumbers: inout [Int]) throws -> [Annotation] {
        // No entry at all: an image without boxes. Anything else that cannot be read (a link loop,
        // a dangling link, a FIFO, a folder) is reported: its boxes would otherwise vanish silently.
        guard FileKind.of(url.path) != .missing else { return [] }
        let bytes: [UInt8]
        do { bytes = [UInt8](try FileText.data(url)) } catch let DatasetError.unreadable(_, _, reason) {
            try issues.report(DatasetIssue(.malformedLine, file: url.path, "label file \(reason)"))
            return []
        }
        return try parseLabels(bytes, file: url.path, classCount: classCount, imageWidth: imageWidth, imageHeight: imageHeight,
                               issues: issues, lineNumbers: &lineNumbers)
    }

    /// The boxes of a label file's bytes; problems are reported against `path`.
    static func parseLabels(_ bytes: [UInt8], file path: String, classCount: Int, imageWidth: Int, imageHeight: Int,
                            issues: IssueCollector, lineNumbers: inout [Int]) throws -> [Annotation] {
        let url = URL(fileURLWithPath: path)
        var annotations: [Annotation] = []
        try bytes.withUnsafeBufferPointer { file in
            var lineStart = 0, lineNumber = 0
            while lineStart < file.count {
                var lineEnd = lineStart
                // "\n", "\r\n" and a lone "\r" (old Mac editors) all end a line: a CR-only file was one bogus line.
                while lineEnd < file.count && file[lineEnd] != 10 && file[lineEnd] != 13 { lineEnd += 1 }
                lineNumber += 1
                let breakLength = lineEnd + 1 < file.count && file[lineEnd] == 13 && file[lineEnd + 1] == 10 ? 2 : 1
                defer { lineStart = lineEnd + breakLength }
                let line = UnsafeBufferPointer(rebasing: file[lineStart..<lineEnd])
                if YOLOLabelLine.fieldRanges(line) == 0 { continue }  // blank line
                switch YOLOLabelLine.parse(line: line) {
                case let .failure(error):
                    try issues.report(DatasetIssue(.malformedLine, file: url.path, line: lineNumber, error.description))
                case let .success(parsed) where parsed.classIndex >= classCount:
                    try issues.report(DatasetIssue(.unknownClass, file: url.path, line: lineNumber,
                                                   "class id \(parsed.classIndex) but the dataset has \(classCount) classes (0...\(classCount - 1))"))
                case let .success(parsed):
                    annotations.append(Annotation(classIndex: parsed.classIndex, box: parsed.box(imageWidth: imageWidth, imageHeight: imageHeight)))
                    lineNumbers.append(lineNumber)
                }
            }
        }
        return annotations
    }

    /// Path under the `images` folder, the key `manifest.tsv` uses (the file name for a flat folder).
    static func manifestKey(_ image: URL, root: URL) -> String {
        let relative = relativePath(image, root: root)
        return relative.hasPrefix("images/") ? String(relative.dropFirst("images/".count)) : relative
    }

    static func sampleID(_ image: URL, root: URL) -> String {
        let key = manifestKey(image, root: root)
        return key.hasPrefix("/") ? image.deletingPathExtension().lastPathComponent : (key as NSString).deletingPathExtension
    }

    /// `image` relative to `root` when inside it, else absolute.
    static func relativePath(_ image: URL, root: URL) -> String {
        let rootPath = root.standardizedFileURL.path.hasSuffix("/") ? root.standardizedFileURL.path : root.standardizedFileURL.path + "/"
        let path = image.standardizedFileURL.path
        return path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
    }
}
