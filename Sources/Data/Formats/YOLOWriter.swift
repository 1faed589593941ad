import Foundation
import Support

/// Writes a `Dataset` as a YOLO folder that `YOLOReader` reads back:
/// `classes.txt`, `images/` (links or copies of the source images), `labels/*.txt` (one per
/// image, empty for an image without boxes), `splits/NAME.txt` and `manifest.tsv` (sizes and
/// groups, so reading back opens no image) and, when some box has a state (`selected`,
/// `clickable`), `attributes.tsv` (see `YOLOAttributes`), and when samples carry their true
/// screen-reader elements, `accessibility.tsv` (`AccessibilityElementsFile`): label lines stay standard YOLO.
public enum YOLOWriter {
    public enum ImageMode {
        /// Symbolic links to the source images: a new label set costs no image bytes.
        case symlink
        case copy
    }

    /// Writes into `folder`, merging with what is there (the synthetic generator renders its
    /// images into the folder first). Everything is staged and moved into place at the end, so a
    /// failure leaves the folder as it was.
    public static func write(_ dataset: Dataset, to folder: URL, images: ImageMode = .symlink, showProgress: Bool = false) throws {
        let output = try OutputFolder(folder, existing: .merge)
        try write(dataset, into: output, images: images, showProgress: showProgress)
        try output.commit()
    }

    /// Writes into an output folder the caller commits. Every path is checked to stay inside it
    /// (a COCO `file_name` or split name with `..` is refused, naming it), class names must be
    /// single lines, and every box must give finite, sane YOLO numbers.
    public static func write(_ dataset: Dataset, into folder: OutputFolder, images: ImageMode = .symlink, showProgress: Bool = false) throws {
        let progress = ProgressLine("writing \(folder.destination.lastPathComponent)", total: dataset.samples.count, unit: "images", enabled: showProgress)
        try checkClassNames(dataset.classes)
        try folder.write(dataset.classes.joined(separator: "\n") + "\n", to: "classes.txt")
        let keys = try imageKeys(dataset)
        var manifest = ImageManifest()
        var attributes = YOLOAttributes()
        var accessibility = AccessibilityElementsFile()
        for (sample, key) in zip(dataset.samples, keys) {
            let source = dataset.imageURL(of: sample).standardizedFileURL
            let relative = "images/\(key)"
            let staged = try folder.url(for: relative)
            if staged.standardizedFileURL.path != source.path {
                try placeImage(source, at: relative, in: folder, mode: images)
            }
            var text = ""
            for (line, annotation) in zip(1..., sample.annotations) {
                guard dataset.classes.indices.contains(annotation.classIndex) else {
                    throw DatasetError.unreadable(file: sample.imagePath, line: nil,
                                                  reason: "class index \(annotation.classIndex) but the dataset has \(dataset.classes.count) classes")
                }
                text += try YOLOLabelLine.checkedFormat(classIndex: annotation.classIndex, box: annotation.box,
                                                        imageWidth: sample.width, imageHeight: sample.height, place: "\(sample.imagePath) box \(line)") + "\n"
                if annotation.selected != nil || annotation.clickable != nil {
                    attributes.rows[key, default: [:]][line] = YOLOAttributes.Row(classIndex: annotation.classIndex, selected: annotation.selected,
                                                                                 clickable: annotation.clickable, fileLine: 0)
                }
            }
            if let elements = sample.accessibilityElements {
                guard elements.allSatisfy({ $0.allSatisfy { sample.annotations.indices.contains($0) } }) else {
                    throw DatasetError.unreadable(file: sample.imagePath, line: nil, reason: "an accessibility element refers to a box the image does not have; fix the sample's accessibilityElements or set them to nil")
                }
                accessibility.rows[key] = elements.map { $0.map { $0 + 1 } }
            }
            let label = YOLOLayout.labelURL(forImage: URL(fileURLWithPath: "/" + relative)).path.dropFirst()
            try folder.write(text, to: String(label))
            manifest.rows[key] = ImageManifest.Row(width: sample.width, height: sample.height, group: sample.group)
            progress.advance()
        }
        if showProgress { progress.finish() }
        try folder.write(manifest.tsv(), to: ImageManifest.fileName)
        if !attributes.rows.isEmpty {
            try folder.write(attributes.tsv(), to: YOLOAttributes.fileName)
        } else {
            try folder.removeOnCommit(YOLOAttributes.fileName)  // an earlier write's states would attach to these new label lines
        }
        if !accessibility.rows.isEmpty {
            try folder.write(accessibility.tsv(), to: AccessibilityElementsFile.fileName)
        } else {
            try folder.removeOnCommit(AccessibilityElementsFile.fileName)  // likewise an earlier write's elements
        }
        for (name, indices) in dataset.splits.sorted(by: { $0.key < $1.key }) {
            guard !name.contains("/"), name != ".", name != "..", !name.isEmpty else {
                throw DatasetError.unreadable(file: folder.destination.path, line: nil,
                                              reason: "split name '\(name)' cannot be a file name under splits/; rename the split (no '/', '.' or '..')")
            }
            let lines = indices.map { "images/\(keys[$0])\n" }.joined()
            try folder.write(lines, to: "splits/\(name).txt")
        }
        try writeUltralyticsFiles(dataset, keys: keys, into: folder)
    }

