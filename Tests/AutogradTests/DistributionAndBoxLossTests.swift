import Autograd
import Foundation
import Tensor
import XCTest

/// GFL's distribution focal loss and integral, distance → box decoding and the GIoU loss:
/// hand-computed values (python3, float64, quoted beside each number), float64
/// finite-difference checks, and logits of ±80.
final class DistributionAndBoxLossTests: XCTestCase {
    /// Logits [M, 4, 5] (R = 4): box m, side s holds row m·4 + s.
    func logits(_ rows: [[Float]]) throws -> Tensor { try Tensor(shape: [rows.count / 4, 4, 5], values: rows.flatMap { $0 }) }

    func testDistributionFocalLossValues() throws {
        // Uniform logits: −log(1/5) = ln 5 = 1.6094379 whatever the target, 0, 2.5 or exactly R = 4.
        let tape = Tape()
        let uniform = tape.leaf(try Tensor(zeros: [2, 4, 5]))
        let targets = try Tensor(shape: [2, 4], values: [0, 1, 2.5, 4, 3.999, 0.001, 2, 3])
        for got in try uniform.distributionFocalLoss(targets: targets, reduction: .none).value.values { XCTAssertEqual(got, 1.6094379, accuracy: 1e-6) }
        // Row (0, 1, 2, 3, 4), lse = 4.4519144: target 2.5 → lse − 2.5 = 1.9519144; 4 → 0.4519144; 0 → 4.4519144; 1 → 3.4519144.
        let ramp: [Float] = [0, 1, 2, 3, 4]
        let x = tape.leaf(try logits([[Float]](repeating: ramp, count: 4)))
        let loss = try x.distributionFocalLoss(targets: try Tensor(shape: [1, 4], values: [2.5, 4, 0, 1]), reduction: .none)
        for (got, expected) in zip(loss.value.values, [1.9519144, 0.4519144, 4.4519144, 3.4519144]) { XCTAssertEqual(Double(got), expected, accuracy: 1e-5) }
        // d/dx = softmax − two-hot: at 2.5, (0.0116562, 0.0316849, −0.4138715, −0.2658783, 0.6364086).
        let g = try tape.backward(try loss.sum())
        for (got, expected) in zip(g[x]!.values.prefix(5), [0.0116562, 0.0316849, -0.4138715, -0.2658783, 0.6364086]) {
            XCTAssertEqual(Double(got), expected, accuracy: 1e-6)
        }
        // At exactly R all weight is on the last bin: −(1 − S_4) there, S_j elsewhere.
        XCTAssertEqual(Double(g[x]![flat: 9]), 0.6364086 - 1, accuracy: 1e-6)
    }

    func testDistributionFocalLossGradients() throws {
        // Integer targets (0, 1, 2, R = 4) and fractional ones, near both ends too.
        let targetValues: [Float] = [0, 1, 2, 4, 0.3, 2.75, 3.999, 1.5, 0.001, 3.5, 2, 4]
        let targets = try Tensor(shape: [3, 4], values: targetValues)
        let perSide: [Float] = [1, 2, 0.5, 1, 3, 1, 0.25, 1.5, 1, 0, 2, 1], perBox: [Float] = [0.5, 2, 1]
        var check = GradientCheck()
        check.inputRanges = [-3...3]
        check.maximumElementsPerInput = 60
        let cases: [(weights: [Float]?, shape: [Int], reduction: LossReduction)] = [(perSide, [3, 4], .none), (perBox, [3], .sum), (nil, [], .mean)]
        for (weightValues, weightShape, reduction) in cases {
            let weights = try weightValues.map { try Tensor(shape: weightShape, values: $0) }
            check.context = "weights \(weightShape), \(reduction): "
            try check.run(shapes: [[3, 4, 5]], engine: {
                try $1[0].distributionFocalLoss(targets: targets, weights: weights, reduction: reduction)
            }, reference: { xs in
                let losses = (0..<12).map { r -> Double in
                    let w = weightValues.map { Double($0.count == 12 ? $0[r] : $0[r / 4]) } ?? 1
                    return w * distributionFocalReference(Array(xs[0][(r * 5)..<(r * 5 + 5)]), Double(targetValues[r]))
                }
                return reducedReference(losses, "\(reduction)")
            })
        }
    }

    func testDistributionFocalLossRejectsTargetsOutsideTheBins() throws {
        let x = Tape().leaf(try Tensor(zeros: [2, 4, 5]))
        for (bad, text) in [(Float(4.5), "4.5"), (-0.25, "-0.25"), (.nan, "nan")] {
            let targets = try Tensor(shape: [2, 4], values: [0, 1, 2, 3, 4, bad, 1, 2])
            XCTAssertThrowsError(try x.distributionFocalLoss(targets: targets)) { error in
                XCTAssertTrue("\(error)".contains("distributionFocalLoss") && "\(error)".contains(text) && "\(error)".contains("index 5"), "\(error)")
            }
        }
        XCTAssertThrowsError(try x.distributionFocalLoss(targets: try Tensor(zeros: [2, 4]), weights: try Tensor(zeros: [4]))) {
            XCTAssertTrue("\($0)".contains("weights"), "\($0)")
        }
        XCTAssertThrowsError(try Tape().leaf(try Tensor(zeros: [2, 5])).distributionExpectation()) { XCTAssertTrue("\($0)".contains("[M, 4, R + 1]"), "\($0)") }
    }

