/// A mistake in a YAML config: the file (or `--set` for a command-line override), the line, the
/// dotted key (`optimizer.lr`, `classes[2].confidence`) and what is wrong and what to do. It is
/// the one error type of every config reader (experiments, model configs, dataset configs,
/// augmentation presets, thresholds files), so they all read alike:
/// `Configs/augment/x.yaml:3 (mosaic.centre): unknown key — did you mean 'center'? (known here: …)`.
public struct YAMLError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String

    public init(file: String, line: Int?, key: String?, _ message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// The spelling of the readers that had their own error type (`ExperimentConfigError`).
    public init(file: String, line: Int?, key: String?, message: String) {
        self.init(file: file, line: line, key: key, message)
    }

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? "")\(key.map { " (\($0))" } ?? ""): \(message)"
    }
}
