/// A problem in a YAML file: the file, the line, the dotted key (`classes[2].confidence`) and
/// what is wrong. Readers that have their own error type convert it, keeping all four.
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

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(key.map { "'\($0)': " } ?? "")\(message)"
    }
}
