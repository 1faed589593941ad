import Foundation
import Support
import Yams

/// A configuration mistake, naming the file (or `--set`), the line and the dotted key.
public struct ExperimentConfigError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int?
    public let key: String?
    public let message: String

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let key { location += " (\(key))" }
        return "\(location): \(message)"
    }
}

/// One YAML mapping read strictly: every key a reader asks for is recorded, and `finish()`
/// refuses the keys nobody asked for, suggesting the closest known key. Duplicate keys are
/// refused too (YAML libraries silently keep the last one).
final class ConfigMapping {
    let path: String
    let node: Node?
    private let context: ConfigContext
    private var entries: [(key: String, keyNode: Node, value: Node)] = []
    private var known: [String] = []

    init(_ node: Node?, path: String, context: ConfigContext) throws {
        self.node = node
        self.path = path
        self.context = context
        guard let node else { return }
        guard let mapping = node.mapping else { throw context.error(node, key: path, "expected a mapping of key: value") }
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else { throw context.error(keyNode, key: path, "keys must be plain text") }
            if let first = entries.first(where: { $0.key == key }) {
                throw context.error(keyNode, key: dotted(key), "given twice (first on line \(first.keyNode.mark?.line ?? 0)); keep one")
            }
            entries.append((key, keyNode, value))
        }
    }

    func dotted(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value node of `key` (recorded as known), nil when absent or `null`.
    func value(_ key: String) -> Node? {
        if !known.contains(key) { known.append(key) }
        guard let node = entries.first(where: { $0.key == key })?.value else { return nil }
        if case .scalar(let scalar) = node, scalar.tag.description == Tag.Name.null.rawValue || (scalar.string == "null" && scalar.style == .plain) || (scalar.string == "~" && scalar.style == .plain) {
            return nil
        }
        return node
    }

    func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// The keys as written, in order (for mappings whose keys are data, such as a class mix).
    var keys: [String] { entries.map(\.key) }

    func error(_ key: String, _ message: String) -> ExperimentConfigError {
        context.error(entries.first { $0.key == key }?.value ?? node, key: dotted(key), message)
    }

    func string(_ key: String, default fallback: String) throws -> String { try optionalString(key) ?? fallback }

    func optionalString(_ key: String) throws -> String? {
        guard let node = value(key) else { return nil }
        guard let scalar = node.scalar else { throw error(key, "expected a single value, found \(kind(of: node))") }
        return scalar.string
    }

    func int(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        try optionalInt(key, range: range) ?? fallback
    }

    func optionalInt(_ key: String, range: ClosedRange<Int>) throws -> Int? {
        guard let node = value(key) else { return nil }
        // Support's guarded reading: Yams' own traps on an overflowing base-60 value (yaml-fuzz).
        guard let number = YAMLValue.integer(node) else { throw error(key, "expected an integer, found '\(describe(node))'") }
        guard range.contains(number) else { throw error(key, "\(number) is out of range; allowed \(range.lowerBound)…\(range.upperBound)") }
        return number
    }

    func double(_ key: String, default fallback: Double, range: ClosedRange<Double>) throws -> Double {
        try optionalDouble(key, range: range) ?? fallback
    }

    func optionalDouble(_ key: String, range: ClosedRange<Double>) throws -> Double? {
        guard let node = value(key) else { return nil }
        guard let number = YAMLValue.number(node), number.isFinite else { throw error(key, "expected a number, found '\(describe(node))'") }
        guard range.contains(number) else { throw error(key, "\(number) is out of range; allowed \(range.lowerBound)…\(range.upperBound)") }
        return number
    }

    func bool(_ key: String, default fallback: Bool) throws -> Bool {
        guard let node = value(key) else { return fallback }
        guard let flag = node.bool, node.scalar != nil else { throw error(key, "expected true or false, found '\(describe(node))'") }
        return flag
    }

    /// One of `choices` (exact spelling); a near miss is named in the error.
    func choice(_ key: String, default fallback: String, _ choices: [String]) throws -> String {
        let text = try string(key, default: fallback)
        guard choices.contains(text) else {
            let hint = KeySuggestion.closest(to: text, among: choices).map { " — did you mean '\($0)'?" } ?? ""
            throw error(key, "'\(text)' is not one of \(choices.joined(separator: ", "))\(hint)")
        }
        return text
    }

    func mapping(_ key: String) throws -> ConfigMapping {
        try ConfigMapping(value(key), path: dotted(key), context: context)
    }

    /// Refuses keys that no reader asked for, suggesting the closest known key.
    func finish() throws {
        for entry in entries where !known.contains(entry.key) {
            let hint = KeySuggestion.closest(to: entry.key, among: known).map { " — did you mean '\($0)'?" } ?? ""
            throw context.error(entry.keyNode, key: dotted(entry.key),
                                "unknown key\(hint) (known here: \(known.sorted().joined(separator: ", ")))")
        }
    }

    private func describe(_ node: Node) -> String { node.scalar?.string ?? kind(of: node) }
    private func kind(of node: Node) -> String { node.mapping != nil ? "a mapping" : node.sequence != nil ? "a list" : "a value" }
}

