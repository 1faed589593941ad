import TestSupport
import Autograd
@testable import NN
import Tensor
import XCTest

final class ParameterGroupTests: XCTestCase {
    /// backbone.w [1, 1], head.w [1, 1], head.b [1]: all at 1 with gradient 0.5.
    func parameters() throws -> [(name: String, parameter: Parameter)] {
        try [("backbone.w", [1, 1]), ("head.w", [1, 1]), ("head.b", [1])].map { name, shape in
            let p = Parameter(try Tensor(repeating: 1, shape: shape))
            p.gradient = try Tensor(repeating: 0.5, shape: shape)
            return (name, p)
        }
    }

    let backboneGroup = ParameterGroup(prefixes: ["backbone"], learningRateMultiplier: 0.1, weightDecay: 0.2)

    func testSGDSingleStepByHand() throws {
        let entries = try parameters()
        let sgd = try SGD(parameters: entries, groups: [backboneGroup], learningRate: 1, weightDecay: 0.1, decayPolicy: .exceptBiasesAndNormalization)
        try sgd.step()
        // backbone.w: g = 0.5 + 0.2·1 = 0.7, w = 1 − 0.1·1·0.7; head.w: g = 0.5 + 0.1·1, w = 1 − 0.6; head.b: no decay, w = 1 − 0.5.
        XCTAssertEqual(entries[0].parameter.value[flat: 0], 0.93, accuracy: 1e-6)
        XCTAssertEqual(entries[1].parameter.value[flat: 0], 0.4, accuracy: 1e-6)
        XCTAssertEqual(entries[2].parameter.value[flat: 0], 0.5, accuracy: 1e-6)
        XCTAssertEqual(sgd.hyperparameters(of: "backbone.w")?.learningRate ?? .nan, 0.1, accuracy: 1e-7)
        XCTAssertEqual(sgd.hyperparameters(of: "backbone.w")?.weightDecay, 0.2)
        XCTAssertEqual(sgd.hyperparameters(of: "head.b")?.weightDecay, 0, "the decay policy applies inside groups")
        sgd.learningRate = 0.5
        XCTAssertEqual(sgd.hyperparameters(of: "backbone.w")?.learningRate ?? .nan, 0.05, accuracy: 1e-7, "a schedule sets the base rate")
        XCTAssertNil(sgd.hyperparameters(of: "nope"))
    }

    func testAdamWSingleStepByHand() throws {
        let entries = try parameters()
        let adam = try AdamW(parameters: entries, groups: [backboneGroup], learningRate: 0.01, weightDecay: 0.1, decayPolicy: .exceptBiasesAndNormalization)
        try adam.step()
        // Step 1 moves each weight by lr·sign(g) after decaying it by w·(1 − lr·wd):
        // backbone.w: lr 0.001, wd 0.2 → 1 − 0.0002 − 0.001; head.w: lr 0.01, wd 0.1 → 1 − 0.001 − 0.01; head.b: 1 − 0.01.
        XCTAssertEqual(entries[0].parameter.value[flat: 0], 0.9988, accuracy: 1e-6)
        XCTAssertEqual(entries[1].parameter.value[flat: 0], 0.989, accuracy: 1e-6)
        XCTAssertEqual(entries[2].parameter.value[flat: 0], 0.99, accuracy: 1e-6)
    }

    func testNoGroupsIsTheUngroupedOptimizer() throws {
        let grouped = try parameters(), plain = try parameters()
        try SGD(parameters: grouped, groups: [ParameterGroup(prefixes: ["head"])], learningRate: 0.3, momentum: 0.9, weightDecay: 0.1).step()
        try SGD(parameters: plain, learningRate: 0.3, momentum: 0.9, weightDecay: 0.1).step()
        XCTAssertEqual(grouped.map { $0.parameter.value.values }, plain.map { $0.parameter.value.values }, "multiplier 1 is exact")
    }

    func testGroupsThatDoNotResolveAreRefused() throws {
        let entries = try parameters()
        let cases: [([(name: String, parameter: Parameter)], [ParameterGroup], OptimizerError)] = [
            (entries, [ParameterGroup(prefixes: ["head"]), ParameterGroup(prefixes: ["head.w"])],
             .parameterInSeveralGroups(optimizer: "SGD", name: "head.w", groups: [0, 1])),
            (entries, [ParameterGroup(prefixes: ["backbon"])], .groupMatchesNothing(optimizer: "SGD", group: 0, prefixes: ["backbon"])),
            (entries + [entries[0]], [], .duplicateParameterName(optimizer: "SGD", name: "backbone.w")),
        ]
        for (parameters, groups, expected) in cases {
            XCTAssertThrowsError(try SGD(parameters: parameters, groups: groups, learningRate: 1)) { XCTAssertEqual($0 as? OptimizerError, expected) }
        }
        XCTAssertThrowsError(try AdamW(parameters: entries, groups: [ParameterGroup(prefixes: ["head"], learningRateMultiplier: -1)])) {
            XCTAssertTrue("\($0)".contains("AdamW") && "\($0)".contains("group 0") && "\($0)".contains("-1"), "\($0)")
        }
        XCTAssertTrue("\(cases[1].2)".contains("matches no parameter"))
    }

    /// Built over all named parameters: a frozen one is skipped, and once unfrozen it moves and gets state.
    func testParameterUnfrozenLaterIsUpdatedAndGetsState() throws {
        let training = try BarTraining()
        for optimizerKind in ["SGD", "AdamW"] {
            let model = try TinyConvNet(width: 4)
            model.freeze(prefixes: ["block1"])
            let optimizer: Optimizer = optimizerKind == "SGD"
                ? try SGD(parameters: model.namedParameters(), learningRate: 0.1, momentum: 0.9)
                : try AdamW(parameters: model.namedParameters(), learningRate: 0.01)
            let frozenWeight = model.block1.conv.weight.value.values
            for _ in 0..<2 { try training.step(model, optimizer) }
            XCTAssertEqual(model.block1.conv.weight.value.values, frozenWeight, optimizerKind)
            XCTAssertFalse(optimizer.stateTensors().contains { $0.name.hasSuffix("/block1.weight") }, optimizerKind)

            model.unfreeze(prefixes: ["block1"])
            try training.step(model, optimizer)
            XCTAssertNotEqual(model.block1.conv.weight.value.values, frozenWeight, optimizerKind)
            let names = Set(optimizer.stateTensors().map(\.name))
            if optimizerKind == "SGD" {
                XCTAssertTrue(names.contains("momentum/block1.weight"), "\(names)")
            } else {
                XCTAssertTrue(names.isSuperset(of: ["adam.m/block1.weight", "adam.v/block1.weight"]), "\(names)")
                XCTAssertEqual(optimizer.stateCounters()["adam.step/block1.weight"], 1)
                XCTAssertEqual(optimizer.stateCounters()["adam.step/block2.weight"], 3)
            }
        }
    }
}
