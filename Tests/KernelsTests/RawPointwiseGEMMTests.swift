import XCTest
@testable import Kernels

/// The GEMM benchmark's raw baselines must compute the same products as a 1×1 convolution,
/// or the engine/raw ratio would compare different work.
final class RawPointwiseGEMMTests: XCTestCase {
    func testEveryBaselineComputesTheConvolution() throws {
        let g = try Conv2dGeometry(batch: 3, inChannels: 4, inHeight: 3, inWidth: 5, outChannels: 6, kernel: 1)
        var random = TestRandom(seed: 5)
        let input = random.floats(g.inputCount), weight = random.floats(g.weightCount)
        let expected = ConvReference.forward(g, input: input, weight: weight, bias: nil)
        for variant in RawPointwiseGEMM.allCases {
            var output = [Float](repeating: .nan, count: g.outputCount)
            variant.prepare(threads: 2)
            input.withUnsafeBufferPointer { x in weight.withUnsafeBufferPointer { w in output.withPointer { y in
                variant.run(batch: g.batch, inChannels: g.inChannels, outChannels: g.outChannels, spatial: g.inHeight * g.inWidth,
                            threads: 2, weight: w.baseAddress!, input: x.baseAddress!, output: y)
            } } }
            RawPointwiseGEMM.restoreEngineThreading()
            assertClose(output, expected, tolerance: 1e-5, variant.rawValue)
        }
    }

    func testInterleavedTimingRunsEveryContenderAndPreparesUntimed() throws {
        var prepared = [0, 0], runs = [0, 0]
        let contenders = (0..<2).map { index in
            InterleavedTiming.Contender(prepare: { prepared[index] += 1 }) { runs[index] += 1 }
        }
        let medians = try InterleavedTiming.medianMilliseconds(contenders, repetitions: 6, rounds: 3)
        XCTAssertEqual(medians.count, 2)
        XCTAssertTrue(medians.allSatisfy { $0 >= 0 && $0.isFinite })
        XCTAssertEqual(prepared, [3, 3], "prepared once per block, outside the timed runs")
        XCTAssertEqual(runs, [9, 9], "per round: one warm-up + 2 timed runs")
    }
}
