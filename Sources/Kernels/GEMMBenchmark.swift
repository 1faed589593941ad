import CBLAS
import Dispatch
import Foundation

/// One 1×1-convolution shape timed through the engine and through raw OpenBLAS.
public struct GEMMBenchmarkRow: Sendable, CustomStringConvertible {
    public var inChannels: Int
    public var outChannels: Int
    public var height: Int
    public var width: Int
    public var batch: Int
    public var threads: Int
    /// Median milliseconds of `Conv2dKernel.forward` over the batch.
    public var engineMilliseconds: Double
    /// Median milliseconds of one `cblas_sgemm` per image with OpenBLAS using `threads` threads.
    public var rawMilliseconds: Double

    public var flops: Double { 2.0 * Double(batch * outChannels * inChannels * height * width) }
    public var engineGFLOPS: Double { flops / engineMilliseconds / 1e6 }
    public var rawGFLOPS: Double { flops / rawMilliseconds / 1e6 }
    /// raw time / engine time: ≥ 1 means the engine is at least as fast as raw BLAS.
    public var ratio: Double { rawMilliseconds / engineMilliseconds }

    public var shape: String { "\(inChannels)→\(outChannels) @\(height)×\(width)" }

    public static let header = "shape                   engine ms   raw ms  engine GF/s  raw GF/s  raw/engine"

    public var description: String {
        func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
        return shape.padding(toLength: 22, withPad: " ", startingAt: 0)
            + pad(String(format: "%.2f", engineMilliseconds), 11) + pad(String(format: "%.2f", rawMilliseconds), 9)
            + pad(String(format: "%.1f", engineGFLOPS), 13) + pad(String(format: "%.1f", rawGFLOPS), 10)
            + pad(String(format: "%.3f", ratio), 12)
    }
}

/// Times the reference detector's 1×1 convolutions (input 512×256) through the engine.
public enum GEMMBenchmark {
    /// (in, out, height, width) of every distinct pointwise convolution of the detector:
    /// MobileNetV1-0.5 stages, then the FPN laterals.
    public static let detectorShapes: [(Int, Int, Int, Int)] = [
        (16, 32, 256, 128), (32, 64, 128, 64), (64, 64, 128, 64), (64, 128, 64, 32), (128, 128, 64, 32),
        (128, 256, 32, 16), (256, 256, 32, 16), (256, 512, 16, 8), (512, 512, 16, 8),
        (128, 64, 64, 32), (256, 64, 32, 16), (512, 64, 16, 8),
    ]

    public static func run(batch: Int = 8, repetitions: Int) -> [GEMMBenchmarkRow] {
        let threads = Parallel.threadCount
        let repetitions = max(1, repetitions)
        return detectorShapes.map { cin, cout, h, w in
            let spatial = h * w
            let input = filled(batch * cin * spatial, seed: 1)
            let weight = filled(cout * cin, seed: 2)
            let output = UnsafeMutablePointer<Float>.allocate(capacity: batch * cout * spatial)
            defer { input.deallocate(); weight.deallocate(); output.deallocate() }
            // Shapes are valid constants, so the geometry cannot fail.
            let g = try! Conv2dGeometry(batch: batch, inChannels: cin, inHeight: h, inWidth: w, outChannels: cout, kernel: 1)
            let runEngine = { Conv2dKernel.forward(g, input: input, weight: weight, bias: nil, output: output) }
            let runRaw = {
                openblas_set_num_threads(Int32(threads))
                for n in 0..<batch {
                    cblas_sgemm(
                        CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(cout), blasint(spatial), blasint(cin), 1,
                        weight, blasint(cin), input + n * cin * spatial, blasint(spatial), 0,
                        output + n * cout * spatial, blasint(spatial))
                }
                openblas_set_num_threads(1)
            }
            // Alternate the two, so load that comes and goes on a shared machine hits both alike.
            let (engine, raw) = interleavedMedianMilliseconds(repetitions, runEngine, runRaw)
            return GEMMBenchmarkRow(
                inChannels: cin, outChannels: cout, height: h, width: w, batch: batch, threads: threads,
                engineMilliseconds: engine, rawMilliseconds: raw)
        }
    }

    /// Median wall times of `a` and `b` over `repetitions` runs each, taken in alternating blocks
    /// (a few rounds) so slow drifts in machine load hit both alike. Runs are not alternated one
    /// by one: OpenBLAS's threads spin for a while after a multi-threaded call and would steal
    /// the cores from an engine run that follows at once, so each raw block is followed by a pause.
    static func interleavedMedianMilliseconds(_ repetitions: Int, _ a: () -> Void, _ b: () -> Void) -> (Double, Double) {
        func time(_ body: () -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        let rounds = 3, perBlock = max(1, (repetitions + rounds - 1) / rounds)
        var timesA: [Double] = [], timesB: [Double] = []
        for _ in 0..<rounds {
            a()
            for _ in 0..<perBlock { timesA.append(time(a)) }
            b()
            for _ in 0..<perBlock { timesB.append(time(b)) }
            usleep(200_000)
        }
        return (timesA.sorted()[timesA.count / 2], timesB.sorted()[timesB.count / 2])
    }

    static func filled(_ count: Int, seed: UInt32) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        var state = seed &* 2_654_435_761 | 1
        for i in 0..<count {
            state = state &* 1_664_525 &+ 1_013_904_223
            p[i] = Float(state >> 8) / Float(1 << 24) - 0.5
        }
        return p
    }
}
