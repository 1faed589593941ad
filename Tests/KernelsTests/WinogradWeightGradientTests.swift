import XCTest
@testable import Kernels

/// `WinogradWeightGradient` (`dense_kernels: winograd-weights`) against the double-precision
/// definition (`ConvReference.backwardWeight`): even and odd sizes (the last tile row and column cut),
/// rows of fewer and more than 8 tiles, one image and several; the same bits for any thread count and
/// on every instruction set the CPU has.
final class WinogradWeightGradientTests: XCTestCase {
    func gradient(_ g: Conv2dGeometry, _ input: [Float], _ gradOutput: [Float]) -> [Float] {
        var input = input, gradOutput = gradOutput
        var result = [Float](repeating: .nan, count: g.weightCount)
        input.withPointer { x in
            gradOutput.withPointer { gy in
                result.withPointer { WinogradWeightGradient.compute(g, input: x, gradOutput: gy, gradWeight: $0) }
            }
        }
        return result
    }

    func check(batch: Int, inChannels: Int, outChannels: Int, height: Int, width: Int, seed: UInt64,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let g = try Conv2dGeometry(batch: batch, inChannels: inChannels, inHeight: height, inWidth: width, outChannels: outChannels,
                                   kernel: 3, stride: 1, padding: 1)
        var random = TestRandom(seed: seed)
        let input = random.floats(g.inputCount), gradOutput = random.floats(g.outputCount)
        let expected = ConvReference.backwardWeight(g, input: input, gradOutput: gradOutput).weight
        let actual = gradient(g, input, gradOutput)
        // Sums of up to batch·H·W products of values in [-1, 1): scaled by their count.
        let tolerance = 2e-6 * Double(batch * height * width)
        assertClose(actual, expected, tolerance: tolerance, "\(g)", file: file, line: line)
        var bits: [[UInt32]] = []
        for threads in 1...3 {
            withThreads(threads) { bits.append(gradient(g, input, gradOutput).map(\.bitPattern)) }
        }
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        for isa in VectorISA.supported {
            VectorISA.use(isa)
            bits.append(gradient(g, input, gradOutput).map(\.bitPattern))
        }
        for (index, other) in bits.enumerated() {
            XCTAssertEqual(other, actual.map(\.bitPattern), "\(g): run \(index) (threads 1–3, then each instruction set)", file: file, line: line)
        }
    }

    func testEvenSizesMatchTheDefinition() throws {
        try check(batch: 2, inChannels: 3, outChannels: 5, height: 8, width: 6, seed: 1)
        try check(batch: 1, inChannels: 7, outChannels: 2, height: 4, width: 32, seed: 2)
    }

    func testOddSizesCutTheLastTiles() throws {
        try check(batch: 2, inChannels: 4, outChannels: 3, height: 7, width: 5, seed: 3)
        try check(batch: 1, inChannels: 2, outChannels: 6, height: 1, width: 19, seed: 4)
        try check(batch: 3, inChannels: 1, outChannels: 1, height: 9, width: 1, seed: 5)
    }

    func testDetectorLikeLayerOverSeveralChunksAndSegments() throws {
        // 32 × 32 channels at 16 × 16: 64 tiles an image in two chunks, four chunks in four segments.
        try check(batch: 2, inChannels: 32, outChannels: 32, height: 16, width: 16, seed: 6)
    }

    /// Segments (the partial sums' count) depend on the layer alone; wide layers take fewer, so their
    /// partials stay within 16 MB.
    func testSegmentsFollowTheLayerAndKeepPartialsSmall() {
        XCTAssertEqual(WinogradWeightGradient.segmentCount(chunks: 128, matrix: 64 * 64), 16)
        XCTAssertEqual(WinogradWeightGradient.segmentCount(chunks: 3, matrix: 64 * 64), 3)
        XCTAssertEqual(WinogradWeightGradient.segmentCount(chunks: 128, matrix: 256 * 256), 4)
        XCTAssertEqual(WinogradWeightGradient.segmentCount(chunks: 128, matrix: 1024 * 1024), 1)
    }

    func testEmptyBatchGivesZeros() throws {
        let g = try Conv2dGeometry(batch: 0, inChannels: 2, inHeight: 4, inWidth: 4, outChannels: 3, kernel: 3, stride: 1, padding: 1)
        XCTAssertEqual(gradient(g, [], []), [Float](repeating: 0, count: g.weightCount))
    }
}
