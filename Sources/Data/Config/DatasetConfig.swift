import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Support

/// A dataset config (`Configs/datasets/NAME.yaml`): where the data is, which taxonomy it is
/// trained and evaluated in, and how each source class maps into it.
///
/// ```yaml
/// path: ../shared/datasets/vins-ui   # relative to the repo root holding this config
/// format: yolo                       # yolo | coco; optional (a folder is YOLO, a .json COCO)
/// source_classes: [Text, Icon, ...]  # optional; when given the data's classes must equal it
/// taxonomy: screen-recognition       # or {name: N, classes: [...]} or {name: N, extends: screen-recognition, add: [...]}
/// mapping:                           # every source class exactly once
///   Text: Text
///   TextButton: {class: Container, clickable: true}
///   UpperTaskBar: ignore
/// description: free text
/// ```
/// Without `taxonomy` the data's own classes are used; without `mapping` each source class
/// maps to the target class of the same name. Unknown keys, unknown source classes, unknown
/// target classes and unmapped source classes are errors naming the file, line and key.
public struct DatasetConfig {
    /// What becomes of one source class.
    public enum Target: Equatable {
        case ignore
        /// Target class index; `clickable` is set on every box of the class when given.
        case target(classIndex: Int, clickable: Bool?)
    }

    public struct MappingEntry: Equatable {
        public var sourceClass: String
        public var target: Target
        public var line: Int?
    }

    public var file: URL
    public var dataURL: URL
    /// `path:` as written and its line, for the error when it resolves to nothing.
    public var pathText: String = ""
    public var pathLine: Int?
    public var format: DatasetLoader.Format?
    public var sourceClasses: [String]?
    /// Nil: keep the data's own classes.
    public var taxonomy: Taxonomy?
    /// Nil: map by identical name.
    public var mapping: [MappingEntry]?
    public var description: String?

    public static func read(_ url: URL) throws -> DatasetConfig {
        let text: String
        do { text = try FileText.read(url) } catch let DatasetError.unreadable(_, _, reason) {
            throw DatasetConfigError(file: url.path, line: nil, key: nil, reason)
        }
        return try parse(yaml: text, file: url.standardizedFileURL)
    }

    /// Applies the taxonomy and mapping to a dataset read from `dataURL`.
    public func load(options: YOLOReader.Options = YOLOReader.Options(),
                     issues: IssueCollector = IssueCollector(strict: true)) throws -> Dataset {
        let source: Dataset
        guard FileManager.default.fileExists(atPath: dataURL.path) else {
            let how = pathText.hasPrefix("/") ? "" : pathText.hasPrefix("../shared/") && ProcessInfo.processInfo.environment["SCREENLAB_SHARED"] != nil
                ? " (via SCREENLAB_SHARED)" : " (relative to \(DatasetConfig.repoRoot(containing: file).path), the folder with Package.swift)"
            // A fresh clone has no ../shared beside it: say how to point the config elsewhere.
            let remedy = pathText.hasPrefix("../shared/")
                ? "which does not exist; set SCREENLAB_SHARED to the folder that holds \(pathText.dropFirst("../shared/".count)) (e.g. SCREENLAB_SHARED=/data/shared), fix path:, or put the data there"
                : "which does not exist; fix path: or put the data there"
            throw DatasetConfigError(file: file.path, line: pathLine, key: "path",
                                     "'\(pathText)' resolves to \(dataURL.path)\(how), \(DatasetConfig.brokenLink(dataURL.path).map { "which \($0)" } ?? remedy)")
        }
        let dataFormat = try format ?? DatasetLoader.format(of: dataURL)
        switch dataFormat {
        case .yolo: source = try YOLOReader.read(dataURL, options: options, issues: issues)
        case .coco: source = try COCOReader.read(dataURL, issues: issues, checkImages: !options.useManifestSizes)
        case .config:
            throw DatasetConfigError(file: file.path, line: nil, key: "path", "points to another config; point it at the data")
        }
        return try apply(to: source, issues: issues)
    }

