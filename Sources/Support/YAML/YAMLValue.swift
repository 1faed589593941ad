import Yams

/// One node of a YAML document with strict, typed access: every error is a `YAMLError` naming
/// the file, the node's line and its dotted key (`picked_on.split`, `classes[2].confidence`).
/// Mappings refuse repeated keys (YAML says keys are unique; parsers differ on which copy wins,
/// so a hand-edited file with two `confidence:` lines must not silently take the last).
public struct YAMLValue {
    /// The Yams node, for the rare reader that needs more than the accessors below.
    public let node: Node
    public let file: String
    /// Dotted path from the document root; empty for the root itself.
    public let key: String

    public init(node: Node, file: String, key: String) {
        self.node = node
        self.file = file
        self.key = key
    }

    public var line: Int? { node.mark?.line }

    public func error(_ message: String) -> YAMLError {
        YAMLError(file: file, line: line, key: key.isEmpty ? nil : key, message)
    }

    /// An explicit `null`, `~` or empty value.
    public var isNull: Bool {
        guard let scalar = node.scalar, scalar.style == .plain || scalar.style == .any else { return false }  // "null" quoted is text
        return node.null != nil
    }

    /// Text of a scalar (`"5"` for 5); an error for a list or mapping.
    public func scalarText() throws -> String {
        guard let scalar = node.scalar else { throw error("expected a single value, found \(shape)") }
        return scalar.string
    }

    /// A non-empty text value.
    public func string() throws -> String {
        let text = try scalarText()
        guard !text.isEmpty, !isNull else { throw error("expected a non-empty text value") }
        return text
    }

    public func int(in range: ClosedRange<Int>? = nil) throws -> Int {
        guard let value = YAMLValue.integer(node) else { throw error("expected a whole number, found \(describe)") }
        if let range, !range.contains(value) { throw error("is \(value); it must lie in \(range.lowerBound)...\(range.upperBound)") }
        return value
    }

    /// A finite number (integers accepted), optionally within `range`.
    public func double(in range: ClosedRange<Double>? = nil) throws -> Double {
        guard let value = YAMLValue.number(node) else {
            throw error("expected a number, found \(describe)")
        }
        guard value.isFinite else { throw error("is \(value); it must be a finite number") }
        if let range, !range.contains(value) { throw error("is \(value); it must lie in \(range.lowerBound)...\(range.upperBound)") }
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

    public func list() throws -> [YAMLValue] {
        guard let sequence = node.sequence else { throw error("expected a list, found \(shape)") }
        return sequence.enumerated().map { YAMLValue(node: $0.element, file: file, key: "\(key)[\($0.offset)]") }
    }

    /// A mapping with text keys, each at most once; with `allowed`, any other key is an error
    /// listing the allowed ones.
    public func mapping(allowed: [String]? = nil) throws -> YAMLMapping {
        guard let mapping = node.mapping else {
            throw error("expected a mapping\(allowed.map { " with keys " + $0.joined(separator: ", ") } ?? ""), found \(shape)")
        }
        var entries: [(key: String, value: YAMLValue)] = []
        var firstLine: [String: Int?] = [:]
        for (keyNode, valueNode) in mapping {
            let keyValue = YAMLValue(node: keyNode, file: file, key: key)
            guard let name = keyNode.scalar?.string else { throw keyValue.error("keys must be text, found \(keyValue.shape)") }
            let child = YAMLValue(node: valueNode, file: file, key: key.isEmpty ? name : "\(key).\(name)")
            if let allowed, !allowed.contains(name) {
                throw YAMLError(file: file, line: keyNode.mark?.line, key: child.key,
                                "unknown key; allowed\(key.isEmpty ? "" : " in \(key)"): \(allowed.joined(separator: ", "))")
            }
            if let first = firstLine[name] {
                throw YAMLError(file: file, line: keyNode.mark?.line, key: child.key,
                                "appears twice\(first.map { " (first on line \($0))" } ?? ""); keep one")
            }
            firstLine[name] = keyNode.mark?.line
            entries.append((name, child))
        }
        return YAMLMapping(value: self, entries: entries)
    }

    /// "a list", "a mapping" or "a value".
    public var shape: String { node.mapping != nil ? "a mapping" : node.sequence != nil ? "a list" : "a value" }

    /// The scalar quoted, or the shape.
    var describe: String { node.scalar.map { "'\($0.string)'" } ?? shape }
}

/// A checked mapping: its entries in file order, looked up by key.
public struct YAMLMapping {
    public let value: YAMLValue
    public let entries: [(key: String, value: YAMLValue)]

    public subscript(key: String) -> YAMLValue? { entries.first { $0.key == key }?.value }

    /// The value of a key that must be present.
    public func required(_ key: String) throws -> YAMLValue {
        guard let child = self[key] else {
            throw YAMLError(file: value.file, line: value.line, key: value.key.isEmpty ? key : "\(value.key).\(key)", "missing")
        }
        return child
    }

    /// Present and not null.
    public func optional(_ key: String) -> YAMLValue? {
        guard let child = self[key], !child.isNull else { return nil }
        return child
    }
}
