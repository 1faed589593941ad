import Foundation
import Support
import Yams

/// A resolved config flattened to dotted keys (`optimizer.lr` → `0.002`): what `compare`
/// diffs (only the keys that differ, as `dvc exp diff` shows params) and what the registry
/// reads the dataset and splits from.
public enum ConfigKeys {
    public static func flatten(yaml text: String, file: String) throws -> [String: String] {
        guard let root = try YAMLDocument.parse(text, file: file) else { return [:] }
        var out: [String: String] = [:]
        flatten(root.node, key: "", into: &out)
        return out
    }

    static func flatten(_ node: Node, key: String, into out: inout [String: String]) {
        switch node {
        case .mapping(let mapping):
            if mapping.isEmpty { out[key] = "{}" }
            for (name, value) in mapping {
                let part = name.scalar?.string ?? "?"
                flatten(value, key: key.isEmpty ? part : "\(key).\(part)", into: &out)
            }
        case .sequence(let sequence):
            // A list of plain values reads best on one line; a list of mappings gets an index per item.
            if sequence.allSatisfy({ $0.scalar != nil }) {
                out[key] = "[" + sequence.compactMap { $0.scalar?.string }.joined(separator: ", ") + "]"
            } else {
                for (index, item) in sequence.enumerated() { flatten(item, key: "\(key)[\(index)]", into: &out) }
            }
        case .scalar(let scalar):
            out[key] = scalar.string
        }
    }

    /// Keys whose values differ between configs (a key missing from one counts as different),
    /// sorted; each row holds one value per config, nil where the key is absent.
    public static func differences(_ configs: [[String: String]]) -> [(key: String, values: [String?])] {
        let keys = Set(configs.flatMap(\.keys)).sorted()
        return keys.compactMap { key in
            let values = configs.map { $0[key] }
            return Set(values.map { $0 ?? "\u{0}" }).count > 1 ? (key, values) : nil
        }
    }
}
