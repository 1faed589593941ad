import Foundation
import Imaging
import Support

/// `screenlab data check`: every problem in a dataset, each with the file (and line) to fix.
///
/// Reading problems (missing or unreadable images, malformed lines, unknown classes, an image
/// listed twice) come from a lenient load that opens every image header (never trusting
/// `manifest.tsv` or COCO JSON sizes); then every image's end is checked for truncation (or the
/// image fully decoded), boxes are checked against their image, image bytes are hashed to find
/// duplicates, and split lists are checked for an image in two splits.
public struct CheckReport {
    /// The dataset as loaded leniently: unreadable images and bad lines already left out.
    public var dataset: Dataset
    public var issues: [DatasetIssue]
    /// Where each annotation came from (sample image path → per-annotation source).
    public var annotationSources: [String: [AnnotationSource]] = [:]

    public var counts: [(kind: DatasetIssue.Kind, count: Int)] {
        DatasetIssue.Kind.allCases.map { kind in (kind, issues.filter { $0.kind == kind }.count) }
    }

    /// What to do, said once for the whole report (each problem line names only the place):
    /// `datasetArgument` is the dataset as the user typed it.
    public func remedies(datasetArgument: String) -> [String] {
        let found = Set(issues.map(\.kind))
        var lines: [String] = []
        if !found.isDisjoint(with: DatasetFixer.repairedKinds) {
            lines.append("to repair: run `screenlab data check \(datasetArgument) --fix --out DIR`: it clips boxes to their image, "
                         + "drops boxes with no area, leaves out bad lines and broken images, and writes a new label set (the original is not edited)")
        }
        if !found.isDisjoint(with: DatasetFixer.leftForAPerson) {
            lines.append("duplicate images and images in two splits are not changed by --fix: decide which copy or split keeps each "
                         + "one and remove the other from the split lists")
        }
        return lines
    }
}

public enum DatasetChecker {
    /// A box may stick out of its image by this many pixels before it counts as outside:
    /// YOLO's relative coordinates put a box that ends exactly at the edge at 640.0000000001.
    public static let edgeTolerance = 1e-3

    public struct Options {
        /// Decode every image fully (finds corrupt data that the end-marker check misses); slower.
        public var decodeImages = false
        public var showProgress = false
        public init(decodeImages: Bool = false, showProgress: Bool = false) {
            self.decodeImages = decodeImages
            self.showProgress = showProgress
        }
    }

    public static func check(_ url: URL, options: Options = Options()) throws -> CheckReport {
        let collector = IssueCollector(strict: false)
        var dataset = try DatasetLoader.loadAll(url, issues: collector, showProgress: options.showProgress, useManifestSizes: false)
        var issues = collector.issues
        // Broken images leave the dataset here, so `--fix` never writes them (nor lists them in a split).
        let broken = brokenImages(dataset, decode: options.decodeImages, showProgress: options.showProgress)
        issues += broken.map(\.issue)
        dataset = dataset.removingSamples(Set(broken.map(\.sample)))
        issues += boxIssues(dataset, sources: collector.annotationSources)
        issues += try duplicateImages(dataset, showProgress: options.showProgress)
        issues += imagesInTwoSplits(dataset)
        issues += orphanLabels(dataset)
        issues += try manifestMismatches(dataset)
        return CheckReport(dataset: dataset, issues: issues, annotationSources: collector.annotationSources)
    }

    /// Zero-area, negative and out-of-image boxes, named by label file and line (YOLO) or
    /// annotation id (COCO) when the reader recorded them, else by image and box number.
    static func boxIssues(_ dataset: Dataset, sources: [String: [AnnotationSource]]) -> [DatasetIssue] {
        var issues: [DatasetIssue] = []
        for sample in dataset.samples {
            let w = Double(sample.width), h = Double(sample.height), t = edgeTolerance
            let sampleSources = sources[sample.imagePath]
            for (number, annotation) in sample.annotations.enumerated() {
                let box = annotation.box, name = dataset.classes[annotation.classIndex]
                let source = sampleSources.flatMap { number < $0.count ? $0[number] : nil }
                let file = source?.file ?? sample.imagePath
                let place = (source?.annotationID.map { "annotation id \($0) " } ?? (source == nil ? "box \(number + 1) " : ""))
                    + "(\(name)) \(format(box))"
                if box.width < 0 || box.height < 0 {
                    let sides = [box.width < 0 ? "width" : nil, box.height < 0 ? "height" : nil].compactMap { $0 }.joined(separator: " and ")
                    issues.append(DatasetIssue(.zeroAreaBox, file: file, line: source?.line, "\(place) has a negative \(sides)"))
                } else if box.width == 0 || box.height == 0 {
                    issues.append(DatasetIssue(.zeroAreaBox, file: file, line: source?.line, "\(place) has no area"))
                } else if box.minX < -t || box.minY < -t || box.maxX > w + t || box.maxY > h + t {
                    issues.append(DatasetIssue(.boxOutsideImage, file: file, line: source?.line,
                                               "\(place) leaves the \(sample.width)x\(sample.height) image \(sample.imagePath)"))
                }
            }
        }
        return issues
    }

