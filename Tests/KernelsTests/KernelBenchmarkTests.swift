import Dispatch
import Foundation
import XCTest
import Kernels

/// Per-layer-type timings of the reference detector's training step at batch 8 (input
/// 8×3×512×256). Skipped unless SCREENLAB_KERNEL_BENCH=1; meant for release builds.
final class KernelBenchmarkTests: XCTestCase {
    struct Layer {
        var kind: String
        var geometry: Conv2dGeometry
        var repeats: Int
        var bias: Bool
        /// The stem's input is the image: no input gradient.
        var needsInputGradient: Bool
    }

    static func detectorLayers(batch: Int) throws -> [Layer] {
        var layers: [Layer] = []
        func conv(_ kind: String, _ cin: Int, _ cout: Int, _ h: Int, _ w: Int, kernel: Int, stride: Int = 1, groups: Int = 1,
                  repeats: Int = 1, bias: Bool = false, inputGradient: Bool = true) throws {
            let g = try Conv2dGeometry(
                batch: batch, inChannels: cin, inHeight: h, inWidth: w, outChannels: cout, kernel: kernel, stride: stride,
                padding: kernel / 2, groups: groups)
            layers.append(Layer(kind: kind, geometry: g, repeats: repeats, bias: bias, needsInputGradient: inputGradient))
        }
        try conv("stem 3x3 s2", 3, 16, 512, 256, kernel: 3, stride: 2, inputGradient: false)
        let blocks: [(Int, Int, Int, Int, Int, Int)] = [  // cin, cout, stride, h, w, repeats
            (16, 32, 1, 256, 128, 1), (32, 64, 2, 256, 128, 1), (64, 64, 1, 128, 64, 1), (64, 128, 2, 128, 64, 1),
            (128, 128, 1, 64, 32, 1), (128, 256, 2, 64, 32, 1), (256, 256, 1, 32, 16, 5), (256, 512, 2, 32, 16, 1),
            (512, 512, 1, 16, 8, 1),
        ]
        for (cin, cout, s, h, w, r) in blocks {
            try conv("depthwise 3x3 s\(s)", cin, cin, h, w, kernel: 3, stride: s, groups: cin, repeats: r)
            try conv("pointwise 1x1", cin, cout, h / s, w / s, kernel: 1, repeats: r)
        }
        for (cin, h, w) in [(128, 64, 32), (256, 32, 16), (512, 16, 8)] {
            try conv("fpn lateral 1x1", cin, 64, h, w, kernel: 1, bias: true)
            try conv("dense 3x3 64→64", 64, 64, h, w, kernel: 3, repeats: 2, bias: true)
            try conv("dense 3x3 64→51", 64, 51, h, w, kernel: 3, bias: true)
        }
        return layers
    }

    /// SCREENLAB_KERNEL_CLOCK=cpu measures process CPU time instead of wall time: on a busy
    /// machine that tracks the work done, not the share of the cores we got.
    static let useCPUClock = ProcessInfo.processInfo.environment["SCREENLAB_KERNEL_CLOCK"] == "cpu"

    static func nanoseconds() -> UInt64 {
        if useCPUClock {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
        }
        return DispatchTime.now().uptimeNanoseconds
    }

