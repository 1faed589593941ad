/// Inference convolution: `output = clamp(conv(input, weight) + bias)` with the bias and the
/// activation applied to each block right after the GEMM (or depthwise row) that produced it,
/// and all scratch memory (im2col columns, padded depthwise planes) supplied by the caller, so
/// a planned network allocates nothing per call.
///
/// Threading follows `Conv2dKernel`: one level, OpenBLAS single-threaded inside our workers.
/// With at least as many images as workers, images are split across workers (each worker
/// unfolds into its own scratch); otherwise images run in order, the unfold is split by input
/// channel and the GEMM by 16-column panels of output positions, each worker applying the
/// epilogue to the panel it computed. Partitions depend only on the shape and `workers`, and
/// no result is summed across workers: bit-identical runs for a fixed worker count, and equal
/// up to OpenBLAS's blocking across counts (a panel may take another micro-kernel edge path).
public enum FusedConv2d {
    /// Where the output goes. `channelsFirst`: NCHW. `positionsFirst`: image n, position p,
    /// channel c at `n·imageStride + p·rowStride + c` — the detector's flat head matrix, so its
    /// last convolutions write their rows directly instead of through a permute.
    public enum OutputLayout: Equatable, Sendable {
        case channelsFirst
        case positionsFirst(rowStride: Int, imageStride: Int)
    }

    /// Groups other than 1 (dense) and channels (depthwise) have no inference path.
    public static func isSupported(_ g: Conv2dGeometry) -> Bool { g.groups == 1 || g.isDepthwise }

    /// Floats of scratch `forward` needs for `g` with `workers` workers.
    public static func scratchCount(_ g: Conv2dGeometry, workers: Int) -> Int {
        let workers = max(1, workers)
        if g.isDepthwise { return g.isDepthwise3x3 ? min(workers, g.batch * g.inChannels) * paddedPlaneCount(g) : 0 }
        let unfold = Im2col(g)
        if unfold.isIdentity { return 0 }
        let columns = unfold.rows * g.outHeight * g.outWidth
        return splitsImages(g, workers: workers) ? min(workers, g.batch) * columns : columns
    }

    static func splitsImages(_ g: Conv2dGeometry, workers: Int) -> Bool { workers == 1 || g.batch >= workers }

    static func paddedPlaneCount(_ g: Conv2dGeometry) -> Int {
        (g.inHeight + 2) * (g.inWidth + 2) + Depthwise3x3.PaddedPlane.slack
    }

    /// `weight` [out, in/groups, kh, kw], `bias` [out]; `scratch` holds `scratchCount(g, workers:)`
    /// floats. Depthwise outputs are always channels-first.
    public static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        bounds: ActivationBounds, output: UnsafeMutablePointer<Float>, layout: OutputLayout = .channelsFirst,
        workers: Int, scratch: UnsafeMutablePointer<Float>?
    ) {
        precondition(isSupported(g), "FusedConv2d: \(g) has groups neither 1 nor the channel count")
        if g.batch == 0 { return }
        let workers = max(1, workers)
        if g.isDepthwise {
            precondition(layout == .channelsFirst, "FusedConv2d: depthwise output is channels-first")
            FusedDepthwise.forward(g, input: input, weight: weight, bias: bias, bounds: bounds, output: output,
                                   workers: workers, scratch: scratch)
            return
        }
        Parallel.configureBLAS
        let unfold = Im2col(g)
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let columnsCount = unfold.rows * outPlane
        let image = ImageProduct(g: g, depth: unfold.rows, outPlane: outPlane, weight: weight, bias: bias, bounds: bounds,
                                 output: output, layout: layout)
        if splitsImages(g, workers: workers) {
            Parallel.forEachChunk(g.batch, workers: workers) { images, worker in
                let columns = unfold.isIdentity ? nil : scratch! + worker * columnsCount
                for n in images {
                    let x = input + n * g.inChannels * inPlane
                    if let columns { unfold.unfold(x, into: columns) }
                    image.computeInPanels(n, columns: UnsafePointer(columns) ?? x, positions: 0..<outPlane)
                }
            }
            return
        }
        let panels = (outPlane + 15) / 16
        let panelWorkers = g.outChannels * outPlane * unfold.rows >= GEMM.splitThreshold ? workers : 1
        for n in 0..<g.batch {
            let x = input + n * g.inChannels * inPlane
            var b = x
            if !unfold.isIdentity {
                let columns = scratch!
                let perChannel = g.kernelHeight * g.kernelWidth * outPlane
                Parallel.forEachChunk(g.inChannels, workers: workers) { channels, _ in
                    var part = g
                    part.inChannels = channels.count
                    Im2col(part).unfold(x + channels.lowerBound * inPlane, into: columns + channels.lowerBound * perChannel)
                }
                b = UnsafePointer(columns)
            }
            Parallel.forEachChunk(panels, workers: panelWorkers) { range, _ in
                image.computeInPanels(n, columns: b, positions: (range.lowerBound * 16)..<min(outPlane, range.upperBound * 16))
            }
        }
    }

    /// One image's GEMM over a range of output positions, then the epilogue on that block.
    struct ImageProduct {
        let g: Conv2dGeometry
        let depth: Int, outPlane: Int
        let weight: UnsafePointer<Float>, bias: UnsafePointer<Float>
        let bounds: ActivationBounds
        let output: UnsafeMutablePointer<Float>
        let layout: OutputLayout

        /// Output floats per panel: 64 KB, so the epilogue reads what the GEMM just wrote from
        /// L2 instead of memory. One GEMM over a whole 16×128×256 stem output (2 MB) followed by
        /// the epilogue is just the training graph's separate pass again.
        static let panelFloats = 16_384

        /// At least this many positions per GEMM call: each call packs the whole weight matrix
        /// again (512×512 floats = 1 MB in stage 5), so narrow panels would repack it per 32 columns.
        static let minimumPanelWidth = 256

        /// `compute` over `positions` in cache-sized panels (multiples of 16 positions).
        func computeInPanels(_ n: Int, columns: UnsafePointer<Float>, positions: Range<Int>) {
            let width = max(Self.minimumPanelWidth, Self.panelFloats / g.outChannels / 16 * 16)
            var start = positions.lowerBound
            while start < positions.upperBound {
                let end = min(positions.upperBound, start + width)
                compute(n, columns: columns, positions: start..<end)
                start = end
            }
        }

        /// `columns` is the image's [depth × outPlane] matrix (the input itself for 1×1).
        func compute(_ n: Int, columns: UnsafePointer<Float>, positions: Range<Int>) {
            if positions.isEmpty { return }
            let p0 = positions.lowerBound, count = positions.count, cout = g.outChannels
            switch layout {
            case .channelsFirst:
                let c = output + n * cout * outPlane + p0
                GEMM.sgemm(false, false, cout, count, depth, 1, weight, depth, columns + p0, outPlane, 0, c, outPlane)
                ConvolutionEpilogue.addRowBias(c, rows: cout, columns: count, ldc: outPlane, bias: bias, bounds: bounds)
            case let .positionsFirst(rowStride, imageStride):
                // Cᵀ = columnsᵀ · weightᵀ: rows are positions, columns output channels.
                let c = output + n * imageStride + p0 * rowStride
                GEMM.sgemm(true, true, count, cout, depth, 1, columns + p0, outPlane, weight, depth, 0, c, rowStride)
                ConvolutionEpilogue.addColumnBias(c, rows: count, columns: cout, ldc: rowStride, bias: bias, bounds: bounds)
            }
        }
    }
}
