import Autograd
import Foundation
import Tensor
import XCTest

/// Focal, quality focal and varifocal losses: hand-computed values (python3, float64, quoted
/// beside each number), float64 finite-difference checks, and logits of ±80.
final class FocalLossTests: XCTestCase {
    /// Loss values (reduction .none) and d(Σ loss)/d logits for single elements.
    func evaluate(_ logits: [Float], _ loss: (Variable) throws -> Variable) throws -> (values: [Float], gradients: [Float]) {
        let tape = Tape()
        let x = tape.leaf(try Tensor(shape: [logits.count], values: logits))
        let y = try loss(x)
        let g = try tape.backward(try y.sum())
        return (y.value.values, g[x]?.values ?? [])
    }

    func assertClose(_ got: [Float], _ expected: [Double], accuracy: Double = 1e-6, _ what: String, line: UInt = #line) {
        XCTAssertEqual(got.count, expected.count, what, line: line)
        for (g, e) in zip(got, expected) { XCTAssertEqual(Double(g), e, accuracy: accuracy, "\(what): \(got) vs \(expected)", line: line) }
    }

    func testExpAndLog() throws {
        try GradientCheck().run(shapes: [[2, 3]], engine: { $1[0].exp() }, reference: { $0[0].map { Foundation.exp($0) } })
        var positive = GradientCheck()
        positive.inputRanges = [0.2...3]
        try positive.run(shapes: [[2, 3]], engine: { $1[0].log() }, reference: { $0[0].map { Foundation.log($0) } })
        // ln 0 = −∞ with gradient 1/0 = +∞; ln(−1) = NaN: passed through, not trapped (documented).
        let (values, gradients) = try evaluate([1, 0, -1]) { $0.log() }
        XCTAssertEqual(values[0], 0)
        XCTAssertEqual(values[1], -.infinity)
        XCTAssertTrue(values[2].isNaN)
        XCTAssertEqual(gradients[0], 1)
        XCTAssertEqual(gradients[1], .infinity)
        assertClose(try evaluate([0, 1]) { $0.exp() }.gradients, [1, M_E], "d e^x = e^x")
    }

    func testSigmoidFocalLossValues() throws {
        let targets = try Tensor(shape: [5], values: [1, 0, 0, 1, 0])
        let (values, gradients) = try evaluate([0, 0, 2, 2, 0]) { try $0.sigmoidFocalLoss(targets: targets, reduction: .none) }
        // x = 0: 0.25·0.5²·ln 2 = 0.0433217 (t = 1), 0.75·0.5²·ln 2 = 0.1299651 (t = 0);
        // x = 2, t = 0: 0.75·σ(2)²·(2 + ln(1 + e⁻²)) = 1.2375586; t = 1: 0.25·σ(−2)²·ln(1 + e⁻²) = 0.00045089.
        assertClose(values, [0.0433217, 0.1299651, 1.2375586, 0.00045089071, 0.1299651], "focal values")
        // d/dx at x = 0, t = 1: α·(γ·m·σ(1 − σ)(1 − 2t)·ln 2 + m²(σ − t)), m = 0.5 → −0.0745717; t = 0 → 0.2237151.
        XCTAssertEqual(gradients[0], -0.0745717, accuracy: 1e-6)
        XCTAssertEqual(gradients[1], 0.2237151, accuracy: 1e-6)
        // α < 0: no α weighting, 0.5²·ln 2 = 0.1732868.
        let unweighted = try evaluate([0]) { try $0.sigmoidFocalLoss(targets: try Tensor(shape: [1], values: [0]), alpha: -1, reduction: .none) }
        assertClose(unweighted.values, [0.1732868], "focal, alpha < 0")
    }

    func testSigmoidFocalLossGradients() throws {
        let targetValues: [Float] = [0, 1, 0.3, 1, 0, 0.5, 0, 1]
        let weightValues: [Float] = [1, 2, 0.5, 1, 3, 1, 0.25, 1.5]
        let targets = try Tensor(shape: [2, 4], values: targetValues), weights = try Tensor(shape: [2, 4], values: weightValues)
        var check = GradientCheck()
        check.inputRanges = [-4...4]
        for (alpha, gamma, weighted, reduction) in [(Float(0.25), Float(2), true, LossReduction.none), (-1, 2, false, .sum),
                                                   (0.25, 1.5, true, .mean), (-1, 0, true, .sum), (0.5, 3, false, .none)] {
            check.context = "alpha \(alpha), gamma \(gamma), weighted \(weighted), \(reduction): "
            try check.run(shapes: [[2, 4]], engine: {
                try $1[0].sigmoidFocalLoss(targets: targets, alpha: alpha, gamma: gamma, weights: weighted ? weights : nil, reduction: reduction)
            }, reference: { xs in
                reducedReference(xs[0].indices.map {
                    (weighted ? Double(weightValues[$0]) : 1) * focalReference(xs[0][$0], Double(targetValues[$0]), alpha: Double(alpha), gamma: Double(gamma))
                }, "\(reduction)")
            })
        }
    }

