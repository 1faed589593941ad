import Yams

/// A YAML mapping read strictly, the one reader of every config in ScreenLab. Keys are text and
/// appear at most once (YAML libraries silently keep the last copy; a hand-edited file with two
/// `confidence:` lines must not). Every key a reader asks for is recorded, so `finish()` can
/// refuse the keys nobody asked for — a typo never silently falls back to a default — naming the
/// closest known key and listing the known ones. Typed accessors take a default or return nil
/// when the key is absent (or null, when `options.nullMeansAbsent`); their errors come from
/// `YAMLValue` and name the file or `--set`, the line and the dotted key.
public final class YAMLMapping {
    /// The mapping itself (for an absent section, an empty mapping with the section's key).
    public let source: YAMLValue
    /// In file order.
    public let entries: [(key: String, value: YAMLValue)]
    private let keyLines: [String: Int]
    /// Entry index by key (a hostile file may hold many keys: no quadratic lookups).
    private let index: [String: Int]
    private var asked: [String] = []
    private var askedSet: Set<String> = []

    public init(_ value: YAMLValue) throws {
        guard let mapping = value.node.mapping else { throw value.error("expected a mapping of key: value, found \(value.describe)") }
        source = value
        var entries: [(key: String, value: YAMLValue)] = []
        var keyLines: [String: Int] = [:], index: [String: Int] = [:]
        for (keyNode, valueNode) in mapping {
            guard let name = keyNode.scalar?.string else {
                let keyValue = value.child(keyNode, key: value.key)
                throw keyValue.error("keys must be text, found \(keyValue.shape)")
            }
            let child = value.child(valueNode, key: value.key.isEmpty ? name : "\(value.key).\(name)")
            if index[name] != nil {
                throw value.options.error(file: value.file, line: keyNode.mark?.line, key: child.key,
                                          "appears twice\(keyLines[name].map { " (first on line \($0))" } ?? ""); keep one")
            }
            keyLines[name] = keyNode.mark?.line
            index[name] = entries.count
            entries.append((name, child))
        }
        self.entries = entries
        self.keyLines = keyLines
        self.index = index
    }

    /// A section that is not there: no entries, errors name its key.
    public static func empty(file: String, key: String, options: YAMLReadOptions = YAMLReadOptions()) -> YAMLMapping {
        // (An empty mapping node cannot fail the checks above.)
        try! YAMLMapping(YAMLValue(node: Node.mapping(Node.Mapping([])), file: file, key: key, options: options))
    }

    /// A document's top mapping; an empty document is an empty mapping read with `options`
    /// (a document keeps the options it was parsed with).
    public convenience init(document: YAMLValue?, file: String, options: YAMLReadOptions = YAMLReadOptions()) throws {
        try self.init(document ?? YAMLValue(node: Node.mapping(Node.Mapping([])), file: file, key: "", options: options))
    }

    public var file: String { source.file }
    public var options: YAMLReadOptions { source.options }

    /// The keys as written, in order (for mappings whose keys are data, such as class names).
    public var keys: [String] { entries.map(\.key) }

    public func dotted(_ key: String) -> String { source.key.isEmpty ? key : "\(source.key).\(key)" }

    /// The line of `key` itself (errors about a key point there, not at its value).
    public func keyLine(_ key: String) -> Int? { keyLines[key] }

    // MARK: Looking up (each records the key as known)

    /// The value as written, null included.
    public subscript(key: String) -> YAMLValue? {
        if askedSet.insert(key).inserted { asked.append(key) }
        return index[key].map { entries[$0].value }
    }

    /// Whether the key is written at all (null included); does not make it known.
    public func has(_ key: String) -> Bool { index[key] != nil }

    /// The value, nil when absent (or null, when nulls mean absent).
    public func value(_ key: String) -> YAMLValue? {
        guard let value = self[key], !(options.nullMeansAbsent && value.isNull) else { return nil }
        return value
    }

    /// The same as `value(_:)`, for readers that say "optional" beside `required`.
    public func optional(_ key: String) -> YAMLValue? { value(key) }

    /// The value of a key that must be given. When it is absent because of a typo, the typo is
    /// the error (as `finish()` would report it), not "missing".
    public func required(_ key: String) throws -> YAMLValue {
        if let value = value(key) { return value }
        if !has(key), let typo = entries.first(where: { !askedSet.contains($0.key) && KeySuggestion.closest(to: $0.key, among: [key]) != nil }) {
            throw unknownKey(typo.key)
        }
        throw error(key, "missing")
    }

