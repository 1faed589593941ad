import TestSupport
import Autograd
@testable import NN
import Tensor
import XCTest

/// Export → load into a fresh optimizer over a fresh copy of the model → the next steps are
/// bit-identical to the uninterrupted run's.
final class OptimizerStateTests: XCTestCase {
    typealias MakeOptimizer = (TinyConvNet) throws -> Optimizer

    func assertResumesExactly(_ makeOptimizer: MakeOptimizer, freezeFirst: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let training = try BarTraining()
        let model = try TinyConvNet(width: 4)
        model.freeze(prefixes: freezeFirst)
        let optimizer = try makeOptimizer(model)
        for _ in 0..<2 { try training.step(model, optimizer) }
        model.unfreeze(prefixes: freezeFirst)  // parameters with different step counts
        try training.step(model, optimizer)

        let savedModel = model.stateTensors(), savedTensors = optimizer.stateTensors(), savedCounters = optimizer.stateCounters()
        let savedValues = savedTensors.map { $0.tensor.values }
        let resumedModel = try TinyConvNet(width: 4, seed: 99)
        try resumedModel.load(state: stateDictionary(savedModel))
        let resumed = try makeOptimizer(resumedModel)
        try resumed.loadState(tensors: stateDictionary(savedTensors), counters: savedCounters)
        assertBitIdentical(resumed.stateTensors(), savedTensors, "loaded state", file: file, line: line)
        XCTAssertEqual(resumed.stateCounters(), savedCounters, file: file, line: line)

        for _ in 0..<3 {
            try training.step(model, optimizer)
            try training.step(resumedModel, resumed)
        }
        assertBitIdentical(resumedModel.stateTensors(), model.stateTensors(), "weights after resuming", file: file, line: line)
        assertBitIdentical(resumed.stateTensors(), optimizer.stateTensors(), "optimizer state after resuming", file: file, line: line)
        XCTAssertEqual(resumed.stateCounters(), optimizer.stateCounters(), file: file, line: line)
        XCTAssertEqual(savedTensors.map { $0.tensor.values }, savedValues, "an export is a snapshot: later steps leave it alone", file: file, line: line)
    }

    func testSGDWithNesterovResumesBitIdentically() throws {
        try assertResumesExactly({ model in
            try SGD(parameters: model.namedParameters(), groups: [ParameterGroup(prefixes: ["block1"], learningRateMultiplier: 0.1)],
                    learningRate: 0.05, momentum: 0.9, weightDecay: 5e-4, nesterov: true, decayPolicy: .exceptBiasesAndNormalization)
        })
    }

    func testAdamWResumesBitIdenticallyWithPerParameterStepCounts() throws {
        try assertResumesExactly({ model in
            try AdamW(parameters: model.namedParameters(), groups: [ParameterGroup(prefixes: ["classifier"], learningRateMultiplier: 2, weightDecay: 0.1)],
                      learningRate: 0.01, weightDecay: 0.01, decayPolicy: .exceptBiasesAndNormalization)
        }, freezeFirst: ["block1"])
    }

    func testStateNamesAndCounters() throws {
        let model = try TinyConvNet(width: 4)
        model.freeze(prefixes: ["block1"])
        let adam = try AdamW(parameters: model.namedParameters())
        let training = try BarTraining()
        for _ in 0..<2 { try training.step(model, adam) }
        XCTAssertEqual(adam.stateTensors().map(\.name).prefix(2), ["adam.m/block2.weight", "adam.v/block2.weight"])
        XCTAssertNil(adam.stateCounters()["adam.step/block1.weight"], "frozen: no state yet")
        XCTAssertEqual(adam.stateCounters()["adam.step/classifier.bias"], 2)

        let sgd = try SGD(parameters: model.namedParameters(), learningRate: 0.1, momentum: 0.9)
        try training.step(model, sgd)
        XCTAssertEqual(sgd.stateTensors().first?.name, "momentum/block2.weight")
        XCTAssertEqual(sgd.stateCounters(), [:])
    }

