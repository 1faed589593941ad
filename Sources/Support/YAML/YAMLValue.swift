import Yams

/// One node of a YAML document with strict, typed access: every error is a `YAMLError` naming
/// the file (or `--set`), the node's line and its dotted key (`picked_on.split`,
/// `classes[2].confidence`). Keyed access, defaults and unknown keys are `YAMLMapping`'s.
public struct YAMLValue {
    /// The Yams node, for the rare reader that needs more than the accessors below.
    public let node: Node
    public let file: String
    /// Dotted path from the document root; empty for the root itself.
    public let key: String
    public let options: YAMLReadOptions

    public init(node: Node, file: String, key: String, options: YAMLReadOptions = YAMLReadOptions()) {
        self.node = node
        self.file = file
        self.key = key
        self.options = options
    }

    public var line: Int? { node.mark?.line }

    public func error(_ message: String) -> YAMLError {
        options.error(file: file, line: line, key: key.isEmpty ? nil : key, message)
    }

    /// A value under this one (`key` already dotted), read the same way.
    func child(_ node: Node, key: String) -> YAMLValue { YAMLValue(node: node, file: file, key: key, options: options) }

    /// An explicit `null`, `~` or empty value.
    public var isNull: Bool {
        guard let scalar = node.scalar, scalar.style == .plain || scalar.style == .any else { return false }  // "null" quoted is text
        return node.null != nil
    }

    /// The text of a single value (`"5"` for 5), nil for a list or mapping.
    public var scalar: String? { node.scalar?.string }
    public var isList: Bool { node.sequence != nil }
    public var isMapping: Bool { node.mapping != nil }

    /// Text of a single value, possibly empty; an error for a list or mapping.
    public func scalarText() throws -> String {
        guard let scalar else { throw error("expected a single value, found \(shape)") }
        return scalar
    }

    /// A non-empty text value.
    public func string() throws -> String {
        guard let text = scalar, !text.isEmpty, !isNull else { throw error("expected a non-empty text value, found \(describe)") }
        return text
    }

    public func int(in range: ClosedRange<Int>? = nil) throws -> Int {
        guard let value = YAMLValue.integer(node) else { throw error("expected an integer, found \(describe)") }
        if let range, !range.contains(value) { throw error("\(value) is out of range; allowed \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    /// A finite number (integers accepted), optionally within `range`.
    public func double(in range: ClosedRange<Double>? = nil) throws -> Double {
        guard let value = YAMLValue.number(node) else { throw error("expected a number, found \(describe)") }
        guard value.isFinite else { throw error("expected a finite number, found \(describe)") }
        if let range, !range.contains(value) { throw error("\(value) is out of range; allowed \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    /// A scalar's whole number. Yams' `Node.int` traps (Int overflow) on a YAML 1.1 base-60
    /// value with a dozen `:` parts ("1:0:0:0:0:0:0:0:0:0:0:0", found by yaml-fuzz), so values
    /// with a colon are not numbers here; ScreenLab's files never use base 60.
    public static func integer(_ node: Node) -> Int? {
        guard let scalar = node.scalar, !scalar.string.contains(":") else { return nil }
        return node.int
    }

    /// A scalar's number (integers too), with the same base-60 guard. "1e-05" (how Swift prints
    /// small doubles) is text to YAML 1.1's float rule, so plain scalars are read by `Double` too.
    public static func number(_ node: Node) -> Double? {
        guard let scalar = node.scalar, !scalar.string.contains(":") else { return nil }
        return node.float ?? node.int.map(Double.init) ?? (scalar.style == .plain ? Double(scalar.string) : nil)
    }

    public func bool() throws -> Bool {
        guard node.scalar != nil, let value = node.bool else { throw error("expected true or false, found \(describe)") }
        return value
    }

    /// One of `choices` (exact spelling); a near miss is named in the error.
    public func choice(among choices: [String]) throws -> String {
        guard let text = scalar else { throw error("expected one of \(choices.joined(separator: ", ")), found \(shape)") }
        guard choices.contains(text) else {
            throw error("'\(text)' is not one of \(choices.joined(separator: ", "))\(KeySuggestion.hint(for: text, among: choices))")
        }
        return text
    }

    public func list() throws -> [YAMLValue] {
        guard let sequence = node.sequence else { throw error("expected a list, found \(describe)") }
        return sequence.enumerated().map { child($0.element, key: "\(key)[\($0.offset)]") }
    }

    /// A list of non-empty names (`[Container, Dialog]`; `[]` for none); with `unique`, a name
    /// given twice is an error at its second place.
    public func names(unique: Bool = false) throws -> [String] {
        guard node.sequence != nil else { throw error("expected a list of names such as [A, B], found \(describe)") }
        let items = try list()
        var names: [String] = []
        for item in items {
            guard let name = item.scalar, !name.isEmpty, !item.isNull else { throw item.error("expected a name, found \(item.describe)") }
            if unique, let first = names.firstIndex(of: name) {
                throw item.error("'\(name)' is listed twice (also \(key)[\(first)]); keep one")
            }
            names.append(name)
        }
        return names
    }

    /// A list of finite numbers, each within `range`, `count` of them when given.
    public func numbers(count: Int? = nil, in range: ClosedRange<Double>? = nil) throws -> [Double] {
        guard node.sequence != nil else { throw error("expected a list of numbers such as [0.5, 0.5, 0.5], found \(describe)") }
        let values = try list().map { try $0.double(in: range) }
        if let count, values.count != count { throw error("has \(values.count) numbers; expected \(count)") }
        return values
    }

    /// `[low, high]` within `bounds`, or a single number (a fixed value).
    public func range(within bounds: ClosedRange<Double>) throws -> ClosedRange<Double> {
        let ends = (node.sequence.map(Array.init) ?? [node]).map(YAMLValue.number)
        guard (1...2).contains(ends.count), let low = ends.first!, let high = ends.last!, low.isFinite, high.isFinite else {
            throw error("expected a number or a list [low, high] of two numbers, found \(describe)")
        }
        guard low <= high else { throw error("low \(low) is above high \(high)") }
        guard bounds.contains(low), bounds.contains(high) else {
            throw error("[\(low), \(high)] is out of range; allowed \(bounds.lowerBound)…\(bounds.upperBound) for both ends")
        }
        return low...high
    }

    /// This value as a mapping read strictly (text keys, each at most once); see `YAMLMapping`.
    /// With `allowed`, the keys are known at once and any other key is an error straight away
    /// (before a missing key, which a typo usually explains, is reported).
    public func mapping(allowed: [String]? = nil) throws -> YAMLMapping {
        let mapping = try YAMLMapping(self)
        if let allowed {
            for key in allowed { _ = mapping[key] }
            try mapping.finish()
        }
        return mapping
    }

    /// "a list", "a mapping" or "a value".
    public var shape: String { isMapping ? "a mapping" : isList ? "a list" : "a value" }

    /// What was found, for errors: the text quoted, "nothing" for an empty value, or the shape.
    public var describe: String {
        guard let text = scalar else { return shape }
        return text.isEmpty && isNull ? "nothing" : "'\(text)'"
    }
}