/// Where config errors point: the file, or the `--set` override that put a value there.
struct ConfigContext {
    let file: String
    /// Dotted keys set by `--set` (their nodes carry no line of the file).
    let overriddenKeys: Set<String>

    func error(_ node: Node?, key: String, _ message: String) -> ExperimentConfigError {
        // The key itself, a key inside it, or a section that `--set a.b=…` created.
        if overriddenKeys.contains(where: { key == $0 || key.hasPrefix($0 + ".") || $0.hasPrefix(key + ".") }) {
            return ExperimentConfigError(file: "--set", line: nil, key: key, message: message)
        }
        return ExperimentConfigError(file: file, line: node?.mark?.line, key: key, message: message)
    }
}

/// "Did you mean …?": the known word at the smallest edit distance, if it is close enough to
/// be a typo (at most a third of the word's letters changed).
public enum KeySuggestion {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// `--set key.path=value` applied to the YAML tree before it is read, so an override is
/// checked exactly like the file's own keys (and a typo in it is named as `--set`).
enum ConfigOverrides {
    static func apply(_ overrides: [String], to root: Node?) throws -> (node: Node, keys: Set<String>) {
        var root = root ?? Node.mapping(Node.Mapping([]))
        var keys: Set<String> = []
        for text in overrides {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ExperimentConfigError(file: "--set", line: nil, key: nil, message: "'\(text)' is not key=value (e.g. --set epochs=1, --set optimizer.lr=0.01)")
            }
            let path = text[..<equals].split(separator: ".").map(String.init)
            guard !path.isEmpty, !path.contains(where: { $0.isEmpty }) else {
                throw ExperimentConfigError(file: "--set", line: nil, key: String(text[..<equals]), message: "empty key segment")
            }
            let valueText = String(text[text.index(after: equals)...])
            let value: Node
            do { value = try Yams.compose(yaml: valueText) ?? Node("null") } catch {
                throw ExperimentConfigError(file: "--set", line: nil, key: path.joined(separator: "."), message: "value '\(valueText)' is not valid YAML: \(error)")
            }
            try set(value, at: path[...], in: &root, full: path)
            keys.insert(path.joined(separator: "."))
        }
        return (root, keys)
    }

    private static func set(_ value: Node, at path: ArraySlice<String>, in node: inout Node, full: [String]) throws {
        guard var mapping = node.mapping else {
            throw ExperimentConfigError(file: "--set", line: nil, key: full.joined(separator: "."),
                                        message: "'\(full[..<(full.count - path.count)].joined(separator: "."))' is not a mapping, so it has no key '\(path.first!)'")
        }
        let key = path.first!
        if path.count == 1 {
            mapping[key] = value
        } else {
            var child = mapping[key] ?? Node.mapping(Node.Mapping([]))
            if child.scalar != nil, child.scalar?.string == "null" || child.scalar?.string == "false" { child = Node.mapping(Node.Mapping([])) }
            try set(value, at: path.dropFirst(), in: &child, full: full)
            mapping[key] = child
        }
        node = .mapping(mapping)
    }
}
