import TestSupport
import Autograd
import Foundation
import Kernels
@testable import NN
import Support
import Tensor
import XCTest

final class OptimizerTests: XCTestCase {
    func parameter(_ values: [Float], gradient: [Float]) throws -> Parameter {
        let p = Parameter(try Tensor(shape: [values.count], values: values))
        p.gradient = try Tensor(shape: [gradient.count], values: gradient)
        return p
    }

    func testSGDMomentumMatchesPyTorchByHand() throws {
        // PyTorch: v1 = g; w1 = w0 − lr·v1; v2 = μ·v1 + g; w2 = w1 − lr·v2 (g includes wd·w).
        let p = try parameter([1], gradient: [0.5])
        let sgd = try SGD(parameters: [("w", p)], learningRate: 0.1, momentum: 0.9, weightDecay: 0.1)
        try sgd.step() // g = 0.5 + 0.1·1 = 0.6; v = 0.6; w = 1 − 0.06 = 0.94
        XCTAssertEqual(p.value[flat: 0], 0.94, accuracy: 1e-6)
        try sgd.step() // g = 0.5 + 0.094 = 0.594; v = 0.54 + 0.594 = 1.134; w = 0.94 − 0.1134 = 0.8266
        XCTAssertEqual(p.value[flat: 0], 0.8266, accuracy: 1e-6)
    }

    func testSGDNesterov() throws {
        let p = try parameter([1], gradient: [1])
        let sgd = try SGD(parameters: [("w", p)], learningRate: 0.1, momentum: 0.5, nesterov: true)
        try sgd.step() // v = 1; step = g + μv = 1.5; w = 0.85
        XCTAssertEqual(p.value[flat: 0], 0.85, accuracy: 1e-6)
        try sgd.step() // v = 0.5 + 1 = 1.5; step = 1 + 0.75 = 1.75; w = 0.675
        XCTAssertEqual(p.value[flat: 0], 0.675, accuracy: 1e-6)
    }

    func testAdamWFirstStepsByHand() throws {
        let p = try parameter([1, -2], gradient: [0.1, -0.3])
        let adam = try AdamW(parameters: [("w", p)], learningRate: 0.01, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0.1)
        try adam.step()
        // Step 1: m̂ = g, v̂ = g², update = lr·g/(|g| + ε) ≈ lr·sign(g); decay w ← w·(1 − lr·wd) first.
        XCTAssertEqual(p.value[flat: 0], 1 * (1 - 0.001) - 0.01, accuracy: 1e-6)
        XCTAssertEqual(p.value[flat: 1], -2 * (1 - 0.001) + 0.01, accuracy: 1e-6)
        let w0 = p.value.values
        try adam.step() // same gradient again: m̂ = g, v̂ = g² → same ±lr step
        XCTAssertEqual(p.value[flat: 0], w0[0] * (1 - 0.001) - 0.01, accuracy: 1e-6)
    }

    func testFrozenParametersAreNotUpdated() throws {
        let p = try parameter([1], gradient: [1])
        p.isFrozen = true
        try SGD(parameters: [("w", p)], learningRate: 1).step()
        try AdamW(parameters: [("w", p)]).step()
        XCTAssertEqual(p.value.values, [1])
    }

    func testWeightDecayPolicySkipsBiasesAndNorms() throws {
        let bias = try parameter([1], gradient: [0])
        let weight = Parameter(try Tensor(repeating: 1, shape: [1, 1]))
        weight.gradient = try Tensor(zeros: [1, 1])
        try SGD(parameters: [("b", bias), ("w", weight)], learningRate: 1, weightDecay: 0.5, decayPolicy: .exceptBiasesAndNormalization).step()
        XCTAssertEqual(bias.value.values, [1])
        XCTAssertEqual(weight.value.values, [0.5])
    }

