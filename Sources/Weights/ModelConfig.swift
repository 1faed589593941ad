import Foundation
import Support
import Yams

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
        let bytes = try WeightsError.readingFile { try ReadableFile.contents(of: url) }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw WeightsError.unreadable(file: url.relativePath, reason: "not UTF-8 text")
        }
        return try parse(text, file: url.relativePath)
    }

    public static func parse(_ text: String, file: String) throws -> ModelConfig {
        let root: Node?
        do {
            root = try YAMLDocument.parse(text, file: file)?.node
        } catch let error as YAMLError {
            throw WeightsError.invalidConfig(file: file, key: error.key ?? "(document)",
                                             reason: error.message + (error.line.map { " (line \($0))" } ?? ""))
        }
        let reader = ConfigReader(file: file)
        let top = try reader.mapping(root, key: "(document)", known: ["architecture", "input", "normalization", "classes"])
        let architectureMap = try reader.mapping(top["architecture"], key: "architecture", known: ["name", "options"])
        var options: [String: String] = [:]
        if let optionsNode = architectureMap["options"] {
            guard optionsNode.mapping != nil else {
                throw reader.fail("architecture.options", optionsNode, "expected a mapping of option: value")
            }
            for (name, value) in try reader.entries(optionsNode, key: "architecture.options") {
                options[name] = try reader.scalar(value, key: "architecture.options.\(name)")
            }

        }
        let architecture = ModelArchitecture(name: try reader.scalar(architectureMap["name"], key: "architecture.name"), options: options)
        let inputMap = try reader.mapping(top["input"], key: "input", known: ["width", "height", "channels"])
        let input = InputSpec(width: try reader.int(inputMap["width"], key: "input.width"),
                              height: try reader.int(inputMap["height"], key: "input.height"),
                              channels: try inputMap["channels"].map { try reader.int($0, key: "input.channels") } ?? 3)
        let normalizationMap = try reader.mapping(top["normalization"], key: "normalization", known: ["mean", "std"])
        let normalization = InputNormalization(mean: try reader.floats(normalizationMap["mean"], key: "normalization.mean"),
                                               std: try reader.floats(normalizationMap["std"], key: "normalization.std"))
        let classes = try reader.sequence(top["classes"], key: "classes").enumerated().map {
            try reader.scalar($0.element, key: "classes[\($0.offset)]")
        }
        let config = ModelConfig(architecture: architecture, input: input, normalization: normalization, classes: classes)
        try config.checkSize(file: file)
        // The same rules as a weights header; reported as config errors.
        do {
            try config.header(provenance: Provenance(created: "-")).validate(file: file)
        } catch let WeightsError.invalidHeader(_, key, reason) {
            throw WeightsError.invalidConfig(file: file, key: key, reason: reason)
        }
        return config
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
            throw WeightsError.invalidConfig(file: file, key: "classes", reason: "\(classes.count) classes; at most \(Self.maximumClasses)")
        }
        for (key, value) in architecture.options.sorted(by: { $0.key < $1.key }) {
            let number = Double(value)
            if let number, !number.isFinite {
                throw WeightsError.invalidConfig(file: file, key: "architecture.options.\(key)", reason: "\(value) is not a finite number")
            }
            if let number, number.rounded() == number, abs(number) > Double(Self.maximumSizeOption) {
                throw WeightsError.invalidConfig(file: file, key: "architecture.options.\(key)",
                                                 reason: "\(value) is beyond \(Self.maximumSizeOption); sizes this large are a typo (the reference model uses 64 FPN channels)")
            }
        }
        if let bytes = estimatedParameterBytes(), bytes > Double(Self.maximumParameterBytes) {
            throw WeightsError.invalidConfig(file: file, key: "architecture.options",
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

/// Typed YAML access; every error names the file, the dotted key and the line.
private struct ConfigReader {
    let file: String

    func fail(_ key: String, _ node: Node?, _ reason: String) -> WeightsError {
        let location = node?.mark.map { " (line \($0.line))" } ?? ""
        return .invalidConfig(file: file, key: key, reason: reason + location)
    }

    func mapping(_ node: Node?, key: String, known: Set<String>) throws -> [String: Node] {
        guard let node else { throw fail(key, nil, "missing") }
        guard node.mapping != nil else { throw fail(key, node, "expected a mapping") }
        var result: [String: Node] = [:]
        for (name, value) in try entries(node, key: key) {
            let path = key == "(document)" ? name : key + "." + name
            guard known.contains(name) else {
                let keyNode = node.mapping?.first { $0.key.scalar?.string == name }?.key
                throw fail(path, keyNode, "unknown key (known: \(known.sorted().joined(separator: ", ")))")
            }
            result[name] = value
        }
        return result
    }

    /// Support's strict mapping reader: text keys, each at most once (a repeated key was
    /// silently "last one wins").
    func entries(_ node: Node, key: String) throws -> [(String, Node)] {
        do {
            return try YAMLValue(node: node, file: file, key: key == "(document)" ? "" : key).mapping().entries.map { ($0.key, $0.value.node) }
        } catch let problem as YAMLError {
            throw WeightsError.invalidConfig(file: file, key: problem.key ?? key, reason: problem.message + (problem.line.map { " (line \($0))" } ?? ""))
        }
    }

    func sequence(_ node: Node?, key: String) throws -> [Node] {
        guard let node else { throw fail(key, nil, "missing") }
        guard let sequence = node.sequence else { throw fail(key, node, "expected a list") }
        return Array(sequence)
    }

    func scalar(_ node: Node?, key: String) throws -> String {
        guard let node else { throw fail(key, nil, "missing") }
        guard let scalar = node.scalar else { throw fail(key, node, "expected a single value") }
        return scalar.string
    }

    func int(_ node: Node?, key: String) throws -> Int {
        guard let node, let value = YAMLValue.integer(node) else { throw fail(key, node, node == nil ? "missing" : "expected an integer") }
        return value
    }

    func floats(_ node: Node?, key: String) throws -> [Float] {
        try sequence(node, key: key).enumerated().map { index, element in
            guard let value = YAMLValue.number(element) else { throw fail("\(key)[\(index)]", element, "expected a number") }
            return Float(value)
        }
    }
}
