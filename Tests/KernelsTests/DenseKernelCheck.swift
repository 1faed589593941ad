import XCTest
@testable import Kernels

/// What every fused dense convolution kernel (`PackedConv2d`, `Winograd3x3`) is held to: the
/// double-precision definition (`ConvReference`) followed by the clamp, in both output layouts,
/// for 1–3 workers and every instruction set the CPU runs, with identical bits whatever the
/// worker count and instruction set.
enum DenseKernelCheck {
    /// One run of a kernel: reads `input`, may use `scratch`, writes `output` in `layout`.
    typealias Run = (_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ layout: FusedConv2d.OutputLayout,
                     _ scratch: UnsafeMutablePointer<Float>) -> Void

    /// A kernel as the check calls it: (geometry, input, weight, bias, bounds, workers, positionsFirst) → NCHW output.
    typealias Kernel = (Conv2dGeometry, [Float], [Float], [Float], ActivationBounds, Int, Bool) -> [Float]

    static func reference(_ g: Conv2dGeometry, _ input: [Float], _ weight: [Float], _ bias: [Float], _ bounds: ActivationBounds) -> [Double] {
        ConvReference.forward(g, input: input, weight: weight, bias: bias).map { min(max($0, Double(bounds.lower)), Double(bounds.upper)) }
    }

    /// `run`'s output as NCHW, whichever layout it was written in; scratch and output start as
    /// NaN so a value the kernel failed to write (or a stale scratch value it used) shows.
    static func output(_ g: Conv2dGeometry, input: [Float], scratchCount: Int, positionsFirst: Bool, _ run: Run) -> [Float] {
        var input = input
        var out = [Float](repeating: .nan, count: g.outputCount)
        var scratch = [Float](repeating: .nan, count: scratchCount)
        let plane = g.outHeight * g.outWidth
        let layout: FusedConv2d.OutputLayout = positionsFirst ? .positionsFirst(rowStride: g.outChannels, imageStride: g.outChannels * plane) : .channelsFirst
        input.withPointer { x in scratch.withPointer { s in out.withPointer { run(x, $0, layout, s) } } }
        guard positionsFirst else { return out }
        var nchw = out
        for n in 0..<g.batch { for p in 0..<plane { for c in 0..<g.outChannels {
            nchw[(n * g.outChannels + c) * plane + p] = out[n * g.outChannels * plane + p * g.outChannels + c]
        } } }
        return nchw
    }

    /// `kernel` on random data from `seed` against `reference` within `tolerance` (relative above
    /// 1, absolute below), for 1–3 workers and both layouts, every run bit-identical to the
    /// single-worker one.
    static func check(_ g: Conv2dGeometry, bounds: ActivationBounds, seed: UInt64, tolerance: Double = 1e-4, kernel: Kernel,
                      file: StaticString = #filePath, line: UInt = #line) {
        var random = TestRandom(seed: seed)
        let input = random.floats(g.inputCount, scale: 2), weight = random.floats(g.weightCount, scale: 0.5), bias = random.floats(g.outChannels)
        let expected = reference(g, input, weight, bias, bounds)
        // Threshold 1: even these small layers are split across workers. Every instruction set
        // this CPU runs (`VectorISA`) must give the AVX2 kernel's bits.
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        PackedConv2d.$parallelMultiplyAdds.withValue(1) {
            VectorISA.use(.avx2)
            let single = kernel(g, input, weight, bias, bounds, 1, false)
            for isa in VectorISA.supported {
                VectorISA.use(isa)
                for workers in [1, 2, 3] {
                    for positionsFirst in [false, true] {
                        let actual = kernel(g, input, weight, bias, bounds, workers, positionsFirst)
                        let label = "\(g) \(isa) workers \(workers) positionsFirst \(positionsFirst)"
                        assertClose(actual, expected, tolerance: tolerance, label, file: file, line: line)
                        XCTAssertEqual(actual, single, "\(label): each value is one sum in one order, whatever the worker count and instruction set",
                                       file: file, line: line)
                    }
                }
            }
        }
    }
}
