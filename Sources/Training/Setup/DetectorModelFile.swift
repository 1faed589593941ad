import Detection
import Foundation
import Imaging
import Support
import Weights

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
        let top = try ConfigMapping(document: YAMLDocument.load(url, name: url.relativePath), file: url.relativePath)
        let architecture = try top.mapping("architecture")
        let name = try architecture.string("name", default: "")
        guard name == UIDetectorConfiguration.architectureName else {
            throw architecture.error("name", "'\(name)' cannot be trained; `screenlab train` trains the \(UIDetectorConfiguration.architectureName) architecture")
        }
        var options: [String: String] = [:]
        // Option names are the architecture's (checked when the detector is configured).
        for (key, value) in try architecture.mapping("options").entries { options[key] = try value.scalarText() }
        try architecture.finish()
        let input = try top.mapping("input")
        let width = try input.int("width", default: 256, range: 32...4096)
        let height = try input.int("height", default: 512, range: 32...4096)
        _ = try input.int("channels", default: 3, range: 3...3)
        try input.finish()
        let normalizationMap = try top.mapping("normalization")
        let mean = try normalizationMap.numbers("mean", count: 3)?.map(Float.init) ?? [0, 0, 0]
        let std = try normalizationMap.numbers("std", count: 3)?.map(Float.init) ?? [1, 1, 1]
        if let problem = PixelNormalization.problem(mean: mean, std: std) { throw normalizationMap.error("std", problem) }
        try normalizationMap.finish()
        let classes = try top.names("classes", unique: true)
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