    func testDistributionExpectation() throws {
        // Uniform logits: the middle, R/2 = 2. Ramp (0, 1, 2, 3, 4): Σ j·e^j / Σ e^j = 3.4519416.
        let tape = Tape()
        let x = tape.leaf(try logits([[0, 0, 0, 0, 0], [0, 1, 2, 3, 4], [80, -80, -80, -80, -80], [-80, -80, -80, -80, 80]]))
        let e = try x.distributionExpectation()
        XCTAssertEqual(e.shape, [1, 4])
        for (got, expected) in zip(e.value.values, [2, 3.4519416, 0, 4]) { XCTAssertEqual(Double(got), expected, accuracy: 1e-5) }
        // dE/dx_j = S_j·(j − E): for the ramp (−0.0402366, −0.0776896, −0.1250536, −0.1058093, 0.3487891); ±80 finite.
        let g = try tape.backward(try e.sum())
        XCTAssertTrue(g[x]!.values.allSatisfy(\.isFinite))
        for (got, expected) in zip(g[x]!.values[5..<10], [-0.0402366, -0.0776896, -0.1250536, -0.1058093, 0.3487891]) {
            XCTAssertEqual(Double(got), expected, accuracy: 1e-6)
        }
        var check = GradientCheck()
        check.inputRanges = [-3...3]
        try check.run(shapes: [[3, 4, 6]], engine: { try $1[0].distributionExpectation() }, reference: { xs in
            (0..<12).map { distributionExpectationReference(Array(xs[0][($0 * 6)..<($0 * 6 + 6)])) }
        })
    }

    func testDistributionFocalLossWithHugeLogits() throws {
        let tape = Tape()
        let x = tape.leaf(try logits([[80, -80, 80, -80, 80], [-80, -80, -80, -80, 80], [80, -80, -80, -80, -80], [-80, 80, -80, 80, -80]]))
        // Target 4 with the mass on bin 4 costs ~0; target 0 there costs ~160.
        let loss = try x.distributionFocalLoss(targets: try Tensor(shape: [1, 4], values: [2, 4, 4, 2.5]), reduction: .none)
        let g = try tape.backward(try loss.sum())
        XCTAssertTrue(loss.value.values.allSatisfy(\.isFinite) && g[x]!.values.allSatisfy(\.isFinite), "\(loss.value), \(g[x]!)")
        XCTAssertEqual(loss.value[flat: 1], 0, accuracy: 1e-5)
        XCTAssertEqual(loss.value[flat: 2], 160, accuracy: 1e-3)
    }

    func testDistancesToBoxes() throws {
        // Point (100, 50), stride 8, distances (1, 2, 3, 4) → (92, 34, 124, 82); gradient (−8, −8, 8, 8).
        let tape = Tape()
        let d = tape.leaf(try Tensor(shape: [1, 4], values: [1, 2, 3, 4]))
        let boxes = try d.distancesToBoxes(points: try Tensor(shape: [1, 2], values: [100, 50]), scales: try Tensor(shape: [1], values: [8]))
        XCTAssertEqual(boxes.value.values, [92, 34, 124, 82])
        XCTAssertEqual(try tape.backward(try boxes.sum())[d]?.values, [-8, -8, 8, 8])
        let pointValues: [Float] = [4, 4, 12, 20, 40, 8], strideValues: [Float] = [8, 16, 32]
        let points = try Tensor(shape: [3, 2], values: pointValues), scales = try Tensor(shape: [3], values: strideValues)
        try GradientCheck().run(shapes: [[3, 4]], engine: { try $1[0].distancesToBoxes(points: points, scales: scales) }, reference: { xs in
            (0..<12).map { k in
                let (m, side) = (k / 4, k % 4)
                let s = Double(strideValues[m]), coordinate = Double(pointValues[2 * m + side % 2])
                return side < 2 ? coordinate - xs[0][k] * s : coordinate + xs[0][k] * s
            }
        })
        XCTAssertThrowsError(try d.distancesToBoxes(points: try Tensor(zeros: [1, 3]), scales: try Tensor(zeros: [1]))) {
            XCTAssertTrue("\($0)".contains("distancesToBoxes"), "\($0)")
        }
    }

