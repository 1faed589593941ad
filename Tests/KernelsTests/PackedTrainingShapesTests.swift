import XCTest
@testable import Kernels

/// The packed training kernels on the default detector's own layer sizes (256×512 input), against
/// im2col + sgemm: the unit tests' small shapes miss what only large ones reach (many tile groups
/// per image, planes not a multiple of the tile, depths up to 576). The two paths differ only by
/// the order of their float sums, so they agree to a few ulps of the sums' size. (Weight gradients:
/// the packed path has its own for pointwise layers; the others are sgemm on both, the same bits;
/// Winograd runs the 3×3 stride-1 layers' forward and input gradient.)
final class PackedTrainingShapesTests: XCTestCase {
    func testPackedForwardAndInputGradientMatchSGEMMOnTheDetectorsLayers() throws {
        let layers: [Conv2dGeometry] = [
            try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 512, inWidth: 256, outChannels: 16, kernel: 3, stride: 2, padding: 1),  // stem
            try Conv2dGeometry(batch: 2, inChannels: 16, inHeight: 256, inWidth: 128, outChannels: 32, kernel: 1),                         // first pointwise
            try Conv2dGeometry(batch: 2, inChannels: 64, inHeight: 64, inWidth: 32, outChannels: 128, kernel: 1),
            try Conv2dGeometry(batch: 2, inChannels: 256, inHeight: 16, inWidth: 8, outChannels: 512, kernel: 1),
            try Conv2dGeometry(batch: 2, inChannels: 64, inHeight: 64, inWidth: 32, outChannels: 64, kernel: 3, padding: 1),              // FPN output, stride 8
            try Conv2dGeometry(batch: 2, inChannels: 64, inHeight: 16, inWidth: 8, outChannels: 64, kernel: 3, padding: 1),               // FPN output, stride 32
            try Conv2dGeometry(batch: 2, inChannels: 64, inHeight: 16, inWidth: 8, outChannels: 81, kernel: 1),                           // head output
        ]
        for g in layers {
            var random = TestRandom(seed: 3)
            var input = random.floats(g.inputCount), weight = random.floats(g.weightCount, scale: 0.5), bias = random.floats(g.outChannels)
            var gradOutput = random.floats(g.outputCount)
            func run(_ kernels: Conv2dKernel.DenseKernels) -> (output: [Float], gradInput: [Float], gradWeight: [Float]) {
                var output = [Float](repeating: .nan, count: g.outputCount), gradInput = [Float](repeating: .nan, count: g.inputCount)
                var gradWeight = [Float](repeating: .nan, count: g.weightCount)
                Conv2dKernel.withDenseKernels(kernels) {
                    input.withPointer { x in weight.withPointer { w in bias.withPointer { b in gradOutput.withPointer { gy in
                        output.withPointer { Conv2dKernel.forward(g, input: x, weight: w, bias: b, output: $0) }
                        gradInput.withPointer { Conv2dKernel.backwardInput(g, gradOutput: gy, weight: w, gradInput: $0) }
                        gradWeight.withPointer { Conv2dKernel.backwardWeight(g, input: x, gradOutput: gy, gradWeight: $0, gradBias: nil) }
                    } } } }
                }
                return (output, gradInput, gradWeight)
            }
            let sgemm = run(.openblas)
            for kernels in [Conv2dKernel.DenseKernels.packed, .winograd] {
                let other = run(kernels)
                assertClose(other.output, sgemm.output.map(Double.init), tolerance: 1e-4, "forward \(g) \(kernels)")
                assertClose(other.gradInput, sgemm.gradInput.map(Double.init), tolerance: 1e-4, "input gradient \(g) \(kernels)")
                // Sums over 2 × 32,768 positions for the first pointwise layer: a few 1e-5 apart.
                assertClose(other.gradWeight, sgemm.gradWeight.map(Double.init), tolerance: 1e-4, "weight gradient \(g) \(kernels)")
            }
        }
    }
}
