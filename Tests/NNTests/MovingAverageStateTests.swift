import TestSupport
import Autograd
import NN
import Tensor
import XCTest

final class MovingAverageStateTests: XCTestCase {
    func testSavedAverageResumesExactly() throws {
        let training = try BarTraining()
        let model = try TinyConvNet(width: 4)
        let optimizer = try SGD(parameters: model.namedParameters(), learningRate: 0.1, momentum: 0.9)
        let ema = try ExponentialMovingAverage(model: model, decay: 0.9, rampUpdates: 3)
        for _ in 0..<3 { try training.step(model, optimizer); try ema.update(from: model) }

        let resumed = try ExponentialMovingAverage(model: try TinyConvNet(width: 4, seed: 5), decay: 0.9, rampUpdates: 3)
        try resumed.loadState(tensors: stateDictionary(ema.stateTensors()), updates: ema.updates)
        XCTAssertEqual(resumed.updates, 3)
        for _ in 0..<2 {
            try training.step(model, optimizer)
            try ema.update(from: model)
            try resumed.update(from: model)
        }
        assertBitIdentical(resumed.stateTensors(), ema.stateTensors(), "average after resuming")
        XCTAssertEqual(resumed.updates, ema.updates)
    }

    func testAverageIsAppliedForEvaluationAndTheTrainingWeightsRestored() throws {
        let training = try BarTraining()
        let model = try TinyConvNet(width: 4)
        let optimizer = try SGD(parameters: model.namedParameters(), learningRate: 0.1)
        let ema = try ExponentialMovingAverage(model: model, decay: 0.5, rampUpdates: 1e-9)
        try training.step(model, optimizer)
        try ema.update(from: model)
        let trained = model.stateTensors()
        let averaged = try ema.withAverage(appliedTo: model) { model.stateTensors() }
        assertBitIdentical(averaged, ema.stateTensors(), "inside withAverage the model holds the average")
        assertBitIdentical(model.stateTensors(), trained, "afterwards the training weights are back")

        struct Stop: Error {}
        XCTAssertThrowsError(try ema.withAverage(appliedTo: model) { throw Stop() })
        assertBitIdentical(model.stateTensors(), trained, "restored also when the evaluation throws")

        let replaced = try ema.applyAverage(to: model)
        try model.load(state: replaced)
        assertBitIdentical(model.stateTensors(), trained, "applyAverage returns what load(state:) restores")
        XCTAssertThrowsError(try ema.applyAverage(to: try TinyConvNet(width: 8)))
    }

    func testLoadStateRefusesAnotherModelsAverageAndChangesNothing() throws {
        let model = try TinyConvNet(width: 4)
        let ema = try ExponentialMovingAverage(model: model, decay: 0.5)
        try ema.update(from: model)
        let before = ema.stateTensors()
        var state = stateDictionary(before)
        let owner = "ExponentialMovingAverage"
        XCTAssertThrowsError(try ema.loadState(tensors: state, updates: -1)) {
            XCTAssertEqual($0 as? StateLoadError, .invalidCounter(owner: owner, name: "updates", value: -1, reason: "an update count is never negative"))
        }
        state["extra.weight"] = try Tensor(zeros: [1])
        XCTAssertThrowsError(try ema.loadState(tensors: state, updates: 4)) { XCTAssertEqual($0 as? StateLoadError, .unknownParameter(owner: owner, name: "extra.weight")) }
        state["extra.weight"] = nil
        state["classifier.bias"] = try Tensor(zeros: [2])
        XCTAssertThrowsError(try ema.loadState(tensors: state, updates: 4)) {
            XCTAssertEqual($0 as? StateLoadError, .shapeMismatch(owner: owner, name: "classifier.bias", expected: [1], found: [2]))
        }
        state["classifier.bias"] = nil
        XCTAssertThrowsError(try ema.loadState(tensors: state, updates: 4)) { XCTAssertTrue("\($0)".contains("lacks 'classifier.bias'"), "\($0)") }
        assertBitIdentical(ema.stateTensors(), before, "after refused loads")
        XCTAssertEqual(ema.updates, 1)
    }
}
