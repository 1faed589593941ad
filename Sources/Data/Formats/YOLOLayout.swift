import Foundation
import Support

/// Where a YOLO dataset keeps its class names, images, labels and splits.
///
/// Accepted layouts (first match wins for each part):
/// - class names: `classes.txt` (line N is class N-1), else `data.yaml`/`dataset.yaml` `names:`
///   as a list or as a `{0: name}` dict; both present and different is an error.
/// - splits: `splits/NAME.txt` lists, else the yaml's `train:`/`val:`/`test:` entries, each a
///   `.txt` list of image paths or an image folder (or a list of those); else one unnamed set of
///   every image under `images/`.
/// - list entries are relative to the dataset root (`./x` relative to the list's folder, as
///   ultralytics does); a label file is the image path with the last `/images/` replaced by
///   `/labels/` and the extension by `.txt` (beside the image when there is no `images` folder).
///   A missing label file means an image without boxes.
/// Unknown keys in a third-party `data.yaml` are ignored (Roboflow adds its own); ScreenLab's
/// own dataset configs are strict.
public struct YOLOLayout {
    /// An image named by a split list (file and line kept for error messages) or found in a folder.
    public struct ImageEntry {
        public var url: URL
        public var listedIn: String
        public var line: Int?
    }

    public var root: URL
    public var classes: [String]
    /// Split name → its images in list order; empty when the dataset declares no splits.
    public var splits: [(name: String, images: [ImageEntry])]
    /// Every image when there are no splits.
    public var unsplitImages: [ImageEntry]

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png"]
    static let yamlNames = ["data.yaml", "dataset.yaml"]

    public static func discover(_ folder: URL) throws -> YOLOLayout {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DatasetError.unreadable(file: folder.path, line: nil, reason: "not a folder (a YOLO dataset is a folder with images/ and labels/)")
        }
        let yamlURL = yamlNames.map { folder.appendingPathComponent($0) }.first { FileKind.of($0.path) != .missing }
        let yaml = try yamlURL.flatMap(readYAML)
        var root = folder
        if let path = try yamlValue({ try yaml?.optional("path")?.string() }) { root = resolve(path, against: folder) }

