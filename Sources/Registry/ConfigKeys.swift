import Foundation
import Support

/// A resolved config flattened to dotted keys (`optimizer.lr` → `0.002`): what `compare`
/// diffs (only the keys that differ, as `dvc exp diff` shows params) and what the registry
/// reads the dataset and splits from.
public enum ConfigKeys {
    public static func flatten(yaml text: String, file: String) throws -> [String: String] {
        guard let root = try YAMLDocument.parse(text, file: file) else { return [:] }
        var out: [String: String] = [:]
        try flatten(root, into: &out)
        return out
    }

    static func flatten(_ value: YAMLValue, into out: inout [String: String]) throws {
        if let text = value.scalar {
            out[value.key] = text
        } else if value.isList {
            let items = try value.list()
            // A list of plain values reads best on one line; a list of mappings gets an index per item.
            if items.allSatisfy({ $0.scalar != nil }) {
                out[value.key] = "[" + items.compactMap(\.scalar).joined(separator: ", ") + "]"
            } else {
                for item in items { try flatten(item, into: &out) }
            }
        } else {
            let entries = try value.mapping().entries
            if entries.isEmpty { out[value.key] = "{}" }
            for (_, child) in entries { try flatten(child, into: &out) }
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