    func testGeneralizedIoULossValues() throws {
        let tape = Tape()
        let predicted = tape.leaf(try Tensor(shape: [4, 4], values: [1, 2, 5, 7, 0, 0, 1, 1, 0, 0, 2, 2, 3, 0, 1, 2]))
        let targets = try Tensor(shape: [4, 4], values: [1, 2, 5, 7, 2, 2, 3, 3, 1, 1, 3, 3, 0, 0, 2, 2])
        let loss = try predicted.generalizedIoULoss(targets: targets, reduction: .none)
        // Identical: 0. Disjoint unit squares (0,0,1,1), (2,2,3,3): I = 0, U = 2, C = 9, 1 − (0 − 7/9) = 1.7777778 > 1.
        // (0,0,2,2) vs (1,1,3,3): I = 1, U = 7, C = 9, 1 − (1/7 − 2/9) = 1.0793651.
        // Inverted (3,0,1,2) vs (0,0,2,2): area 0, I = 0, U = 4, C = 2·2 = 4 → 1 − (0 − 0) = 1.
        for (got, expected) in zip(loss.value.values, [0, 1.7777778, 1.0793651, 1]) { XCTAssertEqual(Double(got), expected, accuracy: 1e-6) }
        let g = try tape.backward(try loss.sum())[predicted]!
        XCTAssertTrue(g.values.allSatisfy(\.isFinite), "\(g)")
        XCTAssertEqual(Array(g.values[0..<4]), [0, 0, 0, 0], "identical boxes sit at the minimum")
        // (0,0,2,2) vs (1,1,3,3): central differences in float64 give (−0.0778534, −0.0778534, −0.2335601, −0.2335601).
        for (got, expected) in zip(g.values[8..<12], [-0.0778534, -0.0778534, -0.2335601, -0.2335601]) { XCTAssertEqual(Double(got), expected, accuracy: 1e-6) }
    }

    func testGeneralizedIoULossGradients() throws {
        // Boxes of 3–8 px moved by up to ±1 px per coordinate: overlapping, nested, disjoint, and
        // one inverted prediction (x2 − x1 between −5 and −1) that must still have a gradient.
        let baseValues: [Float] = [10, 10, 16, 18, 0, 0, 4, 4, 20, 5, 24, 9, 7, 3, 2, 9, 30, 30, 38, 35]
        let targetValues: [Float] = [12, 11, 18, 17, 1, 1, 3, 3, 2, 2, 6, 6, 4, 4, 8, 8, 29, 31, 36, 36]
        let base = try Tensor(shape: [5, 4], values: baseValues), targets = try Tensor(shape: [5, 4], values: targetValues)
        let weightValues: [Float] = [1, 2, 0.5, 1.5, 3], weights = try Tensor(shape: [5], values: weightValues)
        for (weighted, reduction) in [(true, LossReduction.none), (false, .sum), (true, .mean)] {
            var check = GradientCheck()
            check.context = "weighted \(weighted), \(reduction): "
            try check.run(shapes: [[5, 4]], engine: { tape, v in
                try (tape.constant(base) + v[0]).generalizedIoULoss(targets: targets, weights: weighted ? weights : nil, reduction: reduction)
            }, reference: { xs in
                let predicted = zip(baseValues, xs[0]).map { Double($0) + $1 }
                let losses = rowwise(predicted, targetValues.map(Double.init), width: 4, generalizedIoULossReference)
                return reducedReference(losses.enumerated().map { (weighted ? Double(weightValues[$0.offset]) : 1) * $0.element }, "\(reduction)")
            })
        }
        XCTAssertThrowsError(try Tape().leaf(base).generalizedIoULoss(targets: targets, weights: try Tensor(zeros: [5, 4]))) {
            XCTAssertTrue("\($0)".contains("generalizedIoULoss"), "\($0)")
        }
    }
    /// Without a recording tape the kernels skip the derivatives; the values must not change (bit for bit).
    func testNoGradientTapeGivesTheSameValues() throws {
        let logitValues = (0..<40).map { Float(($0 * 29) % 40) / 5 - 4 }
        let classTargets = try Tensor(shape: [40], values: (0..<40).map { $0 % 3 == 0 ? Float($0 % 7) / 7 : 0 })
        let boxes = try Tensor(shape: [2, 4], values: [0, 0, 2, 2, 1, 1, 3, 3])
        let ops: [(String, (Variable) throws -> Variable)] = [
            ("sigmoidFocalLoss", { try $0.sigmoidFocalLoss(targets: classTargets, reduction: .none) }),
            ("qualityFocalLoss", { try $0.qualityFocalLoss(targets: classTargets, reduction: .none) }),
            ("varifocalLoss", { try $0.varifocalLoss(targets: classTargets, reduction: .none) }),
            ("distributionFocalLoss", { try $0.reshaped([2, 4, 5]).distributionFocalLoss(targets: try Tensor(repeating: 1.25, shape: [2, 4]), reduction: .none) }),
            ("distributionExpectation", { try $0.reshaped([2, 4, 5]).distributionExpectation() }),
            ("generalizedIoULoss", { try $0.slice(axis: 0, 0..<8).reshaped([2, 4]).generalizedIoULoss(targets: boxes, reduction: .none) }),
        ]
        for (name, op) in ops {
            let recorded = try op(Tape().leaf(try Tensor(shape: [40], values: logitValues)))
            let unrecorded = try op(Tape.noGradient().leaf(try Tensor(shape: [40], values: logitValues)))
            XCTAssertEqual(recorded.value.values.map(\.bitPattern), unrecorded.value.values.map(\.bitPattern), name)
            XCTAssertFalse(unrecorded.requiresGradient, name)
        }
    }
}