    /// What a path that leads nowhere is when it is a broken link, for the error: a link loop
    /// (the path or a folder on it) and a dangling link look like "does not exist" to `fileExists`.
    static func brokenLink(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) != 0, errno == ELOOP {
            return "is a symlink loop (a symbolic link that leads back to itself); fix or remove the link"
        }
        if FileKind.of(path) == .symbolicLink, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            return "is a symbolic link to \(target), where nothing exists; fix the link or put the data there"
        }
        return nil
    }

    /// Maps classes; `issues`' annotation sources (lenient loads) are filtered alongside.
    public func apply(to source: Dataset, issues: IssueCollector? = nil) throws -> Dataset {
        if let sourceClasses, sourceClasses != source.classes {
            throw DatasetConfigError(file: file.path, line: nil, key: "source_classes",
                                     "the data at \(dataURL.path) has classes [\(source.classes.joined(separator: ", "))], not these")
        }
        let table = try targetTable(sourceClasses: source.classes)
        var result = source
        result.classes = taxonomy?.classes ?? source.classes
        result.cocoCategoryIDs = table.isIdentity ? source.cocoCategoryIDs : nil
        var ignored = [Int](repeating: 0, count: source.classes.count)
        for s in result.samples.indices {
            if let issues, let sources = issues.annotationSources[result.samples[s].imagePath] {
                let kept = zip(result.samples[s].annotations, sources).filter { annotation, _ in
                    if case .ignore = table.targets[annotation.classIndex] { return false }
                    return true
                }
                issues.annotationSources[result.samples[s].imagePath] = kept.map(\.1)
            }
            result.samples[s].annotations = result.samples[s].annotations.compactMap { annotation in
                guard case let .target(classIndex, clickable) = table.targets[annotation.classIndex] else {
                    ignored[annotation.classIndex] += 1
                    return nil
                }
                var mapped = annotation
                mapped.classIndex = classIndex
                if let clickable { mapped.clickable = clickable }
                return mapped
            }
        }
        let dropped = zip(source.classes, ignored).filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
        if !dropped.isEmpty {
            result.notes.append("\(file.lastPathComponent): ignored boxes of " + dropped.joined(separator: ", "))
        }
        return result
    }

    /// Source class index → target, checking every mapping key against the source classes.
    func targetTable(sourceClasses: [String]) throws -> (targets: [Target], isIdentity: Bool) {
        let targetClasses = taxonomy?.classes ?? sourceClasses
        guard let mapping else {
            let targets = try sourceClasses.map { name -> Target in
                guard let index = targetClasses.firstIndex(of: name) else {
                    throw DatasetConfigError(file: file.path, line: nil, key: "mapping",
                                             "source class '\(name)' is not in taxonomy \(taxonomy?.name ?? ""); add a mapping: entry for it")
                }
                return .target(classIndex: index, clickable: nil)
            }
            return (targets, targetClasses == sourceClasses)
        }
        var targets = [Target?](repeating: nil, count: sourceClasses.count)
        for entry in mapping {
            guard let index = sourceClasses.firstIndex(of: entry.sourceClass) else {
                throw DatasetConfigError(file: file.path, line: entry.line, key: "mapping.\(entry.sourceClass)",
                                         "not a source class; the data has: \(sourceClasses.joined(separator: ", "))"
                                            + KeySuggestion.hint(for: entry.sourceClass, among: sourceClasses))
            }
            targets[index] = entry.target
        }
        let unmapped = zip(sourceClasses, targets).filter { $0.1 == nil }.map(\.0)
        guard unmapped.isEmpty else {
            throw DatasetConfigError(file: file.path, line: nil, key: "mapping",
                                     "no entry for source classes \(unmapped.joined(separator: ", ")); map each to a target class or to ignore")
        }
        return (targets.map { $0! }, false)
    }
}
