import Support

/// A preset that cannot be used, with the file, line and key to fix.
public struct PresetError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int?
    public let message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// A YAML-level problem (unreadable file, syntax, limits) in the preset's words.
    init(_ error: YAMLError) {
        self.init(file: error.file, line: error.line, message: (error.key.map { "'\($0)': " } ?? "") + error.message)
    }

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
