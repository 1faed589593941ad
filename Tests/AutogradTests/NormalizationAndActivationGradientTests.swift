import Autograd
import Foundation
import Tensor
import XCTest

final class NormalizationAndActivationGradientTests: XCTestCase {
    func testBatchNormTrainingMode() throws {
        for shape in [[2, 3, 4, 5], [4, 2, 1, 1], [1, 5, 3, 3]] {
            var check = GradientCheck()
            check.inputRanges = [-2...2, 0.5...1.5, -1...1]
            try check.run(shapes: [shape, [shape[1]], [shape[1]]], engine: { _, v in
                try v[0].batchNorm(gamma: v[1], beta: v[2]).output
            }, reference: { xs in batchNormReference(xs[0], shape, gamma: xs[1], beta: xs[2]) })
        }
    }

    func testBatchNormFusedWithReLU6() throws {
        let shape = [2, 3, 4, 4]
        var check = GradientCheck()
        // γ up to 4 spreads outputs past 6, so both kinks of ReLU6 are exercised.
        check.inputRanges = [-2...2, 1...4, -1...3]
        try check.run(shapes: [shape, [3], [3]], engine: { _, v in
            try v[0].batchNorm(gamma: v[1], beta: v[2], activation: .relu6).output
        }, reference: { xs in batchNormReference(xs[0], shape, gamma: xs[1], beta: xs[2]).map { min(max($0, 0), 6) } })
        try check.run(shapes: [shape, [3], [3]], engine: { try $1[0].channelAffine(scale: $1[1], shift: $1[2], activation: .relu) }, reference: { xs in
            xs[0].indices.map { k in let ch = (k / 16) % 3; return max(xs[0][k] * xs[1][ch] + xs[2][ch], 0) }
        })
        let tape = Tape()
        XCTAssertThrowsError(try tape.leaf(try Tensor(zeros: shape)).batchNorm(gamma: tape.leaf(try Tensor(zeros: [3])), beta: tape.leaf(try Tensor(zeros: [3])), activation: .silu)) {
            XCTAssertTrue("\($0)".contains("fused"), "\($0)")
        }
    }

    func testBatchNormStatistics() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(shape: [2, 1, 1, 2], values: [1, 2, 3, 6]))
        let (_, stats) = try x.batchNorm(gamma: tape.leaf(try Tensor(repeating: 1, shape: [1])), beta: tape.leaf(try Tensor(zeros: [1])))
        XCTAssertEqual(stats.mean.values, [3])
        XCTAssertEqual(stats.variance[flat: 0], 3.5, accuracy: 1e-6) // (4+1+0+9)/4
        XCTAssertEqual(stats.elementsPerChannel, 4)
    }

    func testChannelAffine() throws {
        let shape = [2, 3, 2, 2]
        try GradientCheck().run(shapes: [shape, [3], [3]], engine: { try $1[0].channelAffine(scale: $1[1], shift: $1[2]) }, reference: { xs in
            xs[0].indices.map { k in let ch = (k / 4) % 3; return xs[0][k] * xs[1][ch] + xs[2][ch] }
        })
    }

    func testActivations() throws {
        var check = GradientCheck()
        check.inputRanges = [-8...8] // crosses ReLU6's upper kink too
        let shape = [3, 40]
        try check.run(shapes: [shape], engine: { $1[0].relu() }, reference: { $0[0].map { max($0, 0) } })
        try check.run(shapes: [shape], engine: { $1[0].relu6() }, reference: { $0[0].map { min(max($0, 0), 6) } })
        try check.run(shapes: [shape], engine: { $1[0].sigmoid() }, reference: { $0[0].map { 1 / (1 + Foundation.exp(-$0)) } })
        try check.run(shapes: [shape], engine: { $1[0].silu() }, reference: { $0[0].map { $0 / (1 + Foundation.exp(-$0)) } })
    }

    func testActivationBoundaryValuesAnalytic() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(shape: [5], values: [-1, 0, 3, 6, 7]))
        let y = x.relu6()
        XCTAssertEqual(y.value.values, [0, 0, 3, 6, 6])
        let g = try tape.backward(try y.sum())
        XCTAssertEqual(g[x]?.values, [0, 0, 1, 0, 0], "ReLU6 passes gradient only strictly inside (0, 6), as PyTorch does")
    }

    func testUpsampleAndMaxPool() throws {
        let shape = [2, 3, 3, 4]
        try GradientCheck().run(shapes: [shape], engine: { try $1[0].upsampledNearest2x() }, reference: { upsampleReference($0[0], shape) })
        for (kernel, stride, padding) in [(2, 2, 0), (3, 2, 1), (3, 1, 1)] {
            try GradientCheck().run(shapes: [[1, 2, 6, 5]], engine: { try $1[0].maxPool2d(kernel: kernel, stride: stride, padding: padding) },
                                    reference: { maxPoolReference($0[0], [1, 2, 6, 5], kernel: kernel, stride: stride, padding: padding) })
        }
    }
}
