import Foundation
import Support

extension DatasetConfig {
    static let topLevelKeys = ["path", "format", "source_classes", "taxonomy", "mapping", "description"]

    /// Through Support's strict reader. Every mapping's keys are checked before its values, so a
    /// typo (`taxonmy:`) is reported as such rather than as the key it hides going missing; a
    /// null is refused, not taken as absent.
    public static func parse(yaml: String, file: URL) throws -> DatasetConfig {
        guard let document = try YAMLDocument.parse(yaml, file: file.path, options: .nullsRefused) else {
            throw DatasetConfigError(file: file.path, line: nil, key: nil, "empty config; it needs at least path:")
        }
        let top = try document.mapping(allowed: topLevelKeys)
        guard let pathValue = top.value("path") else { throw top.error("path", "missing; give the dataset folder or COCO json") }
        let path = try pathValue.string()
        var config = DatasetConfig(file: file, dataURL: resolveDataPath(path, configFile: file), format: nil, sourceClasses: nil,
                                   taxonomy: nil, mapping: nil, description: try top.value("description")?.string())
        config.pathText = path
        config.pathLine = pathValue.line
        config.format = try top.optionalChoice("format", ["yolo", "coco"]).flatMap(DatasetLoader.Format.init(rawValue:))
        config.sourceClasses = try top.names("source_classes", unique: true)
        if let taxonomy = top.value("taxonomy") { config.taxonomy = try parseTaxonomy(taxonomy) }
        if let mapping = top.value("mapping") {
            config.mapping = try parseMapping(mapping, targetClasses: config.taxonomy?.classes)
        }
        return config
    }

    /// Taxonomies known by name; a config can extend one with extra classes.
    static let namedTaxonomies = [Taxonomy.screenRecognition]

    static func parseTaxonomy(_ value: YAMLValue) throws -> Taxonomy {
        if value.scalar != nil {
            let name = try value.string(), known = namedTaxonomies.map(\.name)
            guard let taxonomy = namedTaxonomies.first(where: { $0.name == name }) else {
                throw value.error("unknown taxonomy '\(name)'\(KeySuggestion.hint(for: name, among: known)) (known: \(known.joined(separator: ", ")), or give {name:, classes:})")
            }
            return taxonomy
        }
        let t = try value.mapping(allowed: ["name", "classes", "extends", "add"])
        let name = try t.required("name").string()
        var classes: [String] = []
        if let extends = t.value("extends") {
            classes = try parseTaxonomy(extends).classes
            if t.has("classes") { throw t.error("classes", "give either classes: or extends:/add:, not both") }
        } else if let list = try t.names("classes", unique: true) {
            classes = list
        } else {
            throw t.source.error("needs classes: [...] or extends: NAME")
        }
        if let add = t.value("add") {
            guard t.has("extends") else { throw t.error("add", "only valid with extends:") }
            for added in try add.names(unique: true) {
                guard !classes.contains(added) else { throw t.error("add", "'\(added)' is already in the base taxonomy") }
                classes.append(added)
            }
        }
        return Taxonomy(name: name, classes: classes)
    }

    /// `SOURCE_CLASS: TARGET_CLASS | ignore | {class: TARGET_CLASS, clickable: BOOL}`; the keys
    /// are the data's class names, checked against the data when it is loaded.
    static func parseMapping(_ value: YAMLValue, targetClasses: [String]?) throws -> [MappingEntry] {
        guard let targetClasses else { throw value.error("needs a taxonomy: to map into") }
        guard value.isMapping else { throw value.error("expected a mapping SOURCE_CLASS: TARGET_CLASS | ignore, found \(value.describe)") }
        let mapping = try value.mapping()
        return try mapping.entries.map { source, target in
            guard !source.isEmpty else { throw mapping.error(source, "a source class name cannot be empty") }
            var targetValue = target, clickable: Bool?
            if target.isMapping {
                let fields = try target.mapping(allowed: ["class", "clickable"])
                targetValue = try fields.required("class")
                clickable = try fields.value("clickable")?.bool()
            } else if target.scalar == nil {
                throw target.error("expected a target class, ignore or {class: C, clickable: true}, found \(target.describe)")
            }
            let targetName = try targetValue.string()
            let result: Target
            if targetName == "ignore" {
                if clickable != nil { throw target.error("an ignored class takes no clickable:") }
                result = .ignore
            } else if let index = targetClasses.firstIndex(of: targetName) {
                result = .target(classIndex: index, clickable: clickable)
            } else {
                throw targetValue.error("'\(targetName)' is not a target class; use ignore or one of: \(targetClasses.joined(separator: ", "))"
                                        + KeySuggestion.hint(for: targetName, among: targetClasses))
            }
            return MappingEntry(sourceClass: source, target: result, line: mapping.keyLine(source))
        }
    }

    /// Relative paths are relative to the repo root holding the config (the nearest folder up
    /// with a Package.swift), so `../shared/...` means the same from any config folder.
    /// `SCREENLAB_SHARED`, when set, replaces a leading `../shared`.
    static func resolveDataPath(_ path: String, configFile: URL) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        if path.hasPrefix("../shared/"), let shared = ProcessInfo.processInfo.environment["SCREENLAB_SHARED"], !shared.isEmpty {
            return URL(fileURLWithPath: shared).appendingPathComponent(String(path.dropFirst("../shared/".count))).standardizedFileURL
        }
        return repoRoot(containing: configFile).appendingPathComponent(path).standardizedFileURL
    }

    /// The nearest folder at or above `file`'s folder that holds a Package.swift (else that folder).
    public static func repoRoot(containing file: URL) -> URL {
        let start = file.deletingLastPathComponent().standardizedFileURL
        var folder = start
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return start
    }
}
