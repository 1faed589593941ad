/// An export that cannot be made, saying what to do.
public struct ExportError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// What `screenlab export --format` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// The network as an ONNX model (this target).
    case onnx
    /// The tensors and header only (`screenlab weights export`).
    case safetensors

    /// Case-insensitive; an unknown name throws listing the known ones.
    public init(parsing text: String) throws {
        guard let format = ExportFormat(rawValue: text.lowercased()) else {
            throw ExportError(message: "unknown export format '\(text)': use --format onnx (the network, for ONNX Runtime and "
                                  + "other ONNX consumers) or --format safetensors (the tensors and header only)")
        }
        self = format
    }
}