        let classes = try readClasses(folder: folder, yaml: yaml, yamlURL: yamlURL)
        var layout = YOLOLayout(root: root, classes: classes, splits: [], unsplitImages: [])
        let splitsFolder = root.appendingPathComponent("splits")
        if let lists = try? fm.contentsOfDirectory(atPath: splitsFolder.path).filter({ $0.hasSuffix(".txt") }).sorted(), !lists.isEmpty {
            for list in lists {
                let name = String(list.dropLast(4))
                layout.splits.append((name, try readList(splitsFolder.appendingPathComponent(list), root: root)))
            }
        } else if let yamlURL, let yaml {
            for name in ["train", "val", "test"] {
                guard let entry = yaml.optional(name) else { continue }
                let paths = try yamlValue { try entry.node.sequence != nil ? entry.list().map { try $0.string() } : [entry.string()] }
                guard !paths.isEmpty else {
                    throw DatasetError.unreadable(file: yamlURL.path, line: entry.line, reason: "'\(name):' must be a path or a list of paths")
                }
                var images: [ImageEntry] = []
                for path in paths { images += try entries(path, root: root, yamlFolder: folder, yamlURL: yamlURL) }
                layout.splits.append((name, images))
            }
        }
        if layout.splits.isEmpty {
            let imagesFolder = root.appendingPathComponent("images")
            guard fm.fileExists(atPath: imagesFolder.path) else {
                throw DatasetError.unreadable(file: root.path, line: nil, reason: "no images/ folder, no splits/*.txt and no data.yaml train:/val:/test:")
            }
            layout.unsplitImages = listImages(in: imagesFolder).map { ImageEntry(url: $0, listedIn: imagesFolder.path, line: nil) }
        }
        return layout
    }

    /// The label file of an image (ultralytics rule).
    public static func labelURL(forImage image: URL) -> URL {
        var components = image.deletingPathExtension().pathComponents
        if let i = components.lastIndex(of: "images") { components[i] = "labels" }
        let path = components.joined(separator: "/").replacingOccurrences(of: "//", with: "/")
        return URL(fileURLWithPath: path + ".txt")
    }

    /// Every image file under a folder, recursively, sorted by path (deterministic order).
    static func listImages(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var urls: [URL] = []
        for case let url as URL in walker where imageExtensions.contains(url.pathExtension.lowercased()) {
            urls.append(url.standardizedFileURL)
        }
        return urls.sorted { $0.path < $1.path }
    }

    static func resolve(_ path: String, against folder: URL) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)).standardizedFileURL
    }

    /// data.yaml through Support's YAML entry point; unknown keys are allowed (Roboflow adds its own).
    static func readYAML(_ url: URL) throws -> YAMLMapping? {
        try yamlValue {
            guard let document = try YAMLDocument.load(url) else { return nil }
            guard document.node.mapping != nil else { throw document.error("expected a mapping of keys (names:, train:, val:, ...)") }
            return try document.mapping()
        }
    }

    /// Runs YAML access, reporting a `YAMLError` as the dataset error with its line and key.
    static func yamlValue<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as YAMLError {
            throw DatasetError.unreadable(file: error.file, line: error.line, reason: (error.key.map { "'\($0)': " } ?? "") + error.message)
        }
    }

    static func readClasses(folder: URL, yaml: YAMLMapping?, yamlURL: URL?) throws -> [String] {
        let classesURL = folder.appendingPathComponent("classes.txt")
        var fromText: [String]?
        if FileKind.of(classesURL.path) != .missing {
            let text = try readText(classesURL)
            fromText = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var fromYAML: [String]?
        if let yamlURL, let names = yaml?.optional("names") {
            fromYAML = try yamlValue { () -> [String] in
                if names.node.sequence != nil { return try names.list().map { try $0.string() } }
                guard names.node.mapping != nil else { throw names.error("must be a list or a {index: name} mapping") }
                var byIndex: [Int: String] = [:]
                for (key, value) in try names.mapping().entries {
                    guard let index = Int(key), index >= 0 else { throw value.error("'\(key)' is not a class index") }
                    byIndex[index] = try value.string()
                }
                guard byIndex.keys.sorted() == Array(0..<byIndex.count) else {
                    throw names.error("indices must be 0..<\(byIndex.count) without gaps")
                }
                return (0..<byIndex.count).map { byIndex[$0]! }
            }
            _ = yamlURL
        }
        if let fromText, let fromYAML, fromText != fromYAML {
            throw DatasetError.unreadable(file: classesURL.path, line: nil,
                                          reason: "class names differ from \(yamlURL?.lastPathComponent ?? "data.yaml") names:; make them agree")
        }
        guard let classes = fromText ?? fromYAML, !classes.isEmpty else {
            throw DatasetError.unreadable(file: folder.path, line: nil, reason: "no class names: add classes.txt (one name per line) or data.yaml names:")
        }
        guard Set(classes).count == classes.count else {
            throw DatasetError.unreadable(file: fromText != nil ? classesURL.path : yamlURL?.path ?? folder.path, line: nil,
                                          reason: "class names repeat; each class needs a unique name")
        }
        return classes
    }

    static func entries(_ path: String, root: URL, yamlFolder: URL, yamlURL: URL) throws -> [ImageEntry] {
        let fm = FileManager.default
        let candidates = [resolve(path, against: root), resolve(path, against: yamlFolder)]
        guard let url = candidates.first(where: { fm.fileExists(atPath: $0.path) }) else {
            throw DatasetError.unreadable(file: yamlURL.path, line: nil, reason: "'\(path)' does not exist (looked in \(root.path))")
        }
        if url.pathExtension == "txt" { return try readList(url, root: root) }
        return listImages(in: url).map { ImageEntry(url: $0, listedIn: url.path, line: nil) }
    }

    static func readList(_ url: URL, root: URL) throws -> [ImageEntry] {
        let text = try readText(url)
        var result: [ImageEntry] = []
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let path = line.trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty, !path.hasPrefix("#") else { continue }
            let image = path.hasPrefix("./") ? resolve(String(path.dropFirst(2)), against: url.deletingLastPathComponent())
                : resolve(path, against: root)
            result.append(ImageEntry(url: image, listedIn: url.path, line: offset + 1))
        }
        return result
    }

    static func readText(_ url: URL) throws -> String {
        try FileText.read(url)
    }
}
