/// The tensors (names and shapes) a weights file for a model config must hold, for every
/// architecture ScreenLab has a model of, so `weights import` checks a safetensors file against
/// the model it will be loaded into rather than only against the config's header fields.
public enum ExpectedModelState {
    /// nil for an architecture ScreenLab has no model of (only the header can be checked then).
    public static func shapes(architecture: String, options: [String: String], classCount: Int,
                              inputHeight: Int, inputWidth: Int) throws -> [(name: String, shape: [Int])]? {
        guard architecture == UIDetectorConfiguration.architectureName else {
            return try ReferenceDetector.expectedState(architecture: architecture, options: options, classCount: classCount)
        }
        let configuration = try UIDetectorConfiguration(options: options, classCount: classCount, inputHeight: inputHeight, inputWidth: inputWidth)
        return try UIDetector(configuration: configuration).stateShapes()
    }
}