    func testInvalidHyperparametersThrow() throws {
        XCTAssertThrowsError(try SGD(parameters: [], learningRate: -1))
        XCTAssertThrowsError(try SGD(parameters: [], learningRate: 0.1, momentum: 0, nesterov: true))
        XCTAssertThrowsError(try AdamW(parameters: [], beta1: 1))
    }

    func testSchedules() throws {
        let cosine = WarmupSchedule(baseRate: 1, warmupSteps: 10, totalSteps: 110, decay: .cosine, finalFactor: 0.01, warmupStartFactor: 0.1)
        XCTAssertEqual(cosine.learningRate(atStep: 0), 0.1, accuracy: 1e-6)
        XCTAssertEqual(cosine.learningRate(atStep: 5), 0.55, accuracy: 1e-6)
        XCTAssertEqual(cosine.learningRate(atStep: 10), 1, accuracy: 1e-6)
        XCTAssertEqual(cosine.learningRate(atStep: 60), 0.505, accuracy: 1e-5)
        XCTAssertEqual(cosine.learningRate(atStep: 110), 0.01, accuracy: 1e-6)
        let linear = WarmupSchedule(baseRate: 1, warmupSteps: 0, totalSteps: 100, decay: .linear, finalFactor: 0.1)
        XCTAssertEqual(linear.learningRate(atStep: 50), 0.55, accuracy: 1e-6)
        XCTAssertEqual(linear.learningRate(atStep: 100), 0.1, accuracy: 1e-6)
    }

    func testGradientClipping() throws {
        let a = try parameter([0, 0], gradient: [3, 0]), b = try parameter([0], gradient: [4])
        let norm = try GradientClipping.clipGlobalNorm([("a", a), ("b", b)], maxNorm: 1)
        XCTAssertEqual(norm, 5, accuracy: 1e-6)
        XCTAssertEqual(a.gradient?[flat: 0] ?? 0, 0.6, accuracy: 1e-6)
        XCTAssertEqual(b.gradient?[flat: 0] ?? 0, 0.8, accuracy: 1e-6)
        b.gradient = try Tensor(shape: [1], values: [.nan])
        XCTAssertThrowsError(try GradientClipping.clipGlobalNorm([("a", a), ("b", b)], maxNorm: 1)) { XCTAssertTrue("\($0)".contains("gradient of b"), "\($0)") }
    }

    func testExponentialMovingAverage() throws {
        let model = try TinyConvNet()
        let ema = try ExponentialMovingAverage(model: model, decay: 0.5, rampUpdates: 1e-9) // ramp done at once: d = 0.5
        let original = model.classifier.bias!.value[flat: 0]
        model.classifier.bias!.value = try Tensor(shape: [1], values: [original + 2])
        try ema.update(from: model)
        XCTAssertEqual(ema.averagedState["classifier.bias"]?[flat: 0] ?? .nan, original + 1, accuracy: 1e-6)
    }

    /// Optimizer state is updated in place: the buffers keep their storage across steps (a
    /// copy-on-write copy per step would allocate new storage every time).
    func testOptimizerStateIsUpdatedInPlace() throws {
        let p = try parameter([1, 2, 3], gradient: [0.1, 0.2, 0.3])
        let sgd = try SGD(parameters: [("w", p)], learningRate: 0.1, momentum: 0.9)
        try sgd.step()
        let velocity = sgd.velocityAddress(at: 0), weights = p.value.storage.pointer
        for step in 2...3 { // checked after every step: a freed buffer's address could come back two steps later
            try sgd.step()
            XCTAssertEqual(sgd.velocityAddress(at: 0), velocity, "step \(step)")
            XCTAssertEqual(p.value.storage.pointer, weights, "step \(step)")
        }
        // v1 = g, v2 = 0.9·g + g, v3 = 0.9·v2 + g (weight decay 0): w = w0 − lr·(v1 + v2 + v3).
        XCTAssertEqual(p.value[flat: 0], 1 - 0.1 * 0.1 * (1 + 1.9 + 2.71), accuracy: 1e-6)

        let q = try parameter([1, 2], gradient: [0.5, -0.5])
        let adam = try AdamW(parameters: [("q", q)])
        try adam.step()
        let moments = adam.momentAddresses(at: 0)
        try adam.step()
        XCTAssertEqual(adam.momentAddresses(at: 0)?.first, moments?.first)
        XCTAssertEqual(adam.momentAddresses(at: 0)?.second, moments?.second)
    }

