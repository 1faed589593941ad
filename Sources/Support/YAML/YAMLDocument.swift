import Foundation
import Yams

/// The one entry point for YAML in ScreenLab (dataset configs, a YOLO folder's data.yaml, model
/// configs, augmentation presets, thresholds files): the file is opened as an input file
/// (regular, size-bounded, UTF-8), measured against `YAMLLimits` before the parser sees it,
/// composed by Yams, and its expanded size counted. Readers then walk it with `YAMLMapping`, the
/// strict reader, and `YAMLValue`'s typed accessors, whose errors name the file, line and key.
public enum YAMLDocument {
    /// The document's root, nil for an empty document (or one holding only comments).
    public static func load(_ url: URL, name: String? = nil, limits: YAMLLimits = YAMLLimits(),
                            options: YAMLReadOptions = YAMLReadOptions()) throws -> YAMLValue? {
        let file = name ?? url.path
        let text: String
        do { text = try ReadableFile.text(of: url, maximumBytes: limits.maximumBytes) } catch let error as FileReadError {
            throw YAMLError(file: file, line: nil, key: nil, error.reason)
        }
        return try parse(text, file: file, limits: limits, options: options)
    }

    public static func parse(_ text: String, file: String, limits: YAMLLimits = YAMLLimits(),
                             options: YAMLReadOptions = YAMLReadOptions()) throws -> YAMLValue? {
        try YAMLPreflight.check(text, file: file, limits: limits)
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch let error as YamlError {
            throw YAMLError(file: file, line: line(of: error), key: nil, "not valid YAML: \(error)")
        } catch {
            throw YAMLError(file: file, line: nil, key: nil, "not valid YAML: \(error)")
        }
        guard let node else { return nil }
        try checkExpandedSize(node, file: file, limit: limits.maximumNodes)
        return YAMLValue(node: node, file: file, key: "", options: options)
    }

    /// Aliases share the anchored node, so composing is cheap, but walking the result visits
    /// every expansion: count up to the limit (never more work than that) and refuse past it.
    static func checkExpandedSize(_ root: Node, file: String, limit: Int) throws {
        var pending = [root]
        var count = 0
        while let node = pending.popLast() {
            count += 1
            guard count <= limit else {
                throw YAMLError(file: file, line: nil, key: nil,
                                "expands to more than \(limit) values (aliases repeating aliases?); write the values out instead")
            }
            if let mapping = node.mapping {
                for (key, value) in mapping { pending.append(key); pending.append(value) }
            } else if let sequence = node.sequence {
                pending.append(contentsOf: sequence)
            }
        }
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _): return mark.line
        default: return nil
        }
    }
}
