import XCTest
@testable import Kernels

final class PermuteKernelTests: XCTestCase {
    /// output[n, c, r] = input[n, r, c], by index arithmetic.
    func naiveTranspose(_ input: [Float], batch: Int, rows: Int, columns: Int) -> [Float] {
        var output = [Float](repeating: .nan, count: input.count)
        for n in 0..<batch { for r in 0..<rows { for c in 0..<columns {
            output[(n * columns + c) * rows + r] = input[(n * rows + r) * columns + c]
        } } }
        return output
    }

    func testTiledTransposeOfTheLastTwoAxesMatchesIndexArithmeticAtEdgeSizes() {
        let saved = Parallel.threadCount
        defer { Parallel.threadCount = saved }
        // Partial tiles on both axes, one-row and one-column cases, and the head flatten's shape
        // (large enough to be split across workers).
        for (batch, rows, columns) in [(1, 1, 1), (2, 17, 33), (3, 1, 40), (1, 40, 1), (2, 77, 1_000)] {
            let input = (0..<(batch * rows * columns)).map { Float($0) }
            let expected = naiveTranspose(input, batch: batch, rows: rows, columns: columns)
            for threads in [1, 2, 3] {
                Parallel.threadCount = threads
                var output = [Float](repeating: .nan, count: input.count)
                input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { o in
                    Permute.apply(i.baseAddress!, shape: [batch, rows, columns], permutation: [0, 2, 1], output: o.baseAddress!)
                } }
                XCTAssertEqual(output, expected, "\(batch)×\(rows)×\(columns), \(threads) threads")
            }
        }
    }

    func testStridedMatricesTransposeIntoTheirWindowsAndLeaveTheRestUntouched() {
        let saved = Parallel.threadCount
        defer { Parallel.threadCount = saved }
        // Two matrices read from windows of wider rows and written into windows of a shared
        // output: partial 4 × 4 blocks and 32 × 32 tiles on both axes, and one large enough to split.
        let shapes = [(rows: 7, columns: 5), (rows: 77, columns: 300)]
        let inputStrides = [9, 301], outputStrides = [8, 80], outputOffsets = [0, 64]
        let inputs = zip(shapes, inputStrides).map { shape, stride in (0..<(shape.rows * stride)).map { Float($0) + 0.5 } }
        var expected = [Float](repeating: -1, count: 64 + 300 * 80)
        for (i, shape) in shapes.enumerated() {
            for r in 0..<shape.rows { for c in 0..<shape.columns {
                expected[outputOffsets[i] + c * outputStrides[i] + r] = inputs[i][r * inputStrides[i] + c]
            } }
        }
        for threads in [1, 2, 3] {
            Parallel.threadCount = threads
            var output = [Float](repeating: -1, count: expected.count)
            inputs[0].withUnsafeBufferPointer { a in inputs[1].withUnsafeBufferPointer { b in output.withUnsafeMutableBufferPointer { o in
                let sources = [a.baseAddress!, b.baseAddress!]
                Permute.transpose(shapes.indices.map {
                    Permute.Matrix(input: sources[$0], rows: shapes[$0].rows, columns: shapes[$0].columns, inputStride: inputStrides[$0],
                                   output: o.baseAddress! + outputOffsets[$0], outputStride: outputStrides[$0])
                })
            } } }
            XCTAssertEqual(output, expected, "\(threads) threads")
        }
    }

    func testOtherPermutationsStillTakeTheGeneralPath() {
        // [2, 3, 4] → [4, 2, 3] (permutation [2, 0, 1]).
        let input = (0..<24).map { Float($0) }
        var output = [Float](repeating: .nan, count: 24)
        input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { o in
            Permute.apply(i.baseAddress!, shape: [2, 3, 4], permutation: [2, 0, 1], output: o.baseAddress!)
        } }
        var expected = [Float]()
        for k in 0..<4 { for a in 0..<2 { for b in 0..<3 { expected.append(Float(a * 12 + b * 4 + k)) } } }
        XCTAssertEqual(output, expected)
    }
}
