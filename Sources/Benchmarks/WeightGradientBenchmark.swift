import Detection
import Foundation
import Kernels
import NN
import Support
import Tensor

/// One 1×1 convolution's weight gradient, `Conv2dKernel.backwardWeight` on both paths.
public struct WeightGradientBenchmarkRow: CustomStringConvertible {
    public let shape: PointwiseConvolutionShape
    public let batch: Int
    /// Median milliseconds: sgemm per image with one partial per worker (`dense_kernels: openblas`).
    public let sgemmMilliseconds: Double
    /// Median milliseconds: rows' dot products in registers (`dense_kernels: packed`).
    public let directMilliseconds: Double

    public var flops: Double { 2.0 * Double(batch * shape.outChannels * shape.inChannels * shape.height * shape.width) }

    public static let header = "shape                  sgemm ms  direct ms  sgemm GF/s  direct GF/s  sgemm/direct"

    public var description: String {
        shape.description.padding(toLength: 22, withPad: " ", startingAt: 0)
            + String(format: "%9.2f %10.2f %11.1f %12.1f %13.2f×", sgemmMilliseconds, directMilliseconds,
                     flops / sgemmMilliseconds / 1e6, flops / directMilliseconds / 1e6, sgemmMilliseconds / directMilliseconds)
    }
}

/// The weight gradients of the reference detector's 1×1 convolutions on the training graph's two
/// dense paths, timed in alternating blocks on the same data (the packed path's is
/// `DirectWeightGradient`, whose rounding differs from sgemm's).
public enum WeightGradientBenchmark {
    public static func run(configuration: DetectorConfiguration = .reference, batch: Int = 8, repetitions: Int) throws -> [WeightGradientBenchmarkRow] {
        try ReferenceDetector(configuration: configuration).pointwiseConvolutionShapes().map { shape in
            let g = try Conv2dGeometry(batch: batch, inChannels: shape.inChannels, inHeight: shape.height, inWidth: shape.width,
                                       outChannels: shape.outChannels, kernel: 1)
            var rng = SeededRandom(seed: 1)
            let input = Initialization.uniform(shape: [g.inputCount], bound: 1, rng: &rng)
            let gradOutput = Initialization.uniform(shape: [g.outputCount], bound: 1, rng: &rng)
            let gradWeight = UnsafeMutablePointer<Float>.allocate(capacity: g.weightCount)
            defer { gradWeight.deallocate() }
            let contenders = [Conv2dKernel.DenseKernels.openblas, .packed].map { kernels in
                InterleavedTiming.Contender {
                    Conv2dKernel.withDenseKernels(kernels) {
                        Conv2dKernel.backwardWeight(g, input: input.pointer, gradOutput: gradOutput.pointer, gradWeight: gradWeight, gradBias: nil)
                    }
                }
            }
            let times = try InterleavedTiming.medianMilliseconds(contenders, repetitions: repetitions)
            return WeightGradientBenchmarkRow(shape: shape, batch: batch, sgemmMilliseconds: times[0], directMilliseconds: times[1])
        }
    }
}
