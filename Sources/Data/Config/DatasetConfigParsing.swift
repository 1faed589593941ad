import Foundation
import Support
import Yams

extension DatasetConfig {
    static let topLevelKeys = ["path", "format", "source_classes", "taxonomy", "mapping", "description"]

    public static func parse(yaml: String, file: URL) throws -> DatasetConfig {
        let reader = ConfigNodeReader(file: file.path)
        let node: Node?
        do { node = try YAMLDocument.parse(yaml, file: file.path)?.node } catch let error as YAMLError {
            throw DatasetConfigError(file: error.file, line: error.line, key: error.key, error.message)
        }
        guard let node else { throw reader.error(nil, key: nil, "empty config; it needs at least path:") }
        let entries = try reader.mapping(node, key: "(top level)", allowed: topLevelKeys)
        guard let pathNode = entries["path"] else { throw reader.error(node, key: "path", "missing; give the dataset folder or COCO json") }
        let path = try reader.string(pathNode, key: "path")
        var config = DatasetConfig(file: file, dataURL: resolveDataPath(path, configFile: file), format: nil, sourceClasses: nil,
                                   taxonomy: nil, mapping: nil, description: try entries["description"].map { try reader.string($0, key: "description") })
        config.pathText = path
        config.pathLine = pathNode.mark?.line
        if let formatNode = entries["format"] {
            let name = try reader.string(formatNode, key: "format")
            guard let format = DatasetLoader.Format(rawValue: name), format != .config else {
                throw reader.error(formatNode, key: "format", "'\(name)' is not a data format; use yolo or coco")
            }
            config.format = format
        }
        if let classesNode = entries["source_classes"] {
            config.sourceClasses = try reader.uniqueStrings(classesNode, key: "source_classes")
        }
        if let taxonomyNode = entries["taxonomy"] { config.taxonomy = try parseTaxonomy(taxonomyNode, reader: reader) }
        if let mappingNode = entries["mapping"] {
            config.mapping = try parseMapping(mappingNode, targetClasses: config.taxonomy?.classes, reader: reader)
        }
        return config
    }

    /// Taxonomies known by name; a config can extend one with extra classes.
    static let namedTaxonomies = [Taxonomy.screenRecognition]

    static func parseTaxonomy(_ node: Node, reader: ConfigNodeReader) throws -> Taxonomy {
        if node.scalar != nil {
            let name = try reader.string(node, key: "taxonomy")
            guard let known = namedTaxonomies.first(where: { $0.name == name }) else {
                throw reader.error(node, key: "taxonomy", "unknown taxonomy '\(name)'; known: \(namedTaxonomies.map(\.name).joined(separator: ", ")), or give {name:, classes:}")
            }
            return known
        }
        let entries = try reader.mapping(node, key: "taxonomy", allowed: ["name", "classes", "extends", "add"])
        guard let nameNode = entries["name"] else { throw reader.error(node, key: "taxonomy.name", "missing") }
        let name = try reader.string(nameNode, key: "taxonomy.name")
        var classes: [String] = []
        if let extendsNode = entries["extends"] {
            classes = try parseTaxonomy(extendsNode, reader: reader).classes
            if entries["classes"] != nil { throw reader.error(node, key: "taxonomy.classes", "give either classes: or extends:/add:, not both") }
        } else if let classesNode = entries["classes"] {
            classes = try reader.uniqueStrings(classesNode, key: "taxonomy.classes")
        } else {
            throw reader.error(node, key: "taxonomy", "needs classes: [...] or extends: NAME")
        }
        if let addNode = entries["add"] {
            guard entries["extends"] != nil else { throw reader.error(addNode, key: "taxonomy.add", "only valid with extends:") }
            for added in try reader.uniqueStrings(addNode, key: "taxonomy.add") {
                guard !classes.contains(added) else { throw reader.error(addNode, key: "taxonomy.add", "'\(added)' is already in the base taxonomy") }
                classes.append(added)
            }
        }
        return Taxonomy(name: name, classes: classes)
    }

