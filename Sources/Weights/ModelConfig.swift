import Foundation
import Support

/// A model description (`Configs/models/*.yaml`): architecture, input size, normalization and
/// class list — the header fields a weights file must agree with. Unknown keys are errors
/// naming the key and its line.
public struct ModelConfig: Equatable {
    public var architecture: ModelArchitecture
    public var input: InputSpec
    public var normalization: InputNormalization
    public var classes: [String]

    public init(architecture: ModelArchitecture, input: InputSpec, normalization: InputNormalization, classes: [String]) {
        self.architecture = architecture
        self.input = input
        self.normalization = normalization
        self.classes = classes
    }

    public static func load(contentsOf url: URL) throws -> ModelConfig {
        try ModelFile.load(contentsOf: url, for: .weights).weightsConfig()
    }

    /// Through the one model-file reader (`ModelFile`, weights rules): every mistake is a
    /// `YAMLError` naming the file, line and dotted key, the header's rules included (a null is
    /// refused, not taken as absent).
    public static func parse(_ text: String, file: String) throws -> ModelConfig {
        try ModelFile.parse(text, file: file, for: .weights).weightsConfig()
    }

    /// The line of a header key (`architecture.options.fpn_channels`, `classes[2]`) in the config,
    /// or of the nearest enclosing key that is there.
    static func line(of key: String, in document: YAMLValue) -> Int? {
        var value = document
        for part in key.split(separator: ".") {
            guard let child = (try? value.mapping())?[String(part.prefix { $0 != "[" })] else { break }
            value = child
            if let open = part.firstIndex(of: "["), let index = Int(part[part.index(after: open)...].dropLast()),
               let items = try? value.list(), items.indices.contains(index) {
                value = items[index]
            }
        }
        return value.line
    }

    /// Whole-number options size the network (channels, anchors per cell): a typo such as
    /// `fpn_channels: 99999999999` aborted trying to allocate 51 TB, and 6400 took 19 s and
    /// 5.8 GB before failing. So they are bounded, and the parameter memory the reference
    /// detector would need is estimated from them, before any model is built.
    public static let maximumSizeOption = 4096
    public static let maximumParameterBytes = 1 << 30
    public static let maximumClasses = 10_000

    func checkSize(file: String) throws {
        guard classes.count <= Self.maximumClasses else {
            throw WeightsError.invalidHeader(file: file, key: "classes", reason: "\(classes.count) classes; at most \(Self.maximumClasses)")
        }
        for (key, value) in architecture.options.sorted(by: { $0.key < $1.key }) {
            let number = Double(value)
            if let number, !number.isFinite {
                throw WeightsError.invalidHeader(file: file, key: "architecture.options.\(key)", reason: "\(value) is not a finite number")
            }
            if let number, number.rounded() == number, abs(number) > Double(Self.maximumSizeOption) {
                throw WeightsError.invalidHeader(file: file, key: "architecture.options.\(key)",
                                                 reason: "\(value) is beyond \(Self.maximumSizeOption); sizes this large are a typo (the reference model uses 64 FPN channels)")
            }
        }
        if let bytes = estimatedParameterBytes(), bytes > Double(Self.maximumParameterBytes) {
            throw WeightsError.invalidHeader(file: file, key: "architecture.options",
                                             reason: String(format: "this model would need about %.1f GB of parameters (limit %.1f GB); choose smaller sizes",
                                                            bytes / 1e9, Double(Self.maximumParameterBytes) / 1e9))
        }
    }

    /// Float32 parameter bytes of a `reference-detector` (nil for other architectures), from the
    /// shapes in Sources/Detection: FPN 3×3 outputs and the head's first 3×3 (4 · 9C²), the head
    /// output (9 · C · A(K+4)), the laterals (C · 1792 · m) and MobileNetV1 (≈ 3.2M · m²).
    func estimatedParameterBytes() -> Double? {
        guard architecture.name == "reference-detector" else { return nil }
        let c = Double(architecture.options["fpn_channels"].flatMap(Int.init) ?? 64)
        let anchors = Double(architecture.options["anchors_per_cell"].flatMap(Int.init) ?? 3)
        let width = architecture.options["width_multiplier"].flatMap(Double.init) ?? 0.5
        let outputs = anchors * Double(classes.count + 4)
        let parameters = 36 * c * c + 9 * c * outputs + 1792 * width * c + 3.2e6 * width * width
        return 4 * parameters
    }

    /// A header for weights of this model.
    public func header(provenance: Provenance, thresholds: [ClassThreshold]? = nil) -> WeightsHeader {
        WeightsHeader(architecture: architecture, input: input, normalization: normalization, classes: classes,
                      thresholds: thresholds, provenance: provenance)
    }

    /// Checks that a header describes this model; the first differing field is reported.
    public func check(_ header: WeightsHeader, weightsFile: String, configFile: String) throws {
        let differences: [(String, Bool, String, String)] = [
            ("architecture", header.architecture == architecture, describe(header.architecture), describe(architecture)),
            ("input", header.input == input, describe(header.input), describe(input)),
            ("classes", header.classes == classes, "\(header.classes)", "\(classes)"),
            ("normalization", header.normalization == normalization, "\(header.normalization)", "\(normalization)"),
        ]
        if let (key, _, found, expected) = differences.first(where: { !$0.1 }) {
            throw WeightsError.invalidConfig(file: configFile, key: key,
                                             reason: "\(weightsFile) has \(key) \(found) but this config says \(expected)")
        }
    }

