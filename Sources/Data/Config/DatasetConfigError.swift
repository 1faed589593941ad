/// A mistake in a dataset config YAML, naming the file, line and key so it can be fixed.
public struct DatasetConfigError: Error, Equatable, CustomStringConvertible {
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

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(key.map { "'\($0)': " } ?? "")\(message)"
    }
}
