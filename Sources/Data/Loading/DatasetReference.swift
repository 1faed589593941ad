import Foundation

/// `PATH[:SPLIT]` as typed on the command line: a dataset config YAML, a YOLO folder or a
/// COCO JSON, optionally narrowed to one split (`Configs/datasets/vins-ui.yaml:val`).
public struct DatasetReference: Equatable, CustomStringConvertible {
    public var path: String
    public var split: String?

    public init(path: String, split: String? = nil) {
        self.path = path
        self.split = split
    }

    /// The text after the last `:` is a split when it is a plain name (no `/`) and the whole
    /// text is not itself an existing path.
    public static func parse(_ text: String) -> DatasetReference {
        guard !FileManager.default.fileExists(atPath: text), let colon = text.lastIndex(of: ":") else {
            return DatasetReference(path: text)
        }
        let split = String(text[text.index(after: colon)...])
        guard !split.isEmpty, !split.contains("/") else { return DatasetReference(path: text) }
        return DatasetReference(path: String(text[..<colon]), split: split)
    }

    public var description: String { split.map { "\(path):\($0)" } ?? path }
}
