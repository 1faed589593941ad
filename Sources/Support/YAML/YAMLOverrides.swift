import Yams

/// `--set key.path=value` applied to a document before it is read, so an override is checked
/// exactly like the file's own keys; its keys are recorded in `YAMLReadOptions`, so errors about
/// them (a typo, a wrong type) name `--set` instead of a line of the file.
public enum YAMLOverrides {
    /// The document with every override applied; an empty document is an empty mapping.
    public static func apply(_ overrides: [String], to document: YAMLValue?, file: String, limits: YAMLLimits = YAMLLimits()) throws -> YAMLValue {
        var options = document?.options ?? YAMLReadOptions()
        var root = document?.node ?? Node.mapping(Node.Mapping([]))
        let source = options.overrideSource
        for text in overrides {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw YAMLError(file: source, line: nil, key: nil, "'\(text)' is not key=value (e.g. --set epochs=1, --set optimizer.lr=0.01)")
            }
            let path = text[..<equals].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let dotted = path.joined(separator: ".")
            guard !path.contains(where: \.isEmpty) else { throw YAMLError(file: source, line: nil, key: dotted, "empty key segment") }
            guard path.count <= limits.maximumDepth else {
                throw YAMLError(file: source, line: nil, key: nil, "a key of more than \(limits.maximumDepth) parts; ScreenLab's configs are a few levels deep")
            }
            let valueText = String(text[text.index(after: equals)...])
            // The entry point's limits apply to a value typed on the command line too.
            let value: Node
            do { value = try YAMLDocument.parse(valueText, file: source, limits: limits)?.node ?? Node("null") } catch let error as YAMLError {
                throw YAMLError(file: source, line: nil, key: dotted, "value '\(valueText)': \(error.message)")
            }
            try set(value, at: path[...], in: &root, full: path, source: source)
            options.overriddenKeys.insert(dotted)
        }
        return YAMLValue(node: root, file: document?.file ?? file, key: "", options: options)
    }

    private static func set(_ value: Node, at path: ArraySlice<String>, in node: inout Node, full: [String], source: String) throws {
        guard var mapping = node.mapping else {
            throw YAMLError(file: source, line: nil, key: full.joined(separator: "."),
                            "'\(full[..<(full.count - path.count)].joined(separator: "."))' is not a mapping, so it has no key '\(path.first!)'")
        }
        let key = path.first!
        if path.count == 1 {
            mapping[key] = value
        } else {
            var child = mapping[key] ?? Node.mapping(Node.Mapping([]))
            // `ema: false` or `x: null` in the file, then `--set ema.decay=…`: the section is made.
            if let text = child.scalar?.string, text == "null" || text == "false" { child = Node.mapping(Node.Mapping([])) }
            try set(value, at: path.dropFirst(), in: &child, full: full, source: source)
            mapping[key] = child
        }
        node = .mapping(mapping)
    }
}