    /// `data.yaml` for Ultralytics (`yolo detect train data=FOLDER/data.yaml`), which ignores
    /// classes.txt and splits/: its split lists sit beside data.yaml with `./`-relative lines,
    /// the only relative form Ultralytics resolves against the list's own folder (it turns
    /// `./` into that folder; any other relative line is taken from the working directory).
    /// Without splits, every image is both train and val. ScreenLab's reader ignores all of this.
    static func writeUltralyticsFiles(_ dataset: Dataset, keys: [String], into folder: OutputFolder) throws {
        var yaml = "# Written by ScreenLab for Ultralytics: yolo detect train data=<this folder>/data.yaml\n"
            + "# (ScreenLab itself reads classes.txt and splits/; the names below are the same.)\n"
        let splits = ["train", "val", "test"].filter { dataset.splits[$0] != nil }
        if splits.isEmpty {
            yaml += "train: images\nval: images\n"
        } else {
            for name in splits {
                let lines = dataset.splits[name]!.map { "./images/\(keys[$0])\n" }.joined()
                try folder.write(lines, to: "\(name).txt")
                yaml += "\(name): \(name).txt\n"
            }
            if dataset.splits["val"] == nil { yaml += "val: train.txt\n" }
        }
        yaml += "names:\n"
        for (index, name) in dataset.classes.enumerated() {
            yaml += "  \(index): \(doubleQuoted(name))\n"
        }
        try folder.write(yaml, to: "data.yaml")
    }

    /// A YAML double-quoted scalar (JSON's string syntax is valid YAML): class names may hold
    /// `:`, `#`, quotes or brackets.
    static func doubleQuoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// classes.txt holds one name per line: a name with a line break would shift every class
    /// id after it.
    static func checkClassNames(_ classes: [String]) throws {
        if let bad = classes.firstIndex(where: { name in name.unicodeScalars.contains { $0 == "\n" || $0 == "\r" } || name.isEmpty || name != name.trimmingCharacters(in: .whitespaces) }) {
            throw DatasetError.unreadable(file: "classes.txt", line: nil,
                                          reason: "class \(bad) name \(String(reflecting: classes[bad])) is empty, has a line break or surrounding spaces; classes.txt holds one name per line, so rename the class")
        }
    }

    /// Each sample's path under `images/`: its path relative to the source's `images/` folder,
    /// else its relative path, else its file name; two samples landing on one path is an error,
    /// and so is a path that would leave the output folder.
    static func imageKeys(_ dataset: Dataset) throws -> [String] {
        var seen: [String: String] = [:]
        return try dataset.samples.map { sample in
            var key = sample.imagePath
            if key.hasPrefix("/") { key = (key as NSString).lastPathComponent }
            // A path that climbs out of the dataset's folder (a COCO file in annotations/ naming
            // ../images/a.png, or a hostile ../../../x.png) keeps only its part below the climb,
            // so the image is placed inside the output folder, never beside or above it.
            var kept: [Substring] = []
            for part in key.split(separator: "/") where part != "." {
                if part == ".." { if !kept.isEmpty { kept.removeLast() } } else { kept.append(part) }
            }
            key = kept.joined(separator: "/")
            if key.hasPrefix("images/") { key = String(key.dropFirst("images/".count)) }
            do { _ = try OutputFolder.components(of: "images/" + key) } catch {
                throw DatasetError.unreadable(file: sample.imagePath, line: nil,
                                              reason: "image path '\(sample.imagePath)' would be written outside the output folder (images/\(key)); fix the file_name or path")
            }
            if let other = seen[key] {
                throw DatasetError.unreadable(file: sample.imagePath, line: nil,
                                              reason: "would be written to images/\(key), which \(other) already uses; rename one of the images")
            }
            seen[key] = sample.imagePath
            return key
        }
    }

    static func placeImage(_ source: URL, at relative: String, in folder: OutputFolder, mode: ImageMode) throws {
        // The same file under another spelling (a symlinked folder): nothing to place, and
        // replacing the "target" would delete the source.
        let target = try folder.destinationURL(for: relative)
        if source.resolvingSymlinksInPath().path == target.resolvingSymlinksInPath().path { return }
        let existing = FileKind.of(target.path)
        if existing != .missing && existing != .symbolicLink {
            throw DatasetError.unreadable(file: target.path, line: nil,
                                          reason: "already exists and is not a link; write the dataset to a new folder")
        }
        switch mode {
        case .copy:
            let bytes: [UInt8]
            do { bytes = try ReadableFile.contents(of: source, maximumBytes: ImageFileLimits.maximumBytes) } catch {
                throw DatasetError.unreadable(file: source.path, line: nil, reason: "cannot read image to copy: \((error as? FileReadError)?.reason ?? "\(error)")")
            }
            try folder.write(Data(bytes), to: relative)
        case .symlink:
            try folder.link(relative, to: source)
        }
    }
}

/// Size bound for an image file read whole (copying, hashing): far above any screenshot.
public enum ImageFileLimits {
    public static let maximumBytes = 512 << 20
}
