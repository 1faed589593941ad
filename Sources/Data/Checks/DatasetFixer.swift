import Foundation
import Support

/// `data check --fix --out DIR`: a new, clean label set beside the original, never an edit of it.
///
/// What changes: boxes are clipped to their image; boxes with no area (before or after
/// clipping) are dropped; malformed and unknown-class lines, missing, unreadable and truncated
/// images and second listings of an image in one split were already left out by the check and
/// are listed here; sizes come from the image headers (a stale manifest.tsv row or COCO
/// width/height is corrected). Duplicates and images in two splits are left as they are: which
/// copy or split is right is a decision for a person.
public struct FixSummary {
    public var clippedBoxes: [String] = []
    public var droppedBoxes: [String] = []
    /// Lines and images the lenient load left out (the check's reading problems).
    public var droppedAtLoad: [String] = []
    /// Image sizes taken from the header instead of a disagreeing manifest.tsv or COCO JSON.
    public var correctedSizes: [String] = []
    public var leftAsIs: [String] = []

    public var lines: [String] {
        var text = ["clipped \(clippedBoxes.count) boxes to their image, dropped \(droppedBoxes.count) boxes with no area, "
                        + "left out \(droppedAtLoad.count) unreadable lines/images, corrected \(correctedSizes.count) image sizes"]
        text += clippedBoxes.map { "  clipped: \($0)" } + droppedBoxes.map { "  dropped: \($0)" } + droppedAtLoad.map { "  left out: \($0)" }
        text += correctedSizes.map { "  size from the image header: \($0)" } + leftAsIs.map { "  not changed: \($0)" }
        return text
    }
}

public enum DatasetFixer {
    /// Problems `fix` repairs (or leaves out), and those it leaves for a person to decide.
    static let repairedKinds: Set<DatasetIssue.Kind> = Set(DatasetIssue.Kind.allCases).subtracting(leftForAPerson)
    static let leftForAPerson: Set<DatasetIssue.Kind> = [.duplicateImage, .imageInTwoSplits]

    /// The fixed dataset (images still point at the originals) and what changed.
    public static func fix(_ report: CheckReport) -> (dataset: Dataset, summary: FixSummary) {
        var dataset = report.dataset
        var summary = FixSummary()
        for issue in report.issues {
            switch issue.kind {
            case .missingImage, .unreadableImage, .truncatedImage, .malformedLine, .unknownClass, .invalidAnnotation, .orphanLabel,
                 .duplicateListEntry:
                summary.droppedAtLoad.append(issue.description)
            case .imageSizeMismatch, .manifestMismatch:
                summary.correctedSizes.append(issue.description)
            case .duplicateImage, .imageInTwoSplits:
                summary.leftAsIs.append(issue.description)
            case .boxOutsideImage, .zeroAreaBox:
                break
            }
        }
        for s in dataset.samples.indices {
            let sample = dataset.samples[s]
            let sources = report.annotationSources[sample.imagePath]
            var kept: [Annotation] = []
            for (number, annotation) in sample.annotations.enumerated() {
                let place = sources.flatMap { number < $0.count ? $0[number] : nil }.map(describe)
                    ?? "\(sample.imagePath) box \(number + 1)"
                let clipped = annotation.box.clipped(toWidth: Double(sample.width), height: Double(sample.height))
                if clipped.width <= 0 || clipped.height <= 0 {
                    summary.droppedBoxes.append("\(place) \(DatasetChecker.format(annotation.box))")
                    continue
                }
                var fixed = annotation
                if clipped != annotation.box {
                    let t = DatasetChecker.edgeTolerance
                    let clear = abs(clipped.minX - annotation.box.minX) > t || abs(clipped.minY - annotation.box.minY) > t
                        || abs(clipped.maxX - annotation.box.maxX) > t || abs(clipped.maxY - annotation.box.maxY) > t
                    if clear { summary.clippedBoxes.append("\(place) \(DatasetChecker.format(annotation.box)) → \(DatasetChecker.format(clipped))") }
                    fixed.box = clipped
                }
                kept.append(fixed)
            }
            dataset.samples[s].annotations = kept
        }
        return (dataset, summary)
    }

    /// Writes the fixed set to `folder` in the source's format (YOLO folder, or `annotations.json`
    /// for COCO input). `folder` must not be the source and must be empty or new.
    public static func write(_ dataset: Dataset, sourceFormat: DatasetLoader.Format, to folder: URL, showProgress: Bool = false) throws {
        let target = folder.standardizedFileURL
        guard target.path != dataset.root.standardizedFileURL.path else {
            throw DatasetError.unreadable(file: target.path, line: nil, reason: "is the dataset itself; --out must be a new folder (the original is never edited)")
        }
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: target.path), !contents.isEmpty {
            throw DatasetError.unreadable(file: target.path, line: nil, reason: "is not empty; give a new folder for the fixed label set")
        }
        try writeNew(dataset, format: sourceFormat, to: target, showProgress: showProgress)
    }

    /// Writes a dataset to a new or empty folder, all or nothing (`data split`, `data convert`,
    /// `check --fix`): a failure leaves no half-written folder behind.
    public static func writeNew(_ dataset: Dataset, format: DatasetLoader.Format, to folder: URL, images: YOLOWriter.ImageMode = .symlink,
                                showProgress: Bool = false) throws {
        let output = try OutputFolder(folder, existing: .mustBeEmpty)
        if format == .coco {
            try COCOWriter.write(dataset, into: output)
        } else {
            try YOLOWriter.write(dataset, into: output, images: images, showProgress: showProgress)
        }
        try output.commit()
    }

    static func describe(_ source: AnnotationSource) -> String {
        source.file + (source.line.map { ":\($0)" } ?? "") + (source.annotationID.map { " annotation id \($0)" } ?? "")
    }
}
