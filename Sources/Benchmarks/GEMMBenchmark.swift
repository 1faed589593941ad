import Autograd
import Detection
import Foundation
import Kernels
import NN
import Support
import Tensor

/// One 1×1 convolution of the reference detector, timed through the engine and through the
/// fastest raw OpenBLAS baseline on the same cores.
public struct GEMMBenchmarkRow: CustomStringConvertible {
    public let shape: PointwiseConvolutionShape
    public let batch: Int
    /// Median milliseconds of `Variable.conv2d` on a no-gradient tape (the model's path).
    public let engineMilliseconds: Double
    /// Median milliseconds per raw variant.
    public let rawMilliseconds: [RawPointwiseGEMM: Double]

    public var fastestRaw: (variant: RawPointwiseGEMM, milliseconds: Double) {
        let best = rawMilliseconds.min { $0.value < $1.value }!
        return (best.key, best.value)
    }

    public var flops: Double { 2.0 * Double(batch * shape.outChannels * shape.inChannels * shape.height * shape.width) }
    public var engineGFLOPS: Double { flops / engineMilliseconds / 1e6 }
    public var rawGFLOPS: Double { flops / fastestRaw.milliseconds / 1e6 }
    /// Engine throughput / fastest raw throughput (= raw time / engine time). Target ≥ 0.95;
    /// the engine does the same GEMMs plus its own work, so well above 1 would mean a weak baseline.
    public var throughputRatio: Double { fastestRaw.milliseconds / engineMilliseconds }

    public static let header = "shape                  engine ms  raw ms: OpenBLAS thr  images split  fastest raw        engine GF/s  raw GF/s  engine/raw"

    public var description: String {
        func number(_ value: Double?, _ width: Int, _ format: String = "%.2f") -> String {
            let s = value.map { String(format: format, $0) } ?? "-"
            return String(repeating: " ", count: max(0, width - s.count)) + s
        }
        return shape.description.padding(toLength: 22, withPad: " ", startingAt: 0)
            + number(engineMilliseconds, 10) + number(rawMilliseconds[.openBLASThreads], 21) + number(rawMilliseconds[.imagesAcrossWorkers], 14)
            + "  " + fastestRaw.variant.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)
            + number(engineGFLOPS, 12, "%.1f") + number(rawGFLOPS, 10, "%.1f") + number(throughputRatio, 12, "%.3f")
    }
}

/// Engine overhead on the GEMM path: each distinct 1×1 convolution of the reference detector
/// through `Variable.conv2d` under `Tape.noGradient()` (tensor allocation, checks, the
/// engine's image split, OpenBLAS single-threaded per worker), against raw `cblas_sgemm`
/// computing the same products the fastest way we know on the same cores.
public enum GEMMBenchmark {
    public static func run(configuration: DetectorConfiguration = .reference, batch: Int = 8, repetitions: Int,
                           progress: Bool = true) throws -> [GEMMBenchmarkRow] {
        let threads = Parallel.threadCount
        let shapes = try ReferenceDetector(configuration: configuration).pointwiseConvolutionShapes()
        let line = ProgressLine("GEMM shapes", total: shapes.count, unit: "shapes", enabled: progress)
        defer { line.finish() }
        return try shapes.map { shape in
            var rng = SeededRandom(seed: 1)
            let spatial = shape.height * shape.width
            let input = Initialization.uniform(shape: [batch, shape.inChannels, shape.height, shape.width], bound: 1, rng: &rng)
            let weight = Initialization.uniform(shape: [shape.outChannels, shape.inChannels, 1, 1], bound: 1, rng: &rng)
            let tape = Tape.noGradient()
            let x = tape.constant(input), w = tape.constant(weight)
            let output = UnsafeMutablePointer<Float>.allocate(capacity: batch * shape.outChannels * spatial)
            defer { output.deallocate() }
            // The engine runs with OpenBLAS single-threaded, as in training.
            let engine = InterleavedTiming.Contender(prepare: RawPointwiseGEMM.restoreEngineThreading) { _ = try x.conv2d(weight: w) }
            let raw = RawPointwiseGEMM.allCases.map { variant in
                InterleavedTiming.Contender(prepare: { variant.prepare(threads: threads) },
                                            settleSeconds: variant == .openBLASThreads ? 0.2 : 0) {
                    variant.run(batch: batch, inChannels: shape.inChannels, outChannels: shape.outChannels, spatial: spatial,
                                threads: threads, weight: weight.pointer, input: input.pointer, output: output)
                }
            }
            let times = try InterleavedTiming.medianMilliseconds([engine] + raw, repetitions: repetitions)
            RawPointwiseGEMM.restoreEngineThreading()
            line.advance()
            return GEMMBenchmarkRow(shape: shape, batch: batch, engineMilliseconds: times[0],
                                    rawMilliseconds: Dictionary(uniqueKeysWithValues: zip(RawPointwiseGEMM.allCases, times.dropFirst())))
        }
    }
}