    /// Step counts are Ints end to end: past 2^24, where Float stops counting, they stay exact.
    func testStepCountsBeyondFloatPrecisionStayExact() throws {
        let p = Parameter(try Tensor(shape: [2], values: [1, 2]))
        let adam = try AdamW(parameters: [("w", p)])
        let large = (1 << 24) + 1
        try adam.loadState(tensors: ["adam.m/w": try Tensor(zeros: [2]), "adam.v/w": try Tensor(zeros: [2])], counters: ["adam.step/w": large])
        XCTAssertEqual(adam.stateCounters(), ["adam.step/w": large])
        p.gradient = try Tensor(shape: [2], values: [0.1, 0.2])
        try adam.step()
        XCTAssertEqual(adam.stateCounters(), ["adam.step/w": large + 1])
    }

    func testLoadStateRefusesWhatDoesNotFitAndChangesNothing() throws {
        let p = Parameter(try Tensor(shape: [2], values: [1, 2]))
        p.gradient = try Tensor(shape: [2], values: [0.5, 0.5])
        let sgd = try SGD(parameters: [("head.bias", p)], learningRate: 0.1, momentum: 0.9)
        try sgd.step()
        let before = sgd.stateTensors()
        let two = try Tensor(zeros: [2])
        let sgdCases: [([String: Tensor], [String: Int], StateLoadError)] = [
            (["adam.m/head.bias": two], [:], .unknownName(owner: "SGD", name: "adam.m/head.bias", stores: "only 'momentum/<parameter>'")),
            (["momentum/head.weight": two], [:], .unknownParameter(owner: "SGD", name: "momentum/head.weight")),
            (["momentum/head.bias": try Tensor(zeros: [3])], [:], .shapeMismatch(owner: "SGD", name: "momentum/head.bias", expected: [2], found: [3])),
            (["momentum/head.bias": two], ["adam.step/head.bias": 1], .unknownName(owner: "SGD", name: "adam.step/head.bias", stores: "no counters")),
        ]
        for (tensors, counters, expected) in sgdCases {
            XCTAssertThrowsError(try sgd.loadState(tensors: tensors, counters: counters)) { XCTAssertEqual($0 as? StateLoadError, expected) }
            assertBitIdentical(sgd.stateTensors(), before, "after a refused load")
        }
        XCTAssertTrue("\(sgdCases[0].2)".contains("another optimizer"), "\(sgdCases[0].2)")
        let plain = try SGD(parameters: [("head.bias", p)], learningRate: 0.1)
        XCTAssertThrowsError(try plain.loadState(tensors: ["momentum/head.bias": two], counters: [:])) {
            XCTAssertTrue("\($0)".contains("this SGD stores nothing"), "\($0)")
        }

        let adam = try AdamW(parameters: [("head.bias", p)])
        try adam.step()
        let adamBefore = adam.stateTensors(), countersBefore = adam.stateCounters()
        let adamCases: [([String: Tensor], [String: Int], StateLoadError)] = [
            (["adam.m/head.bias": two, "adam.v/head.bias": two], [:],
             .missing(owner: "AdamW", name: "adam.step/head.bias", reason: "the parameter has other AdamW state; moments and step count are saved together")),
            (["adam.m/head.bias": two], ["adam.step/head.bias": 3],
             .missing(owner: "AdamW", name: "adam.v/head.bias", reason: "the parameter has other AdamW state; moments and step count are saved together")),
            (["adam.m/head.bias": two, "adam.v/head.bias": two], ["adam.step/head.bias": 0],
             .invalidCounter(owner: "AdamW", name: "adam.step/head.bias", value: 0, reason: "a parameter with moments has taken at least one step")),
            ([:], ["momentum/head.bias": 1], .unknownName(owner: "AdamW", name: "momentum/head.bias", stores: "only 'adam.step/<parameter>'")),
        ]
        for (tensors, counters, expected) in adamCases {
            XCTAssertThrowsError(try adam.loadState(tensors: tensors, counters: counters)) { XCTAssertEqual($0 as? StateLoadError, expected) }
            assertBitIdentical(adam.stateTensors(), adamBefore, "after a refused load")
            XCTAssertEqual(adam.stateCounters(), countersBefore)
        }
        try adam.loadState(tensors: [:], counters: [:])
        XCTAssertTrue(adam.stateTensors().isEmpty, "an empty state resets the optimizer")
    }
}
