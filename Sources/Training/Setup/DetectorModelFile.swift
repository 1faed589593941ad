import Detection
import Foundation
import Imaging
import Support
import Weights

/// A model description for training (`Configs/models/*.yaml` with architecture `ui-detector`),
/// read by the one model-file reader with its training rules (`ModelFile`): architecture
/// options, input size and pixel normalization. Unlike a weights header it need not list
/// classes — the experiment's data decides them — but when it does, they must match.
public struct DetectorModelFile: Equatable {
    public var file: String
    public var options: [String: String]
    public var inputWidth: Int, inputHeight: Int
    public var normalization: InputNormalization
    public var classes: [String]?

    public static func load(contentsOf url: URL) throws -> DetectorModelFile {
        let model = try ModelFile.load(contentsOf: url, for: .training)
        guard model.architecture.name == UIDetectorConfiguration.architectureName else {
            throw model.error(at: "architecture.name", "'\(model.architecture.name)' cannot be trained; `screenlab train` trains the \(UIDetectorConfiguration.architectureName) architecture")
        }
        if let problem = PixelNormalization.problem(mean: model.normalization.mean, std: model.normalization.std) {
            throw model.error(at: "normalization.std", problem)
        }
        return DetectorModelFile(file: model.file, options: model.architecture.options, inputWidth: model.input.width, inputHeight: model.input.height,
                                 normalization: model.normalization, classes: model.classes)
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