    /// AdamW, SGD, clipping and the EMA update every tensor in one parallel loop over pieces of at most
    /// `TensorPieces.size` elements: on two threads, with tensors around and across a piece's size,
    /// the results are one kernel call per tensor's, bit for bit.
    func testPiecedUpdatesGiveEachTensorsOwnKernelBits() throws {
        let saved = Kernels.Parallel.threadCount
        Kernels.Parallel.threadCount = 2
        defer { Kernels.Parallel.threadCount = saved }
        let sizes = [3 * TensorPieces.size + 7, 5, TensorPieces.size, TensorPieces.size + 1, 300]
        var random = SeededRandom(seed: 11)
        func values(_ count: Int, _ scale: Float) -> [Float] { (0..<count).map { _ in scale * Float(random.uniform(-1, 1)) } }
        /// Elements whose bits differ (a count, not the arrays: they have up to 49 k elements).
        func differing(_ a: [Float]?, _ b: [Float]) -> Int {
            guard let a, a.count == b.count else { return -1 }
            return zip(a, b).filter { $0.bitPattern != $1.bitPattern }.count
        }
        let starts = sizes.map { values($0, 1) }, gradients = sizes.map { values($0, 4) }
        let parameters = try zip(starts, gradients).enumerated().map { index, pair in
            (name: "p\(index)", parameter: try parameter(pair.0, gradient: pair.1))
        }
        let norm = try GradientClipping.clipGlobalNorm(parameters, maxNorm: 1)
        let adam = try AdamW(parameters: parameters, learningRate: 0.01, weightDecay: 0.05)
        try adam.step()
        try adam.step()

        var total = 0.0
        for g in gradients { total += OptimizerKernels.sumOfSquares(g, count: g.count) }
        XCTAssertEqual(norm, Float(total.squareRoot()), "norm: the tensors' sums added in parameter order")
        let factor = 1 / Float(total.squareRoot())
        for (index, size) in sizes.enumerated() {
            var clipped = gradients[index]
            OptimizerKernels.scale(&clipped, count: size, by: factor)
            XCTAssertEqual(differing(parameters[index].parameter.gradient?.values, clipped), 0, "clipped gradient \(index)")
            var w = starts[index], m = [Float](repeating: 0, count: size), v = m
            for step in 1...2 {
                OptimizerKernels.adamW(parameters: &w, gradients: clipped, firstMoment: &m, secondMoment: &v, count: size,
                                       learningRate: 0.01, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0.05, step: step)
            }
            XCTAssertEqual(differing(parameters[index].parameter.value.values, w), 0, "AdamW, tensor \(index) of \(size)")
        }

        let sgdParameters = try zip(starts, gradients).enumerated().map { index, pair in
            (name: "s\(index)", parameter: try parameter(pair.0, gradient: pair.1))
        }
        let sgd = try SGD(parameters: sgdParameters, learningRate: 0.01, momentum: 0.9, weightDecay: 0.05, nesterov: true)
        try sgd.step()
        try sgd.step()
        for (index, size) in sizes.enumerated() {
            var w = starts[index], velocity = [Float](repeating: 0, count: size)
            for first in [true, false] {
                OptimizerKernels.sgd(parameters: &w, gradients: gradients[index], velocity: &velocity, count: size, learningRate: 0.01,
                                     momentum: 0.9, dampening: 0, weightDecay: 0.05, nesterov: true, firstStep: first)
            }
            XCTAssertEqual(differing(sgdParameters[index].parameter.value.values, w), 0, "SGD, tensor \(index) of \(size)")
        }

        let model = try TinyConvNet(width: 64)
        let ema = try ExponentialMovingAverage(model: model, decay: 0.9, rampUpdates: 1e-9)
        let before = ema.stateTensors().map(\.tensor.values)
        for (_, p) in model.namedParameters() { p.value = try Tensor(shape: p.value.shape, values: values(p.value.count, 1)) }
        try ema.update(from: model)
        let now = model.stateTensors()
        XCTAssertTrue(now.contains { $0.tensor.count > TensorPieces.size }, "a tensor spans several pieces")
        for (index, average) in ema.stateTensors().enumerated() {
            var expected = before[index]
            OptimizerKernels.emaUpdate(average: &expected, current: now[index].tensor.pointer, count: expected.count, decay: ema.currentDecay)
            XCTAssertEqual(differing(average.tensor.values, expected), 0, "EMA of \(average.name)")
        }
    }

