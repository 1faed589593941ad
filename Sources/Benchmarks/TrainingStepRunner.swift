import Autograd
import Detection
import Foundation
import NN
import Tensor

/// The reference detector's training step — the one `bench engine` times (forward, Σx² loss,
/// backward, SGD at lr 1e-7) — on batches the caller supplies, e.g. straight from the data
/// loader, so that `bench loader` can time training fed by real batches.
public final class TrainingStepRunner {
    public let configuration: DetectorConfiguration
    let model: ReferenceDetector
    let optimizer: SGD

    public init(configuration: DetectorConfiguration = .reference, seed: UInt64 = 0) throws {
        self.configuration = configuration
        model = try ReferenceDetector(configuration: configuration, seed: seed)
        model.train()
        optimizer = try SGD(parameters: model.trainableParameters(), learningRate: 1e-7)
    }

    /// One step on `images` ([N, 3, inputHeight, inputWidth]); returns the loss.
    @discardableResult
    public func step(_ images: Tensor) throws -> Float {
        let expected = [3, configuration.inputHeight, configuration.inputWidth]
        guard images.shape.count == 4, Array(images.shape.dropFirst()) == expected else {
            throw TrainingInputError(message: "training batch has shape \(images.shape); the detector takes [N, \(expected.map(String.init).joined(separator: ", "))]")
        }
        return try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: images).loss
    }
}

public struct TrainingInputError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
