import Autograd
import Foundation
import Tensor
import XCTest

final class ReductionAndShapeGradientTests: XCTestCase {
    func testSumAndMeanOverAxes() throws {
        let shape = [2, 3, 4, 5]
        for axes in [[0], [1], [2, 3], [0, 2], [0, 1, 2, 3]] {
            try GradientCheck().run(shapes: [shape], engine: { try $1[0].sum(axes: axes) }, reference: { reduceReference($0[0], shape, axes: axes, mean: false) })
            try GradientCheck().run(shapes: [shape], engine: { try $1[0].mean(axes: axes, keepingDimensions: true) },
                                    reference: { reduceReference($0[0], shape, axes: axes, mean: true) })
        }
    }

    func testSumShapes() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(repeating: 1, shape: [2, 3, 4]))
        XCTAssertEqual(try x.sum(axes: [1]).shape, [2, 4])
        XCTAssertEqual(try x.sum(axes: [-1], keepingDimensions: true).shape, [2, 3, 1])
        XCTAssertEqual(try x.sum().shape, [])
        XCTAssertEqual(try x.mean().value.scalarValue, 1)
        XCTAssertThrowsError(try x.sum(axes: [3]))
    }

    func testPermute() throws {
        let shape = [2, 3, 4, 5], permutation = [0, 2, 3, 1]
        try GradientCheck().run(shapes: [shape], engine: { try $1[0].permuted(permutation) }, reference: { xs in
            let outShape = permutation.map { shape[$0] }
            return (0..<xs[0].count).map { k in
                let o = unflatten(k, outShape)
                var i = [Int](repeating: 0, count: 4)
                for d in 0..<4 { i[permutation[d]] = o[d] }
                return xs[0][flatIndex(i, shape)]
            }
        })
    }

    func testReshapeConcatSliceGather() throws {
        try GradientCheck().run(shapes: [[2, 6]], engine: { try $1[0].reshaped([3, -1]) }, reference: { $0[0] })
        // concat along axis 1 of [2,2,3] and [2,1,3]
        try GradientCheck().run(shapes: [[2, 2, 3], [2, 1, 3]], engine: { try Variable.concat([$1[0], $1[1]], axis: 1) }, reference: { xs in
            var out: [Double] = []
            for n in 0..<2 {
                out += xs[0][(n * 6)..<(n * 6 + 6)]
                out += xs[1][(n * 3)..<(n * 3 + 3)]
            }
            return out
        })
        // concat along the last axis of [2,3,4] and [2,3,2], then the last two axes swapped: [2,6,3]
        try GradientCheck().run(shapes: [[2, 3, 4], [2, 3, 2]], engine: { try Variable.concatTransposed([$1[0], $1[1]]) }, reference: { xs in
            var out: [Double] = []
            for n in 0..<2 {
                for c in 0..<6 {
                    for r in 0..<3 { out.append(c < 4 ? xs[0][(n * 3 + r) * 4 + c] : xs[1][(n * 3 + r) * 2 + c - 4]) }
                }
            }
            return out
        })
        // slice rows 1..<3 of axis 1 in [2,4,3]
        try GradientCheck().run(shapes: [[2, 4, 3]], engine: { try $1[0].slice(axis: 1, 1..<3) }, reference: { xs in
            (0..<2).flatMap { n in Array(xs[0][(n * 12 + 3)..<(n * 12 + 9)]) }
        })
        // gather with repeats along axis 0 of [4,3]
        let indices = [3, 0, 3, 1]
        try GradientCheck().run(shapes: [[4, 3]], engine: { try $1[0].gather(axis: 0, indices: indices) },
                                reference: { gatherReference($0[0], [4, 3], axis: 0, indices: indices) })
    }

    /// The head flatten's op gives exactly what the concat and permute it replaced gave, both ways,
    /// at the detector's shapes (three levels of 77 outputs, batch 2; large enough to be split).
    func testConcatTransposedEqualsConcatThenPermute() throws {
        let widths = [2_048, 512, 128]
        func run(fused: Bool) throws -> (output: [Float], gradients: [[Float]]) {
            let tape = Tape()
            let parts = try widths.enumerated().map { i, w in
                tape.leaf(try Tensor(shape: [2, 77, w], values: (0..<(2 * 77 * w)).map { Float(($0 * 7 + i) % 1_009) / 97 }))
            }
            let output = fused ? try Variable.concatTransposed(parts) : try Variable.concat(parts, axis: 2).permuted([0, 2, 1])
            let weights = tape.constant(try Tensor(shape: output.shape, values: (0..<output.value.count).map { Float($0 % 13) - 6 }))
            let gradients = try tape.backward(try (output * weights).sum())
            return (output.value.values, try parts.map { try XCTUnwrap(gradients[$0]).values })
        }
        let (fused, reference) = (try run(fused: true), try run(fused: false))
        XCTAssertEqual(fused.output, reference.output)
        XCTAssertEqual(fused.gradients, reference.gradients)
    }

    func testShapeErrorsNameOpAndShapes() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(zeros: [2, 3]))
        XCTAssertThrowsError(try x.slice(axis: 1, 2..<5)) { XCTAssertTrue("\($0)".contains("slice") && "\($0)".contains("[2, 3]"), "\($0)") }
        XCTAssertThrowsError(try x.gather(axis: 0, indices: [2])) { XCTAssertTrue("\($0)".contains("gather"), "\($0)") }
        XCTAssertThrowsError(try x.reshaped([4, 2])) { XCTAssertTrue("\($0)".contains("reshape"), "\($0)") }
        XCTAssertThrowsError(try Variable.concat([x, tape.leaf(try Tensor(zeros: [3, 3]))], axis: 1)) { XCTAssertTrue("\($0)".contains("concat"), "\($0)") }
        XCTAssertThrowsError(try Variable.concatTransposed([x.reshaped([1, 2, 3]), tape.leaf(try Tensor(zeros: [1, 3, 3]))])) {
            XCTAssertTrue("\($0)".contains("concatTransposed") && "\($0)".contains("[1, 3, 3]"), "\($0)")
        }
        XCTAssertThrowsError(try x.permuted([0, 0])) { XCTAssertTrue("\($0)".contains("permute"), "\($0)") }
    }

    func testSoftmaxAndLogSoftmax() throws {
        try GradientCheck().run(shapes: [[3, 5]], engine: { try $1[0].softmax() }, reference: { softmaxReference($0[0], [3, 5], axis: 1, log: false) })
        try GradientCheck().run(shapes: [[3, 5]], engine: { try $1[0].logSoftmax() }, reference: { softmaxReference($0[0], [3, 5], axis: 1, log: true) })
        // Over axis 0 (the engine permutes the axis last and back).
        try GradientCheck().run(shapes: [[4, 2]], engine: { try $1[0].softmax(axis: 0) }, reference: { softmaxReference($0[0], [4, 2], axis: 0, log: false) })
    }

    func testSoftmaxIsStableForLargeLogits() throws {
        let tape = Tape.noGradient()
        let y = try tape.constant(try Tensor(shape: [1, 3], values: [1000, 1001, 1002])).softmax()
        XCTAssertTrue(y.value.values.allSatisfy { $0.isFinite })
        XCTAssertEqual(Double(y.value.values.reduce(0, +)), 1, accuracy: 1e-6)
    }
}