    /// Same bytes under two names: found by hash, confirmed byte for byte.
    static func duplicateImages(_ dataset: Dataset, showProgress: Bool) throws -> [DatasetIssue] {
        var firstByHash: [UInt64: [Int]] = [:]
        var issues: [DatasetIssue] = []
        let splitNames = splitsOfSamples(dataset)
        let progress = ProgressLine("hashing images", total: dataset.samples.count, unit: "images", enabled: showProgress)
        for (index, sample) in dataset.samples.enumerated() {
            defer { progress.advance() }
            guard let bytes = imageBytes(dataset.imageURL(of: sample)) else { continue }
            let hash = ContentHash.hash(bytes)
            let earlier = firstByHash[hash, default: []]
            if let original = earlier.first(where: { imageBytes(dataset.imageURL(of: dataset.samples[$0])) == bytes }) {
                let other = dataset.samples[original]
                issues.append(DatasetIssue(.duplicateImage, file: sample.imagePath,
                                           "same bytes as \(other.imagePath) (splits: \(splitNames[index] ?? "-") / \(splitNames[original] ?? "-"))"))
            } else {
                firstByHash[hash, default: []].append(index)
            }
        }
        if showProgress { progress.finish() }
        return issues
    }

    /// An image's bytes through the one input opener (regular files only; unreadable ones were reported already).
    static func imageBytes(_ url: URL) -> Data? {
        (try? ReadableFile.contents(of: url, maximumBytes: ImageFileLimits.maximumBytes)).map { Data($0) }
    }

    static func imagesInTwoSplits(_ dataset: Dataset) -> [DatasetIssue] {
        splitsOfSamples(dataset).keys.sorted().compactMap { index in
            let names = dataset.orderedSplitNames.filter { dataset.splits[$0]!.contains(index) }
            guard names.count > 1 else { return nil }
            return DatasetIssue(.imageInTwoSplits, file: dataset.samples[index].imagePath, "listed in \(names.joined(separator: " and "))")
        }
    }

    /// Sample index → its split names joined with "+", for messages.
    static func splitsOfSamples(_ dataset: Dataset) -> [Int: String] {
        var result: [Int: String] = [:]
        for name in dataset.orderedSplitNames {
            for index in Set(dataset.splits[name]!) { result[index] = result[index].map { "\($0)+\(name)" } ?? name }
        }
        return result
    }

    /// YOLO label files whose image does not exist: training silently never sees them.
    static func orphanLabels(_ dataset: Dataset) -> [DatasetIssue] {
        let labels = dataset.root.appendingPathComponent("labels")
        guard let walker = FileManager.default.enumerator(at: labels, includingPropertiesForKeys: nil) else { return [] }
        var issues: [DatasetIssue] = []
        var found: [URL] = []
        for case let url as URL in walker where url.pathExtension == "txt" { found.append(url.standardizedFileURL) }
        for label in found.sorted(by: { $0.path < $1.path }) {
            var components = label.deletingPathExtension().pathComponents
            guard let i = components.lastIndex(of: "labels") else { continue }
            components[i] = "images"
            let stem = components.joined(separator: "/").replacingOccurrences(of: "//", with: "/")
            let extensions = ["png", "jpg", "jpeg", "PNG", "JPG", "JPEG"]
            if !extensions.contains(where: { FileManager.default.fileExists(atPath: "\(stem).\($0)") }) {
                issues.append(DatasetIssue(.orphanLabel, file: label.path, "no image \(stem).png/.jpg/.jpeg"))
            }
        }
        return issues
    }

    /// `manifest.tsv` sizes that disagree with the image headers: loading trusts the manifest,
    /// so a stale one would silently misplace every YOLO box of that image.
    static func manifestMismatches(_ dataset: Dataset) throws -> [DatasetIssue] {
        let url = dataset.root.appendingPathComponent(ImageManifest.fileName)
        guard let manifest = try ImageManifest.read(url) else { return [] }
        return dataset.samples.compactMap { sample in
            let key = YOLOReader.manifestKey(dataset.imageURL(of: sample), root: dataset.root)
            guard let row = manifest.rows[key], row.width != sample.width || row.height != sample.height else { return nil }
            return DatasetIssue(.manifestMismatch, file: url.path,
                                "\(key) is listed as \(row.width)x\(row.height) but the image is \(sample.width)x\(sample.height); fix or delete the row")
        }
    }

    /// Images cut short (no JPEG end marker / PNG IEND, from the first and last kilobyte) and,
    /// with `decode`, images the decoder rejects; each with the index of its sample.
    static func brokenImages(_ dataset: Dataset, decode: Bool, showProgress: Bool) -> [(sample: Int, issue: DatasetIssue)] {
        let progress = ProgressLine(decode ? "decoding images" : "checking image ends", total: dataset.samples.count,
                                    unit: "images", enabled: showProgress)
        var broken: [(sample: Int, issue: DatasetIssue)] = []
        for (index, sample) in dataset.samples.enumerated() {
            defer { progress.advance() }
            let url = dataset.imageURL(of: sample)
            do {
                try ImageIO.checkComplete(url)
                if decode { _ = try ImageIO.read(url) }
            } catch let error as ImageError where error.kind == .truncated {
                broken.append((index, DatasetIssue(.truncatedImage, file: url.path, error.detail)))
            } catch {
                broken.append((index, DatasetIssue(.unreadableImage, file: url.path, "\(decode ? "decoding failed: " : "")\(error)")))
            }
        }
        if showProgress { progress.finish() }
        return broken
    }

    static func format(_ box: BoundingBox) -> String {
        String(format: "[x %.1f, y %.1f, w %.1f, h %.1f]", box.x, box.y, box.width, box.height)
    }
}
