import Autograd
import Foundation
import Kernels
import Tensor
import XCTest

final class ConvolutionGradientTests: XCTestCase {
    struct Case {
        let input: [Int], weight: [Int], stride: (Int, Int), padding: (Int, Int), groups: Int, bias: Bool
    }

    let cases: [Case] = [
        Case(input: [2, 4, 5, 6], weight: [3, 4, 1, 1], stride: (1, 1), padding: (0, 0), groups: 1, bias: true),   // 1×1 as GEMM
        Case(input: [2, 3, 6, 5], weight: [4, 3, 3, 3], stride: (1, 1), padding: (1, 1), groups: 1, bias: true),   // dense 3×3 padded
        Case(input: [1, 3, 7, 8], weight: [2, 3, 3, 3], stride: (2, 2), padding: (1, 1), groups: 1, bias: false),  // strided
        Case(input: [2, 4, 5, 5], weight: [6, 2, 3, 3], stride: (1, 1), padding: (1, 1), groups: 2, bias: true),   // grouped
        Case(input: [1, 2, 6, 7], weight: [3, 2, 2, 3], stride: (2, 1), padding: (0, 1), groups: 1, bias: true),   // non-square kernel/stride
        Case(input: [2, 5, 7, 6], weight: [5, 1, 3, 3], stride: (1, 1), padding: (1, 1), groups: 5, bias: false),  // depthwise s1
        Case(input: [2, 5, 8, 7], weight: [5, 1, 3, 3], stride: (2, 2), padding: (1, 1), groups: 5, bias: false),  // depthwise s2
        Case(input: [1, 3, 9, 9], weight: [3, 1, 5, 5], stride: (1, 1), padding: (2, 2), groups: 3, bias: true),   // depthwise 5×5
        Case(input: [1, 3, 6, 6], weight: [3, 3, 1, 1], stride: (2, 2), padding: (0, 0), groups: 1, bias: false),  // strided 1×1
    ]

    /// Every case on each dense-kernel choice: im2col + sgemm, the packed kernels, and Winograd
    /// for the 3×3 stride-1 pad-1 layers (forward and input gradient).
    func testEveryConvolutionPathAgainstFloat64() throws {
        for kernels in Conv2dKernel.DenseKernels.allCases {
            try Conv2dKernel.withDenseKernels(kernels) { try checkEveryCase() }
        }
    }

    func checkEveryCase() throws {
        for (index, c) in cases.enumerated() {
            var check = GradientCheck()
            check.seed = UInt64(index + 1)
            let shapes = [c.input, c.weight] + (c.bias ? [[c.weight[0]]] : [])
            try check.run(shapes: shapes, engine: { _, v in
                try v[0].conv2d(weight: v[1], bias: c.bias ? v[2] : nil, stride: c.stride, padding: c.padding, groups: c.groups)
            }, reference: { xs in
                convolutionReference(xs[0], c.input, xs[1], c.weight, bias: c.bias ? xs[2] : nil, stride: c.stride, padding: c.padding, groups: c.groups)
            })
        }
    }

    func testConvolutionErrorsNameShapes() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(zeros: [1, 3, 4, 4]))
        XCTAssertThrowsError(try x.conv2d(weight: tape.leaf(try Tensor(zeros: [2, 4, 3, 3])))) { XCTAssertTrue("\($0)".contains("conv2d") && "\($0)".contains("[1, 3, 4, 4]"), "\($0)") }
        XCTAssertThrowsError(try x.conv2d(weight: tape.leaf(try Tensor(zeros: [2, 3, 7, 7])))) { XCTAssertTrue("\($0)".contains("conv2d"), "\($0)") }
        XCTAssertThrowsError(try x.conv2d(weight: tape.leaf(try Tensor(zeros: [2, 3, 3, 3])), bias: tape.leaf(try Tensor(zeros: [3])))) { XCTAssertTrue("\($0)".contains("bias"), "\($0)") }
    }

    func testMatmulAndLinear() throws {
        func mm(_ a: [Double], _ b: [Double], m: Int, k: Int, n: Int, transposeB: Bool) -> [Double] {
            (0..<(m * n)).map { idx in
                let (i, j) = (idx / n, idx % n)
                return (0..<k).reduce(0.0) { $0 + a[i * k + $1] * (transposeB ? b[j * k + $1] : b[$1 * n + j]) }
            }
        }
        try GradientCheck().run(shapes: [[3, 4], [4, 5]], engine: { try $1[0].matmul($1[1]) }, reference: { mm($0[0], $0[1], m: 3, k: 4, n: 5, transposeB: false) })
        try GradientCheck().run(shapes: [[3, 4], [5, 4]], engine: { try $1[0].matmul($1[1], transposeRight: true) }, reference: { mm($0[0], $0[1], m: 3, k: 4, n: 5, transposeB: true) })
        try GradientCheck().run(shapes: [[2, 3], [4, 3], [4]], engine: { try $1[0].linear(weight: $1[1], bias: $1[2]) }, reference: { xs in
            let p = mm(xs[0], xs[1], m: 2, k: 3, n: 4, transposeB: true)
            return p.indices.map { p[$0] + xs[2][$0 % 4] }
        })
        let tape = Tape()
        XCTAssertThrowsError(try tape.leaf(try Tensor(zeros: [2, 3])).matmul(tape.leaf(try Tensor(zeros: [2, 3])))) { XCTAssertTrue("\($0)".contains("matmul"), "\($0)") }
    }
}