    private func describe(_ architecture: ModelArchitecture) -> String {
        architecture.name + " " + architecture.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    private func describe(_ input: InputSpec) -> String { "\(input.width)x\(input.height)x\(input.channels)" }
}

/// The one reader of a model file (`Configs/models/*.yaml`), for its two uses:
/// - `.weights` (`weights import`, a weights header): every section and the class list are
///   required and a null is refused, as in a header; the header's rules are checked at the
///   line of the key they name (`ModelConfig`).
/// - `.training` (`screenlab train`, `bench`): read like an experiment file — a null means
///   absent, input defaults to 256×512 (32…4096 a side, 3 channels), normalization to none, and
///   the classes may be left to the data (`DetectorModelFile`).
/// Both refuse unknown keys at once, naming the closest known one.
public struct ModelFile {
    public enum Use: Sendable { case weights, training }

    public var file: String
    public var architecture: ModelArchitecture
    public var input: InputSpec
    public var normalization: InputNormalization
    /// Nil when a training model file leaves the classes to the data.
    public var classes: [String]?
    private let document: YAMLValue?

    public static func load(contentsOf url: URL, for use: Use) throws -> ModelFile {
        let bytes = try WeightsError.readingFile { try ReadableFile.contents(of: url) }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw WeightsError.unreadable(file: url.relativePath, reason: "not UTF-8 text")
        }
        return try parse(text, file: url.relativePath, for: use)
    }

    public static func parse(_ text: String, file: String, for use: Use) throws -> ModelFile {
        let training = use == .training
        let options = training ? YAMLReadOptions() : .nullsRefused
        let document = try YAMLDocument.parse(text, file: file, options: options)
        if document == nil, !training {
            throw YAMLError(file: file, line: nil, key: nil, "empty model config; it needs architecture, input, normalization and classes")
        }
        let top = try document.map { try $0.mapping(allowed: ["architecture", "input", "normalization", "classes"]) }
            ?? .empty(file: file, key: "", options: options)
        // A section: required for weights, optional (its keys take their defaults) for training.
        func section(_ key: String, _ allowed: [String]) throws -> YAMLMapping {
            guard let value = training ? top.value(key) : try top.required(key) else { return .empty(file: file, key: key, options: options) }
            return try value.mapping(allowed: allowed)
        }
        let architectureMap = try section("architecture", ["name", "options"])
        var architectureOptions: [String: String] = [:]
        // Option names are the architecture's (checked when the model is built); values are text.
        for (name, value) in try architectureMap.value("options")?.mapping().entries ?? [] { architectureOptions[name] = try value.scalarText() }
        let architecture = ModelArchitecture(name: try architectureMap.required("name").string(), options: architectureOptions)

        let inputMap = try section("input", ["width", "height", "channels"])
        let normalizationMap = try section("normalization", ["mean", "std"])
        let input: InputSpec, normalization: InputNormalization, classes: [String]?
        if training {
            input = InputSpec(width: try inputMap.int("width", default: 256, range: 32...4096), height: try inputMap.int("height", default: 512, range: 32...4096),
                              channels: try inputMap.int("channels", default: 3, range: 3...3))
            normalization = InputNormalization(mean: try normalizationMap.numbers("mean", count: 3)?.map(Float.init) ?? [0, 0, 0],
                                               std: try normalizationMap.numbers("std", count: 3)?.map(Float.init) ?? [1, 1, 1])
            classes = try top.names("classes", unique: true)
        } else {
            input = InputSpec(width: try inputMap.required("width").int(), height: try inputMap.required("height").int(),
                              channels: try inputMap.value("channels")?.int() ?? 3)
            normalization = InputNormalization(mean: try normalizationMap.required("mean").numbers().map(Float.init),
                                               std: try normalizationMap.required("std").numbers().map(Float.init))
            classes = try top.required("classes").names(unique: true)
        }
        return ModelFile(file: file, architecture: architecture, input: input, normalization: normalization, classes: classes, document: document)
    }

    /// An error about `key` (`architecture.name`, `classes[2]`) at its line in the file, or at the
    /// nearest enclosing key that is there.
    public func error(at key: String, _ message: String) -> YAMLError {
        YAMLError(file: file, line: document.flatMap { ModelConfig.line(of: key, in: $0) }, key: key, message)
    }

    /// The weights use: the header's rules and the size bounds, at the line of the key they name.
    func weightsConfig() throws -> ModelConfig {
        let config = ModelConfig(architecture: architecture, input: input, normalization: normalization, classes: classes ?? [])
        do {
            try config.checkSize(file: file)
            try config.header(provenance: Provenance(created: "-")).validate(file: file)
        } catch let WeightsError.invalidHeader(_, key, reason) {
            throw error(at: key, reason)
        }
        return config
    }
}