    func testQualityFocalLossValues() throws {
        let targets = try Tensor(shape: [4], values: [0.5, 0, 0.9, 0])
        let (values, gradients) = try evaluate([0, 0, 1, -2]) { try $0.qualityFocalLoss(targets: targets, reduction: .none) }
        // σ(0) = y = 0.5: no loss and no gradient. x = 0, y = 0: 0.5²·ln 2 = 0.1732868;
        // x = 1, y = 0.9: |0.9 − σ(1)|²·BCE = 0.0117950; x = −2, y = 0: σ(−2)²·ln(1 + e⁻²) = 0.0018036.
        assertClose(values, [0, 0.1732868, 0.0117950, 0.0018035628], "QFL values")
        // d/dx at (0, 0): β·0.5·0.25·ln 2 + 0.25·0.5 = 0.2982868; at (1, 0.9): −0.0322755.
        assertClose(Array(gradients.prefix(3)), [0, 0.2982868, -0.0322755], "QFL gradients")
    }

    func testQualityFocalLossGradients() throws {
        let targetValues: [Float] = [0, 0.9, 0.3, 1, 0, 0.55, 0, 0.05]
        let weightValues: [Float] = [1, 2, 0.5, 1, 3, 1, 0.25, 1.5]
        let targets = try Tensor(shape: [4, 2], values: targetValues), weights = try Tensor(shape: [4, 2], values: weightValues)
        var check = GradientCheck()
        check.inputRanges = [-4...4]
        for (beta, weighted, reduction) in [(Float(2), true, LossReduction.none), (2, false, .mean), (1.5, true, .sum), (3, false, .none)] {
            check.context = "beta \(beta), weighted \(weighted), \(reduction): "
            try check.run(shapes: [[4, 2]], engine: {
                try $1[0].qualityFocalLoss(targets: targets, beta: beta, weights: weighted ? weights : nil, reduction: reduction)
            }, reference: { xs in
                reducedReference(xs[0].indices.map {
                    (weighted ? Double(weightValues[$0]) : 1) * qualityFocalReference(xs[0][$0], Double(targetValues[$0]), beta: Double(beta))
                }, "\(reduction)")
            })
        }
    }

    func testVarifocalLossValues() throws {
        let targets = try Tensor(shape: [3], values: [0, 0.8, 0])
        let (values, gradients) = try evaluate([0, 0, 1.5]) { try $0.varifocalLoss(targets: targets, reduction: .none) }
        // (x, q) = (0, 0): 0.75·0.5²·ln 2 = 0.1299651; (0, 0.8): 0.8·ln 2 = 0.5545177;
        // (1.5, 0): 0.75·σ(1.5)²·(1.5 + ln(1 + e^−1.5)) = 0.8529542.
        assertClose(values, [0.1299651, 0.5545177, 0.8529542], "VFL values")
        // Detached weight: w·(σ − q): 0.75·0.25·0.5 = 0.09375, 0.8·(0.5 − 0.8) = −0.24, 0.75·σ(1.5)³ = 0.4098673.
        assertClose(gradients, [0.09375, -0.24, 0.4098673], "VFL gradients, detached weight")
        // Differentiated weight adds α·γ·σ^γ·(1 − σ)·BCE = 0.75·2·0.25·0.5·ln 2 at (0, 0): 0.2237151 in all; positives unchanged.
        let full = try evaluate([0, 0]) { try $0.varifocalLoss(targets: try Tensor(shape: [2], values: [0, 0.8]), reduction: .none, detachFocalWeight: false) }
        assertClose(full.gradients, [0.2237151, -0.24], "VFL gradients, differentiated weight")
    }

