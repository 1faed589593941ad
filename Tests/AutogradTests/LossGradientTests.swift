import Autograd
import Foundation
import Tensor
import XCTest

/// −w·(t·log σ(x) + (1−t)·log(1−σ(x))) in Double.
func bceReference(_ x: Double, target: Float, weight: Float = 1) -> Double {
    let p = 1 / (1 + Foundation.exp(-x))
    let t = Double(target)
    let positive = t * Foundation.log(p)
    let negative = (1 - t) * Foundation.log(1 - p)
    return -Double(weight) * (positive + negative)
}

final class LossGradientTests: XCTestCase {
    func testBinaryCrossEntropyWithLogits() throws {
        let targets: [Float] = [0, 1, 0.3, 1, 0, 0.5]
        let weights: [Float] = [1, 2, 0.5, 1, 3, 1]
        let t = try Tensor(shape: [2, 3], values: targets), w = try Tensor(shape: [2, 3], values: weights)
        var check = GradientCheck()
        check.inputRanges = [-4...4]
        try check.run(shapes: [[2, 3]], engine: { try $1[0].binaryCrossEntropyWithLogits(targets: t, weights: w, reduction: .none) }, reference: { xs in
            xs[0].indices.map { bceReference(xs[0][$0], target: targets[$0], weight: weights[$0]) }
        })
        try check.run(shapes: [[2, 3]], engine: { try $1[0].binaryCrossEntropyWithLogits(targets: t, reduction: .mean) }, reference: { xs in
            let total = xs[0].indices.map { bceReference(xs[0][$0], target: targets[$0]) }.reduce(0, +)
            return [total / 6]
        })
    }

    func testBinaryCrossEntropyIsFiniteForHugeLogits() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(shape: [2], values: [200, -200]))
        let loss = try x.binaryCrossEntropyWithLogits(targets: try Tensor(shape: [2], values: [0, 1]), reduction: .sum)
        XCTAssertEqual(loss.value.scalarValue, 400, accuracy: 1e-3)
        let g = try tape.backward(loss)
        XCTAssertEqual(g[x]?.values ?? [], [1, -1])
    }

    func testSmoothL1() throws {
        let targets = try Tensor(shape: [8], values: [0, 0, 0, 0, 1, 1, 1, 1])
        for beta in [Float(1), 0.25] {
            try GradientCheck().run(shapes: [[8]], engine: { try $1[0].smoothL1(targets: targets, beta: beta, reduction: .sum) }, reference: { xs in
                [xs[0].enumerated().map { i, p in
                    let d = abs(p - Double(targets[flat: i]))
                    return d < Double(beta) ? 0.5 * d * d / Double(beta) : d - 0.5 * Double(beta)
                }.reduce(0, +)]
            })
        }
    }

    func testSumOfSquares() throws {
        try GradientCheck().run(shapes: [[3, 4]], engine: { $1[0].sumOfSquares() }, reference: { [$0[0].map { $0 * $0 }.reduce(0, +)] })
    }

    func testLossShapeErrors() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(zeros: [2, 3]))
        XCTAssertThrowsError(try x.binaryCrossEntropyWithLogits(targets: try Tensor(zeros: [3, 2]))) { XCTAssertTrue("\($0)".contains("binaryCrossEntropyWithLogits")) }
        XCTAssertThrowsError(try x.smoothL1(targets: try Tensor(zeros: [2, 3]), beta: -1)) { XCTAssertTrue("\($0)".contains("beta")) }
    }

    func testNonFiniteCheckNamesWhat() throws {
        let bad = try Tensor(shape: [3], values: [1, .nan, 2])
        XCTAssertThrowsError(try NonFiniteCheck.check(bad, what: "training loss at step 7")) { error in
            XCTAssertTrue("\(error)".contains("training loss at step 7") && "\(error)".contains("element 1"), "\(error)")
        }
    }
}