    func testGradientOfTheWrongShapeThrowsNamingTheParameter() throws {
        let p = try parameter([1, 2], gradient: [1, 2, 3])
        XCTAssertThrowsError(try SGD(parameters: [("head.bias", p)], learningRate: 0.1).step()) {
            XCTAssertTrue("\($0)".contains("head.bias") && "\($0)".contains("[3]") && "\($0)".contains("[2]"), "\($0)")
        }
        XCTAssertThrowsError(try AdamW(parameters: [("head.bias", p)]).step()) { XCTAssertTrue("\($0)".contains("AdamW"), "\($0)") }
        XCTAssertEqual(p.value.values, [1, 2])
    }

    /// A gradient of the wrong shape on a later parameter refuses the whole step: the earlier
    /// parameters keep their values and no optimizer state or step count is made.
    func testARefusedStepChangesNoParameterAndNoState() throws {
        for make in [{ (p: [(name: String, parameter: Parameter)]) -> Optimizer in try AdamW(parameters: p) },
                     { (p: [(name: String, parameter: Parameter)]) -> Optimizer in try SGD(parameters: p, learningRate: 0.1, momentum: 0.9) }] {
            let good = try parameter([1, 2], gradient: [0.5, 0.5]), bad = try parameter([3], gradient: [1, 2])
            let optimizer = try make([("good", good), ("bad", bad)])
            XCTAssertThrowsError(try optimizer.step()) { XCTAssertTrue("\($0)".contains("bad"), "\($0)") }
            XCTAssertEqual(good.value.values, [1, 2], "\(type(of: optimizer)): the earlier parameter is untouched")
            XCTAssertTrue(optimizer.stateTensors().isEmpty, "\(type(of: optimizer)): no state made")
            XCTAssertTrue(optimizer.stateCounters().values.allSatisfy { $0 == 0 }, "\(type(of: optimizer)): no step counted")
        }
    }

    func testMovingAverageRejectsAnotherModel() throws {
        let ema = try ExponentialMovingAverage(model: try TinyConvNet(width: 4), decay: 0.5)
        XCTAssertThrowsError(try ema.update(from: try TinyConvNet(width: 8))) { error in
            XCTAssertTrue("\(error)".contains("ExponentialMovingAverage") && "\(error)".contains("block1.weight"), "\(error)")
        }
        XCTAssertEqual(ema.updates, 0, "a rejected update changes nothing")
        XCTAssertThrowsError(try ema.update(from: try smallLinearModel())) { XCTAssertTrue("\($0)".contains("tensors"), "\($0)") }
        XCTAssertThrowsError(try ExponentialMovingAverage(model: try TinyConvNet(), decay: 1.5)) { XCTAssertTrue("\($0)".contains("1.5"), "\($0)") }
    }
}

/// A model with a different number of tensors than TinyConvNet.
private func smallLinearModel() throws -> Module {
    var rng = SeededRandom(seed: 0)
    return try Linear(inputFeatures: 2, outputFeatures: 1, rng: &rng)
}
