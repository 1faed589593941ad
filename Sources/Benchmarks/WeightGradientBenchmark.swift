import Detection
import Foundation
import Kernels
import NN
import Support
import Tensor

/// One 1×1 convolution's weight gradient, `Conv2dKernel.backwardWeight` on sgemm and on both
/// routes of the direct path.
public struct WeightGradientBenchmarkRow: CustomStringConvertible {
    public let shape: PointwiseConvolutionShape
    public let batch: Int
    /// Median milliseconds: sgemm per image with one partial per worker (`dense_kernels: openblas`).
    public let sgemmMilliseconds: Double
    /// Median milliseconds: rows' dot products in registers (`dense_kernels: packed`, `WeightGradientRoute.dotProducts`).
    public let directMilliseconds: Double
    /// Median milliseconds: the direct path's lane-wise products (`WeightGradientRoute.laneMajor`).
    public let laneMajorMilliseconds: Double
    /// Whether the two direct routes gave the same bits (they must).
    public let routesAgree: Bool

    public var flops: Double { 2.0 * Double(batch * shape.outChannels * shape.inChannels * shape.height * shape.width) }

    public static let header =
        "shape                  sgemm ms  direct ms  lanes ms  sgemm GF/s  direct GF/s  lanes GF/s  sgemm/direct  direct/lanes"

    public var description: String {
        shape.description.padding(toLength: 22, withPad: " ", startingAt: 0)
            + String(format: "%9.2f %10.2f %9.2f %11.1f %12.1f %11.1f %13.2f× %12.2f×", sgemmMilliseconds, directMilliseconds,
                     laneMajorMilliseconds, flops / sgemmMilliseconds / 1e6, flops / directMilliseconds / 1e6,
                     flops / laneMajorMilliseconds / 1e6, sgemmMilliseconds / directMilliseconds, directMilliseconds / laneMajorMilliseconds)
            + (routesAgree ? "" : "  ROUTES DIFFER")
    }
}

/// The weight gradients of the reference detector's 1×1 convolutions on the training graph's two
/// dense paths, the direct one by both its routes, timed in alternating blocks on the same data
/// (the direct path's rounding differs from sgemm's; its two routes give the same bits).
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
            func backwardWeight(_ kernels: Conv2dKernel.DenseKernels, _ route: Conv2dKernel.WeightGradientRoute = .dotProducts) {
                Conv2dKernel.withDenseKernels(kernels) { Conv2dKernel.withWeightGradientRoute(route) {
                    Conv2dKernel.backwardWeight(g, input: input.pointer, gradOutput: gradOutput.pointer, gradWeight: gradWeight, gradBias: nil)
                } }
            }
            func directBits(_ route: Conv2dKernel.WeightGradientRoute) -> [UInt32] {
                backwardWeight(.packed, route)
                return UnsafeBufferPointer(start: gradWeight, count: g.weightCount).map(\.bitPattern)
            }
            let routesAgree = directBits(.dotProducts) == directBits(.laneMajor)
            let times = try InterleavedTiming.medianMilliseconds([
                InterleavedTiming.Contender { backwardWeight(.openblas) },
                InterleavedTiming.Contender { backwardWeight(.packed, .dotProducts) },
                InterleavedTiming.Contender { backwardWeight(.packed, .laneMajor) },
            ], repetitions: repetitions)
            return WeightGradientBenchmarkRow(shape: shape, batch: batch, sgemmMilliseconds: times[0], directMilliseconds: times[1],
                                              laneMajorMilliseconds: times[2], routesAgree: routesAgree)
        }
    }
}

/// One 3×3, stride-1, pad-1 layer's weight gradient under `dense_kernels: winograd` (direct sums
/// over panels unfolded per task) and `winograd-weights` (in Winograd's domain).
public struct Winograd3x3WeightGradientRow: CustomStringConvertible {
    public let channels: Int, height: Int, width: Int, batch: Int
    public let directMilliseconds: Double
    public let winogradMilliseconds: Double
    /// Largest |winograd − direct| over the largest |direct|.
    public let relativeDifference: Double

    /// The direct convolution's multiply-adds ×2 (Winograd's effective rate counts these too).
    public var flops: Double { 2.0 * Double(batch * channels * channels * 9 * height * width) }

    public static let header = "layer (batch, C→C at H×W)    direct ms  winograd ms  direct GF/s  effective GF/s  direct/winograd  max rel. diff"

    public var description: String {
        "\(batch), \(channels)→\(channels) at \(height)×\(width)".padding(toLength: 28, withPad: " ", startingAt: 0)
            + String(format: "%10.2f %12.2f %12.1f %15.1f %15.2f× %14.1e", directMilliseconds, winogradMilliseconds,
                     flops / directMilliseconds / 1e6, flops / winogradMilliseconds / 1e6, directMilliseconds / winogradMilliseconds,
                     relativeDifference)
    }
}

public enum Winograd3x3WeightGradientBenchmark {
    /// The default detector's FPN output layers (64 channels at strides 8, 16, 32 of its 512 × 256 input).
    public static let detectorLayers = [(channels: 64, height: 64, width: 32), (64, 32, 16), (64, 16, 8)]

    public static func run(batch: Int = 8, repetitions: Int,
                           layers: [(channels: Int, height: Int, width: Int)] = detectorLayers) throws -> [Winograd3x3WeightGradientRow] {
        try layers.map { layer in
            let g = try Conv2dGeometry(batch: batch, inChannels: layer.channels, inHeight: layer.height, inWidth: layer.width,
                                       outChannels: layer.channels, kernel: 3, stride: 1, padding: 1)
            var rng = SeededRandom(seed: 1)
            let input = Initialization.uniform(shape: [g.inputCount], bound: 1, rng: &rng)
            let gradOutput = Initialization.uniform(shape: [g.outputCount], bound: 1, rng: &rng)
            var direct = [Float](repeating: 0, count: g.weightCount), winograd = direct
            func backwardWeight(_ kernels: Conv2dKernel.DenseKernels, into target: inout [Float]) {
                target.withUnsafeMutableBufferPointer { gw in
                    Conv2dKernel.withDenseKernels(kernels) {
                        Conv2dKernel.backwardWeight(g, input: input.pointer, gradOutput: gradOutput.pointer, gradWeight: gw.baseAddress!, gradBias: nil)
                    }
                }
            }
            backwardWeight(.winograd, into: &direct)
            backwardWeight(.winogradWeights, into: &winograd)
            let scale = direct.map { abs($0) }.max() ?? 0
            let difference = zip(direct, winograd).map { abs($0 - $1) }.max() ?? 0
            let times = try InterleavedTiming.medianMilliseconds([
                InterleavedTiming.Contender { backwardWeight(.winograd, into: &direct) },
                InterleavedTiming.Contender { backwardWeight(.winogradWeights, into: &winograd) },
            ], repetitions: repetitions)
            return Winograd3x3WeightGradientRow(channels: layer.channels, height: layer.height, width: layer.width, batch: batch,
                                                directMilliseconds: times[0], winogradMilliseconds: times[1],
                                                relativeDifference: scale > 0 ? Double(difference / scale) : 0)
        }
    }
}
