import Detection
import Foundation
import Imaging
import Support
import Weights
import Yams

/// A model description for training (`Configs/models/*.yaml` with architecture `ui-detector`):
/// architecture options, input size and pixel normalization. Unlike a weights header it need
/// not list classes — the experiment's data decides them — but when it does, they must match.
public struct DetectorModelFile: Equatable {
    public var file: String
    public var options: [String: String]
    public var inputWidth: Int, inputHeight: Int
    public var normalization: InputNormalization
    public var classes: [String]?

    public static func load(contentsOf url: URL) throws -> DetectorModelFile {
        let node: Node?
        do { node = try YAMLDocument.load(url, name: url.relativePath)?.node } catch let error as YAMLError {
            throw ExperimentConfigError(file: error.file, line: error.line, key: error.key ?? "model", message: error.message)
        }
        let context = ConfigContext(file: url.relativePath, overriddenKeys: [])
        let top = try ConfigMapping(node, path: "", context: context)
        let architecture = try top.mapping("architecture")
        let name = try architecture.string("name", default: "")
        guard name == UIDetectorConfiguration.architectureName else {
            throw architecture.error("name", "'\(name)' cannot be trained; `screenlab train` trains the \(UIDetectorConfiguration.architectureName) architecture")
        }
        var options: [String: String] = [:]
        if let optionsNode = architecture.value("options") {
            guard let mapping = optionsNode.mapping else { throw architecture.error("options", "expected a mapping of option: value") }
            for (key, value) in mapping {
                guard let k = key.scalar?.string, let v = value.scalar?.string else { throw architecture.error("options", "options are key: value pairs") }
                options[k] = v
            }
        }
        try architecture.finish()
        let input = try top.mapping("input")
        let width = try input.int("width", default: 256, range: 32...4096)
        let height = try input.int("height", default: 512, range: 32...4096)
        _ = try input.int("channels", default: 3, range: 3...3)
        try input.finish()
        let normalizationMap = try top.mapping("normalization")
        func triple(_ key: String, _ fallback: [Float]) throws -> [Float] {
            guard let node = normalizationMap.value(key) else { return fallback }
            guard let values = node.sequence?.compactMap({ YAMLValue.number($0).map(Float.init) }), values.count == 3, values.allSatisfy(\.isFinite) else {
                throw normalizationMap.error(key, "expected three numbers (R, G, B)")
            }
            return values
        }
        let mean = try triple("mean", [0, 0, 0]), std = try triple("std", [1, 1, 1])
        if let problem = PixelNormalization.problem(mean: mean, std: std) { throw normalizationMap.error("std", problem) }
        try normalizationMap.finish()
        var classes: [String]?
        if let classNodes = top.value("classes") {
            guard let list = classNodes.sequence?.compactMap({ $0.scalar?.string }) else { throw top.error("classes", "expected a list of class names") }
            classes = list
        }
        try top.finish()
        return DetectorModelFile(file: url.relativePath, options: options, inputWidth: width, inputHeight: height,
                                 normalization: InputNormalization(mean: mean, std: std), classes: classes)
    }

    /// The detector configuration for `classes`, with the experiment's input-size override.
    public func configuration(classes: [String], inputWidth: Int?, inputHeight: Int?) throws -> UIDetectorConfiguration {
        if let own = self.classes, own != classes {
            throw ExperimentConfigError(file: file, line: nil, key: "classes", message: "lists \(own.count) classes \(own) but the data has \(classes.count): \(classes); remove classes: to take them from the data")
        }
        do {
            return try UIDetectorConfiguration(options: options, classCount: classes.count,
                                               inputHeight: inputHeight ?? self.inputHeight, inputWidth: inputWidth ?? self.inputWidth)
        } catch {
            throw ExperimentConfigError(file: file, line: nil, key: "architecture.options", message: "\(error)")
        }
    }
}