    func milliseconds(_ repetitions: Int = 3, _ body: () -> Void) -> Double {
        body()
        var times: [Double] = []
        for _ in 0..<repetitions {
            let start = Self.nanoseconds()
            body()
            times.append(Double(Self.nanoseconds() - start) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }

    func buffer(_ count: Int) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        for i in 0..<count { p[i] = Float((i &* 7919) % 2001) / 1000 - 1 }
        return p
    }

    func testDetectorLayerTimings() throws {
        guard ProcessInfo.processInfo.environment["SCREENLAB_KERNEL_BENCH"] == "1" else {
            throw XCTSkip("set SCREENLAB_KERNEL_BENCH=1 (and build with -c release) to time the detector's layers")
        }
        let threads = Int(ProcessInfo.processInfo.environment["SCREENLAB_KERNEL_THREADS"] ?? "") ?? 2
        Parallel.threadCount = threads
        let batch = 8
        var totals: [String: (forward: Double, backward: Double)] = [:]
        var order: [String] = []
        func add(_ kind: String, _ forward: Double, _ backward: Double) {
            if totals[kind] == nil { order.append(kind); totals[kind] = (0, 0) }
            totals[kind]!.forward += forward
            totals[kind]!.backward += backward
        }
        print("layer                          forward ms  bwd-input ms  bwd-weight ms  ×")
        for layer in try Self.detectorLayers(batch: batch) {
            let g = layer.geometry
            let x = buffer(g.inputCount), w = buffer(g.weightCount), b = buffer(g.outChannels)
            let y = buffer(g.outputCount), gy = buffer(g.outputCount), gx = buffer(g.inputCount)
            let gw = buffer(g.weightCount), gb = buffer(g.outChannels)
            defer { for p in [x, w, b, y, gy, gx, gw, gb] { p.deallocate() } }
            let forward = milliseconds { Conv2dKernel.forward(g, input: x, weight: w, bias: layer.bias ? b : nil, output: y) }
            let backwardInput = layer.needsInputGradient
                ? milliseconds { Conv2dKernel.backwardInput(g, gradOutput: gy, weight: w, gradInput: gx) } : 0
            let backwardWeight = milliseconds {
                Conv2dKernel.backwardWeight(g, input: x, gradOutput: gy, gradWeight: gw, gradBias: layer.bias ? gb : nil)
            }
            let name = "\(layer.kind) \(g.inChannels)→\(g.outChannels) @\(g.inHeight)×\(g.inWidth)"
            let gflop = 2 * Double(g.multiplyAdds) / 1e9
            print(name.padding(toLength: 32, withPad: " ", startingAt: 0)
                + String(format: "%9.2f %13.2f %14.2f  %d   GF/s fwd %5.1f bwdW %5.1f", forward, backwardInput, backwardWeight,
                         layer.repeats, gflop / forward * 1e3, gflop / backwardWeight * 1e3))
            let r = Double(layer.repeats)
            add(layer.kind.hasPrefix("depthwise") ? "depthwise 3x3" : layer.kind, forward * r, (backwardInput + backwardWeight) * r)
            if !layer.bias {
                // Every bias-free conv is followed by BatchNorm + ReLU6 on its output (fused).
                let c = g.outChannels, spatial = g.outHeight * g.outWidth
                let mean = buffer(c), variance = buffer(c), gamma = buffer(c), beta = buffer(c)
                let activated = buffer(g.outputCount), gradNormalized = buffer(g.outputCount)
                defer { for p in [mean, variance, gamma, beta, activated, gradNormalized] { p.deallocate() } }
                let bnForward = milliseconds {
                    BatchNormKernel.statistics(input: y, batch: batch, channels: c, spatial: spatial, mean: mean, variance: variance)
                    BatchNormKernel.normalize(input: y, batch: batch, channels: c, spatial: spatial, mean: mean, invStd: variance,
                                              gamma: gamma, beta: beta, activation: .relu6, output: activated)
                }
                let bnBackward = milliseconds {
                    BatchNormKernel.backward(gradOutput: gy, input: y, batch: batch, channels: c, spatial: spatial, mean: mean,
                                             invStd: variance, gamma: gamma, activation: .relu6, activationOutput: activated,
                                             gradInput: gradNormalized, gradGamma: mean, gradBeta: beta)
                }
                add("batchnorm+relu6", bnForward * r, bnBackward * r)
            }
        }
        print("\nper layer type, batch \(batch), \(threads) threads (ms per training step):")
        var sumForward = 0.0, sumBackward = 0.0
        for kind in order {
            let t = totals[kind]!
            sumForward += t.forward
            sumBackward += t.backward
            print(kind.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "forward %8.2f  backward %8.2f", t.forward, t.backward))
        }
        print(String(format: "total               forward %8.2f  backward %8.2f  sum %8.2f", sumForward, sumBackward, sumForward + sumBackward))
        if ProcessInfo.processInfo.environment["SCREENLAB_KERNEL_GEMM"] != "0" {
            print("\n" + GEMMBenchmarkRow.header)
            for row in GEMMBenchmark.run(batch: batch, repetitions: 5) { print(row) }
        }
    }
}
