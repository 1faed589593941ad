import TestSupport
import Autograd
import Detection
import NN
import Support
import Tensor
import XCTest

/// Frozen-backbone transfer: frozen parameters get no gradient and no update, and frozen
/// batch norms keep their running statistics.
final class FreezingTests: XCTestCase {
    func testFrozenStagesGetNoGradientNoUpdateAndKeepStatistics() throws {
        let config = DetectorConfiguration(inputHeight: 64, inputWidth: 32)
        let model = try ReferenceDetector(configuration: config, seed: 1)
        let frozenCount = model.freezeBackbone(stages: 2) // stem + stage3
        XCTAssertGreaterThan(frozenCount, 0)
        model.train()
        let before = Dictionary(uniqueKeysWithValues: model.stateTensors().map { ($0.name, $0.tensor.values) })
        let optimizer = try SGD(parameters: model.namedParameters(), learningRate: 0.1, momentum: 0.9, weightDecay: 1e-3)
        var rng = SeededRandom(seed: 2)
        let input = Initialization.normal(shape: [2, 3, 64, 32], standardDeviation: 1, rng: &rng)
        let tape = Tape()
        let outputs = try model(tape.constant(input))
        try tape.backward(try outputs.map { $0.sumOfSquares() }.dropFirst().reduce(outputs[0].sumOfSquares()) { try $0 + $1 })
        for (name, p) in model.namedParameters() {
            let frozen = name.hasPrefix("backbone.stem.") || name.hasPrefix("backbone.stage3.")
            XCTAssertEqual(p.isFrozen, frozen, name)
            if frozen { XCTAssertNil(p.gradient, "\(name) is frozen but got a gradient") } else { XCTAssertNotNil(p.gradient, name) }
        }
        try optimizer.step()
        for (name, tensor) in model.stateTensors() {
            let frozen = name.hasPrefix("backbone.stem.") || name.hasPrefix("backbone.stage3.")
            if frozen {
                XCTAssertEqual(tensor.values, before[name], "\(name) changed although frozen")
            } else if name.hasSuffix("running_mean") || name.hasSuffix(".weight") {
                XCTAssertNotEqual(tensor.values, before[name], "\(name) should have changed")
            }
        }
    }

    func testUnfreezeRestoresTraining() throws {
        let model = try TinyConvNet()
        XCTAssertEqual(model.freeze(prefixes: ["block1"]), 3)
        XCTAssertTrue(model.block1.bn.usesRunningStatistics)
        XCTAssertEqual(model.unfreeze(prefixes: ["block1"]), 3)
        XCTAssertFalse(model.block1.bn.usesRunningStatistics)
        XCTAssertEqual(model.trainableParameters().count, model.namedParameters().count)
    }
}
