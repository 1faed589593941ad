import Foundation
import Support

/// Writes a `Dataset` as a YOLO folder that `YOLOReader` reads back:
/// `classes.txt`, `images/` (links or copies of the source images), `labels/*.txt` (one per
/// image, empty for an image without boxes), `splits/NAME.txt` and `manifest.tsv` (sizes and
/// groups, so reading back opens no image) and, when some box has a state (`selected`,
/// `clickable`), `attributes.tsv` (see `YOLOAttributes`): label lines stay standard YOLO.
public enum YOLOWriter {
    public enum ImageMode {
        /// Symbolic links to the source images: a new label set costs no image bytes.
        case symlink
        case copy
    }

    /// One atomic (fsynced) write per label file: about 100 files/s on a busy disk, so large sets show progress.
    public static func write(_ dataset: Dataset, to folder: URL, images: ImageMode = .symlink, showProgress: Bool = false) throws {
        let fm = FileManager.default
        let progress = ProgressLine("writing \(folder.lastPathComponent)", total: dataset.samples.count, unit: "images", enabled: showProgress)
        try AtomicFile.write(dataset.classes.joined(separator: "\n") + "\n", to: folder.appendingPathComponent("classes.txt"))
        let keys = try imageKeys(dataset)
        var manifest = ImageManifest()
        var attributes = YOLOAttributes()
        for (sample, key) in zip(dataset.samples, keys) {
            let target = folder.appendingPathComponent("images").appendingPathComponent(key)
            let source = dataset.imageURL(of: sample).standardizedFileURL
            if target.standardizedFileURL.path != source.path {
                try placeImage(source, at: target, mode: images, fileManager: fm)
            }
            var text = ""
            for (line, annotation) in zip(1..., sample.annotations) {
                guard dataset.classes.indices.contains(annotation.classIndex) else {
                    throw DatasetError.unreadable(file: sample.imagePath, line: nil,
                                                  reason: "class index \(annotation.classIndex) but the dataset has \(dataset.classes.count) classes")
                }
                text += YOLOLabelLine.format(classIndex: annotation.classIndex, box: annotation.box,
                                             imageWidth: sample.width, imageHeight: sample.height) + "\n"
                if annotation.selected != nil || annotation.clickable != nil {
                    attributes.rows[key, default: [:]][line] = YOLOAttributes.Row(classIndex: annotation.classIndex, selected: annotation.selected,
                                                                                 clickable: annotation.clickable, fileLine: 0)
                }
            }
            let label = YOLOLayout.labelURL(forImage: target)
            try AtomicFile.write(text, to: label)
            manifest.rows[key] = ImageManifest.Row(width: sample.width, height: sample.height, group: sample.group)
            progress.advance()
        }
        if showProgress { progress.finish() }
        try AtomicFile.write(manifest.tsv(), to: folder.appendingPathComponent(ImageManifest.fileName))
        let attributesURL = folder.appendingPathComponent(YOLOAttributes.fileName)
        if !attributes.rows.isEmpty {
            try AtomicFile.write(attributes.tsv(), to: attributesURL)
        } else if fm.fileExists(atPath: attributesURL.path) {
            try fm.removeItem(at: attributesURL)  // an earlier write's states would attach to these new label lines
        }
        for (name, indices) in dataset.splits {
            let lines = indices.map { "images/\(keys[$0])\n" }.joined()
            try AtomicFile.write(lines, to: folder.appendingPathComponent("splits").appendingPathComponent("\(name).txt"))
        }
    }

    /// Each sample's path under `images/`: its path relative to the source's `images/` folder,
    /// else its relative path, else its file name; two samples landing on one path is an error.
    static func imageKeys(_ dataset: Dataset) throws -> [String] {
        var seen: [String: String] = [:]
        return try dataset.samples.map { sample in
            var key = sample.imagePath
            if key.hasPrefix("/") { key = (key as NSString).lastPathComponent }
            if key.hasPrefix("images/") { key = String(key.dropFirst("images/".count)) }
            if let other = seen[key] {
                throw DatasetError.unreadable(file: sample.imagePath, line: nil,
                                              reason: "would be written to images/\(key), which \(other) already uses; rename one of the images")
            }
            seen[key] = sample.imagePath
            return key
        }
    }

    static func placeImage(_ source: URL, at target: URL, mode: ImageMode, fileManager fm: FileManager) throws {
        // The same file under another spelling (a symlinked folder): nothing to place, and
        // replacing the "target" would delete the source.
        if source.resolvingSymlinksInPath().path == target.resolvingSymlinksInPath().path { return }
        let existingLink = try? fm.destinationOfSymbolicLink(atPath: target.path)
        if existingLink == nil && fm.fileExists(atPath: target.path) {
            throw DatasetError.unreadable(file: target.path, line: nil,
                                          reason: "already exists and is not a link; write the dataset to a new folder")
        }
        switch mode {
        case .copy:
            let bytes: Data
            do { bytes = try Data(contentsOf: source) } catch {
                throw DatasetError.unreadable(file: source.path, line: nil, reason: "cannot read image to copy: \(error.localizedDescription)")
            }
            try AtomicFile.write(bytes, to: target)
        case .symlink:
            do {
                try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if existingLink != nil { try fm.removeItem(at: target) }
                try fm.createSymbolicLink(at: target, withDestinationURL: source)
            } catch {
                throw DatasetError.unreadable(file: target.path, line: nil, reason: "cannot link to \(source.path): \(error.localizedDescription)")
            }
        }
    }
}