    func testVarifocalLossGradients() throws {
        let targetValues: [Float] = [0, 0.9, 0.3, 1, 0, 0.55, 0, 0]
        let weightValues: [Float] = [1, 2, 0.5, 1, 3, 1, 0.25, 1.5]
        let targets = try Tensor(shape: [2, 4], values: targetValues), weights = try Tensor(shape: [2, 4], values: weightValues)
        var check = GradientCheck()
        check.inputRanges = [-4...4]
        let base = check.inputs(for: [[2, 4]])[0]
        for (detached, alpha, gamma, weighted, reduction) in [(true, Float(0.75), Float(2), true, LossReduction.none), (true, 0.5, 1.5, false, .sum),
                                                             (false, 0.75, 2, true, .mean), (false, 0.25, 3, false, .none)] {
            check.context = "detached \(detached), alpha \(alpha), gamma \(gamma), weighted \(weighted), \(reduction): "
            try check.run(shapes: [[2, 4]], engine: {
                try $1[0].varifocalLoss(targets: targets, alpha: alpha, gamma: gamma, weights: weighted ? weights : nil, reduction: reduction,
                                        detachFocalWeight: detached)
            }, reference: { xs in
                reducedReference(xs[0].indices.map {
                    (weighted ? Double(weightValues[$0]) : 1) * varifocalReference(xs[0][$0], Double(targetValues[$0]), alpha: Double(alpha),
                                                                                   gamma: Double(gamma), weightLogit: detached ? base[$0] : xs[0][$0])
                }, "\(reduction)")
            })
        }
    }

    func testHugeLogitsGiveFiniteLossesAndGradients() throws {
        let logits: [Float] = [80, -80, 80, -80, 80, -80]
        let targets = try Tensor(shape: [6], values: [0, 1, 1, 0, 0.5, 0.5])
        let losses: [(String, (Variable) throws -> Variable)] = [
            ("sigmoidFocalLoss", { try $0.sigmoidFocalLoss(targets: targets, reduction: .none) }),
            ("sigmoidFocalLoss gamma 0.5", { try $0.sigmoidFocalLoss(targets: targets, alpha: -1, gamma: 0.5, reduction: .none) }),
            ("qualityFocalLoss", { try $0.qualityFocalLoss(targets: targets, reduction: .none) }),
            ("varifocalLoss", { try $0.varifocalLoss(targets: targets, reduction: .none) }),
            ("varifocalLoss, differentiated weight", { try $0.varifocalLoss(targets: targets, reduction: .none, detachFocalWeight: false) }),
        ]
        for (name, loss) in losses {
            let (values, gradients) = try evaluate(logits, loss)
            XCTAssertTrue(values.allSatisfy(\.isFinite) && gradients.allSatisfy(\.isFinite), "\(name): \(values), \(gradients)")
            // Confidently right (x = 80, t = 1) costs nothing; confidently wrong costs ~80 times its weight.
            XCTAssertEqual(values[2], 0, accuracy: 1e-6, name)
            XCTAssertGreaterThan(values[0], 10, name)
        }
        // Focal: x = 80, t = 0 is (1 − α)·1²·80 = 60 with gradient (1 − α)·(σ − t) = 0.75.
        let focal = try evaluate(logits) { try $0.sigmoidFocalLoss(targets: targets, reduction: .none) }
        XCTAssertEqual(focal.values[0], 60, accuracy: 1e-4)
        XCTAssertEqual(focal.gradients[0], 0.75, accuracy: 1e-6)
    }

    func testInvalidArgumentsThrowNamingTheOp() throws {
        let x = Tape().leaf(try Tensor(zeros: [2, 2]))
        let outside = try Tensor(shape: [2, 2], values: [0, 1, 1.5, 0])
        XCTAssertThrowsError(try x.qualityFocalLoss(targets: outside)) { error in
            XCTAssertTrue("\(error)".contains("qualityFocalLoss") && "\(error)".contains("1.5"), "\(error)")
        }
        XCTAssertThrowsError(try x.varifocalLoss(targets: try Tensor(shape: [2, 2], values: [0, .nan, 0, 0]))) { XCTAssertTrue("\($0)".contains("nan"), "\($0)") }
        XCTAssertThrowsError(try x.sigmoidFocalLoss(targets: try Tensor(zeros: [4]))) { XCTAssertTrue("\($0)".contains("sigmoidFocalLoss"), "\($0)") }
        XCTAssertThrowsError(try x.sigmoidFocalLoss(targets: try Tensor(zeros: [2, 2]), gamma: -1)) { XCTAssertTrue("\($0)".contains("gamma"), "\($0)") }
        XCTAssertThrowsError(try x.varifocalLoss(targets: try Tensor(zeros: [2, 2]), weights: try Tensor(zeros: [2]))) {
            XCTAssertTrue("\($0)".contains("varifocalLoss") && "\($0)".contains("[2]"), "\($0)")
        }
    }
}