    static func parseMapping(_ node: Node, targetClasses: [String]?, reader: ConfigNodeReader) throws -> [MappingEntry] {
        guard let targetClasses else { throw reader.error(node, key: "mapping", "needs a taxonomy: to map into") }
        guard let mapping = node.mapping else { throw reader.error(node, key: "mapping", "must be a mapping SOURCE_CLASS: TARGET_CLASS | ignore") }
        var result: [MappingEntry] = []
        for (keyNode, valueNode) in mapping {
            let source = try reader.string(keyNode, key: "mapping")
            guard !result.contains(where: { $0.sourceClass == source }) else { throw reader.error(keyNode, key: source, "mapped twice") }
            var targetNode = valueNode
            var clickable: Bool?
            if valueNode.mapping != nil {
                let fields = try reader.mapping(valueNode, key: source, allowed: ["class", "clickable"])
                guard let classNode = fields["class"] else { throw reader.error(valueNode, key: "\(source).class", "missing") }
                targetNode = classNode
                if let clickableNode = fields["clickable"] {
                    guard let value = clickableNode.bool else { throw reader.error(clickableNode, key: "\(source).clickable", "must be true or false") }
                    clickable = value
                }
            }
            let targetName = try reader.string(targetNode, key: source)
            let target: Target
            if targetName == "ignore" {
                if clickable != nil { throw reader.error(valueNode, key: source, "an ignored class takes no clickable:") }
                target = .ignore
            } else if let index = targetClasses.firstIndex(of: targetName) {
                target = .target(classIndex: index, clickable: clickable)
            } else {
                throw reader.error(targetNode, key: source, "'\(targetName)' is not a target class; use ignore or one of: \(targetClasses.joined(separator: ", "))")
            }
            result.append(MappingEntry(sourceClass: source, target: target, line: keyNode.mark?.line))
        }
        return result
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

/// Typed access to YAML nodes with errors naming file, line and key.
struct ConfigNodeReader {
    let file: String

    func error(_ node: Node?, key: String?, _ message: String) -> DatasetConfigError {
        DatasetConfigError(file: file, line: node?.mark?.line, key: key, message)
    }

    /// A mapping's entries by key; keys outside `allowed` and repeated keys are errors.
    func mapping(_ node: Node, key: String, allowed: [String]) throws -> [String: Node] {
        guard node.mapping != nil else { throw error(node, key: key, "must be a mapping with keys \(allowed.joined(separator: ", "))") }
        // Support's strict mapping reader: text keys, each at most once.
        let entries: YAMLMapping
        do { entries = try YAMLValue(node: node, file: file, key: "").mapping() } catch let problem as YAMLError {
            throw DatasetConfigError(file: problem.file, line: problem.line, key: problem.key, problem.message)
        }
        var result: [String: Node] = [:]
        for (name, value) in entries.entries {
            guard allowed.contains(name) else {
                throw DatasetConfigError(file: file, line: keyLine(node, name), key: name,
                                         "unknown key\(key == "(top level)" ? "" : " in \(key)"); allowed: \(allowed.joined(separator: ", "))")
            }
            result[name] = value.node
        }
        return result
    }

    /// The line of `name`'s key in a mapping node (errors point at the key, not its value).
    func keyLine(_ node: Node, _ name: String) -> Int? {
        node.mapping?.first { $0.key.scalar?.string == name }?.key.mark?.line
    }

    func string(_ node: Node, key: String) throws -> String {
        guard let scalar = node.scalar, !scalar.string.isEmpty else { throw error(node, key: key, "must be a non-empty text value") }
        return scalar.string
    }

    func uniqueStrings(_ node: Node, key: String) throws -> [String] {
        guard let sequence = node.sequence else { throw error(node, key: key, "must be a list [A, B, ...]") }
        let values = try sequence.map { try string($0, key: key) }
        if let repeated = values.first(where: { name in values.filter { $0 == name }.count > 1 }) {
            throw error(node, key: key, "'\(repeated)' appears twice")
        }
        return values
    }
}
