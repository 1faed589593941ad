/// The tensors a weights file for `reference-detector` must hold, from the plain values a model
/// config or a weights header carries (architecture name, options as text, class count), so
/// `screenlab weights import` can check names and shapes without the CLI knowing the model.
extension ReferenceDetector {
    /// The architecture name configs and weights headers use for this model.
    public static let architectureName = "reference-detector"

    /// Option keys a config may set, with what each accepts.
    static let optionRules: [(key: String, expected: String)] = [
        ("anchors_per_cell", "a positive integer"),
        ("backbone", "mobilenet_v1 (the only backbone of reference-detector)"),
        ("fpn_channels", "a positive integer"),
        ("width_multiplier", "a number in [0.03125, 4] (at least one channel in the narrowest layer)"),
    ]

    /// The model's ordered `name, shape` list (parameters, then buffers), or nil when
    /// `architecture` is not a model ScreenLab has. Options left out take the reference values.
    public static func expectedState(architecture: String, options: [String: String],
                                     classCount: Int) throws -> [(name: String, shape: [Int])]? {
        guard architecture == architectureName else { return nil }
        let configuration = try DetectorConfiguration(referenceDetectorOptions: options, classCount: classCount)
        // Shapes do not depend on the seed or the input size.
        return try ReferenceDetector(configuration: configuration).stateShapes()
    }
}

extension DetectorConfiguration {
    /// The configuration the `architecture.options` of a `reference-detector` config describe
    /// (keys as in Configs/models/reference-detector.yaml); unknown keys and bad values throw.
    public init(referenceDetectorOptions options: [String: String], classCount: Int) throws {
        self.init(classCount: classCount)
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            guard let rule = ReferenceDetector.optionRules.first(where: { $0.key == key }) else {
                throw ReferenceDetectorOptionError.unknownOption(key: key, known: ReferenceDetector.optionRules.map(\.key))
            }
            let invalid = ReferenceDetectorOptionError.invalidValue(key: key, value: value, expected: rule.expected)
            switch key {
            case "backbone":
                guard value == "mobilenet_v1" else { throw invalid }
            case "width_multiplier":
                guard let number = Double(value), number >= 1.0 / 32, number <= 4 else { throw invalid }
                widthMultiplier = number
            case "fpn_channels":
                guard let number = Int(value), number > 0 else { throw invalid }
                fpnChannels = number
            default:  // anchors_per_cell
                guard let number = Int(value), number > 0 else { throw invalid }
                anchorsPerCell = number
            }
        }
    }
}

/// A `reference-detector` architecture option the model cannot be built with; the caller
/// prefixes the file it came from.
public enum ReferenceDetectorOptionError: Error, Equatable, CustomStringConvertible {
    case unknownOption(key: String, known: [String], architecture: String = "reference-detector")
    case invalidValue(key: String, value: String, expected: String)

    public var description: String {
        switch self {
        case let .unknownOption(key, known, architecture):
            return "architecture.options.\(key) is not an option of \(architecture) (known: \(known.joined(separator: ", ")))"
        case let .invalidValue(key, value, expected):
            return "architecture.options.\(key) is \(value); expected \(expected)"
        }
    }
}
