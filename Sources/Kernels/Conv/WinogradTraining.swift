/// The training graph's 3×3, stride-1, pad-1 layers on `Winograd3x3` (`dense_kernels: winograd`).
/// Their weights change every step, so the filters are transformed per call, in float and one
/// axis at a time (`WinogradFilters(transforming:)`): the inference path's exact double-precision
/// transform of a 64 × 64 layer took 0.33 ms on one thread, more than the whole Winograd pass of
/// the FPN's 16×8 level.
extension Winograd3x3 {
    /// `output = conv(input, weight) + bias`.
    static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>
    ) {
        let filters = WinogradFilters(transforming: weight, bias: bias, outChannels: g.outChannels, inChannels: g.inChannels)
        run(g, input: input, filters: filters, output: output)
    }

    /// `gradInput = ∂L/∂input`: the convolution of the output gradient with the filter rotated
    /// 180° and its channel axes swapped (`PackedConv2d.backwardInput`); at pad 1 the transposed
    /// layer has pad 3 − 1 − 1 = 1, so it is a Winograd layer too.
    static func backwardInput(
        _ g: Conv2dGeometry, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>
    ) {
        precondition(isSupported(g), "Winograd3x3.backwardInput: \(g)")
        let filters = WinogradFilters(rotatedTransposeOf: weight, layerOutChannels: g.outChannels, layerInChannels: g.inChannels)
        run(g.inputGradientGeometry, input: gradOutput, filters: filters, output: gradInput)
    }

    private static func run(_ g: Conv2dGeometry, input: UnsafePointer<Float>, filters: WinogradFilters, output: UnsafeMutablePointer<Float>) {
        let workers = Parallel.threadCount
        let scratch = Workspace(count: scratchCount(g, workers: workers))
        defer { scratch.free() }
        forward(g, input: input, filters: filters, bounds: .identity, output: output, workers: workers, scratch: scratch.pointer)
    }
}

extension WinogradFilters {
    /// `weight` [outChannels, inChannels, 3, 3] and `bias` (nil: zeros) transformed in float:
    /// `U = G g Gᵀ` as the rows' transform, then the columns'. Rounds otherwise than
    /// `init(weight:bias:outChannels:inChannels:)` (exact in double, then rounded once).
    convenience init(transforming weight: UnsafePointer<Float>, bias: UnsafePointer<Float>?, outChannels: Int, inChannels: Int) {
        self.init(outChannels: outChannels, inChannels: inChannels, bias: bias) { o, c, tap in weight[(o * inChannels + c) * 9 + tap] }
    }

    /// The filters of a layer's input gradient: `weight` [layerOut, layerIn, 3, 3] rotated 180° with
    /// its channel axes swapped, so the layer's input channels are the outputs; zero bias.
    convenience init(rotatedTransposeOf weight: UnsafePointer<Float>, layerOutChannels: Int, layerInChannels: Int) {
        self.init(outChannels: layerInChannels, inChannels: layerOutChannels, bias: nil) { o, c, tap in
            weight[(c * layerInChannels + o) * 9 + 8 - tap]
        }
    }

    private convenience init(outChannels: Int, inChannels: Int, bias: UnsafePointer<Float>?,
                             tap: (_ out: Int, _ in: Int, _ tap: Int) -> Float) {
        precondition(outChannels > 0 && inChannels > 0, "WinogradFilters: \(outChannels) outputs × \(inChannels) inputs")
        let matrix = outChannels * inChannels
        let u = Workspace(count: 16 * matrix)
        defer { u.free() }
        for o in 0..<outChannels {
            for c in 0..<inChannels {
                // G = [1 0 0; ½ ½ ½; ½ −½ ½; 0 0 1] on the three rows (column b: lanes i), then on the columns.
                func rowTransform(_ b: Int) -> SIMD4<Float> {
                    let f0 = tap(o, c, b), f1 = tap(o, c, 3 + b), f2 = tap(o, c, 6 + b)
                    return SIMD4(f0, (f0 + f1 + f2) * 0.5, (f0 - f1 + f2) * 0.5, f2)
                }
                let t0 = rowTransform(0), t1 = rowTransform(1), t2 = rowTransform(2)
                let columns = (t0, (t0 + t1 + t2) * 0.5, (t0 - t1 + t2) * 0.5, t2)
                let target = u.pointer + o * inChannels + c
                for i in 0..<4 {
                    target[(4 * i) * matrix] = columns.0[i]
                    target[(4 * i + 1) * matrix] = columns.1[i]
                    target[(4 * i + 2) * matrix] = columns.2[i]
                    target[(4 * i + 3) * matrix] = columns.3[i]
                }
            }
        }
        self.init(transformedPoints: UnsafePointer(u.pointer), bias: bias, outChannels: outChannels, inChannels: inChannels)
    }
}