    /// An error about `key`: at its value's line when written, else at the mapping's.
    public func error(_ key: String, _ message: String) -> YAMLError {
        let line = index[key].flatMap { entries[$0].value.line } ?? source.line
        return options.error(file: file, line: line, key: dotted(key), message)
    }

    // MARK: Typed values

    /// Any single value as text (possibly empty).
    public func optionalString(_ key: String) throws -> String? { try value(key)?.scalarText() }
    public func string(_ key: String, default fallback: String) throws -> String { try optionalString(key) ?? fallback }

    public func optionalInt(_ key: String, range: ClosedRange<Int>) throws -> Int? { try value(key)?.int(in: range) }
    public func int(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        try optionalInt(key, range: range) ?? fallback
    }

    public func optionalDouble(_ key: String, range: ClosedRange<Double>) throws -> Double? { try value(key)?.double(in: range) }
    public func double(_ key: String, default fallback: Double, range: ClosedRange<Double>) throws -> Double {
        try optionalDouble(key, range: range) ?? fallback
    }

    public func bool(_ key: String, default fallback: Bool) throws -> Bool { try value(key)?.bool() ?? fallback }

    /// One of `choices` (exact spelling); a near miss is named in the error.
    public func optionalChoice(_ key: String, _ choices: [String]) throws -> String? { try value(key)?.choice(among: choices) }
    public func choice(_ key: String, default fallback: String, _ choices: [String]) throws -> String {
        try optionalChoice(key, choices) ?? fallback
    }

    public func names(_ key: String, unique: Bool = false) throws -> [String]? { try value(key)?.names(unique: unique) }
    public func numbers(_ key: String, count: Int? = nil, range: ClosedRange<Double>? = nil) throws -> [Double]? {
        try value(key)?.numbers(count: count, in: range)
    }
    public func range(_ key: String, within bounds: ClosedRange<Double>) throws -> ClosedRange<Double>? {
        try value(key)?.range(within: bounds)
    }

    /// A nested mapping; an absent section reads as an empty one (so its keys take their defaults).
    public func mapping(_ key: String) throws -> YAMLMapping {
        guard let value = value(key) else { return .empty(file: file, key: dotted(key), options: options) }
        return try YAMLMapping(value)
    }

    // MARK: Unknown keys

    /// Refuses the first key that no reader asked for.
    public func finish() throws {
        if let unknown = entries.first(where: { !askedSet.contains($0.key) }) { throw unknownKey(unknown.key) }
    }

    private func unknownKey(_ key: String) -> YAMLError {
        options.error(file: file, line: keyLines[key], key: dotted(key),
                      "unknown key\(KeySuggestion.hint(for: key, among: asked)) (known here: \(asked.sorted().joined(separator: ", ")))")
    }
}

/// How a document is read beyond the YAML itself.
public struct YAMLReadOptions: Equatable, Sendable {
    /// Whether `key: null` (`~`, or nothing after the colon) reads as an absent key, so its
    /// default applies (experiment files: `--set init=null` clears a setting); when false, a null
    /// is a value that every typed accessor refuses.
    public var nullMeansAbsent: Bool
    /// Dotted keys whose values came from `overrideSource` (`--set a.b=…`) rather than the file.
    public var overriddenKeys: Set<String>
    public var overrideSource: String

    public init(nullMeansAbsent: Bool = true, overriddenKeys: Set<String> = [], overrideSource: String = "--set") {
        self.nullMeansAbsent = nullMeansAbsent
        self.overriddenKeys = overriddenKeys
        self.overrideSource = overrideSource
    }

    /// Nulls are values, refused by every typed accessor (presets, dataset and model configs).
    public static let nullsRefused = YAMLReadOptions(nullMeansAbsent: false)

    /// The error, pointing at the override when `key` (or a key inside it, or a section an
    /// override created) came from one: its nodes carry no line of the file.
    func error(file: String, line: Int?, key: String?, _ message: String) -> YAMLError {
        if let key, overriddenKeys.contains(where: { key == $0 || key.hasPrefix($0 + ".") || key.hasPrefix($0 + "[") || $0.hasPrefix(key + ".") }) {
            return YAMLError(file: overrideSource, line: nil, key: key, message)
        }
        return YAMLError(file: file, line: line, key: key, message)
    }
}
