import TestSupport
import Autograd
import NN
import Tensor
import XCTest

/// Tier 3: the engine learns.
final class EndToEndTests: XCTestCase {
    func train(seed: UInt64, steps: Int, images: Int) throws -> [Float] {
        let (x, y) = try BarImages.make(count: images, size: 16, seed: seed)
        let model = try TinyConvNet(seed: seed)
        let optimizer = try AdamW(parameters: model.trainableParameters(), learningRate: 0.03, weightDecay: 0)
        var losses: [Float] = []
        for step in 0..<steps {
            let result = try TrainingStep.run(images: x, step: step, forward: { try model($0) }, objective: { logits in
                let loss = try logits.binaryCrossEntropyWithLogits(targets: y)
                return StepLoss(total: loss, terms: [("bce", loss.value.scalarValue)])
            }, optimizer: optimizer)
            losses.append(result.loss)
        }
        return losses
    }

    func testSmallConvNetOverfitsTwoImages() throws {
        let losses = try train(seed: 5, steps: 150, images: 2)
        XCTAssertGreaterThanOrEqual(losses[0] / losses.last!, 100, "loss only fell from \(losses[0]) to \(losses.last!)")
    }

    func testSameSeedGivesTheSameRun() throws {
        XCTAssertEqual(try train(seed: 9, steps: 5, images: 4), try train(seed: 9, steps: 5, images: 4))
    }
}
