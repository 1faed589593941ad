/// Inference convolution: `output = clamp(conv(input, weight) + bias)` with the bias and the
/// activation applied to each block right after the GEMM (or depthwise row) that produced it,
/// and all scratch memory (im2col columns, padded depthwise planes) supplied by the caller, so
/// a planned network allocates nothing per call.
///
/// Threading follows `Conv2dKernel`: one level, OpenBLAS single-threaded inside our workers.
/// With at least as many images as workers, images are split across workers; otherwise images
/// run in order and each image's work is split: a dense k×k convolution by panels of output
/// rows (each worker unfolds a panel into its own scratch, ~256 KB, and multiplies it while it
/// is in cache), a 1×1 by 16-column panels of output positions. Each worker applies the
/// epilogue to the block it computed. Partitions depend only on the shape and `workers`, and
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
        let panel = unfold.rows * unfoldPanelRows(g, workers: workers) * g.outWidth
        return (splitsImages(g, workers: workers) ? min(workers, g.batch) : workers) * panel
    }

    /// Workers that share one image's panels (when images are not split): 1 below GEMM's split threshold.
    static func panelWorkers(_ g: Conv2dGeometry, workers: Int) -> Int {
        g.outChannels * g.outHeight * g.outWidth * Im2col(g).rows >= GEMM.splitThreshold ? workers : 1
    }

    static func splitsImages(_ g: Conv2dGeometry, workers: Int) -> Bool { workers == 1 || g.batch >= workers }

    /// Output rows unfolded at a time: about 256 KB of columns (at least `ImageProduct.minimumPanelWidth`
    /// positions), multiplied while they are in L2. Unfolding a whole image first (4.7 MB for a
    /// 64-channel 3×3 convolution at 32×64) wrote it to memory and read it back for the GEMM.
    /// When one image's panels are shared by workers, every worker gets at least one.
    static func unfoldPanelRows(_ g: Conv2dGeometry, workers: Int) -> Int {
        let positions = max(ImageProduct.minimumPanelWidth, 65_536 / max(1, Im2col(g).rows))
        var rows = (positions + g.outWidth - 1) / g.outWidth
        if !splitsImages(g, workers: workers) {
            let sharing = panelWorkers(g, workers: workers)
            rows = min(rows, (g.outHeight + sharing - 1) / sharing)
        }
        return max(1, min(g.outHeight, rows))
    }

    /// Per worker, the zero-bordered plane of a 3×3 depthwise layer (stride 2: `SplitRows`).
    static func paddedPlaneCount(_ g: Conv2dGeometry) -> Int {
        g.strideHeight == 2 ? Depthwise3x3.SplitRows(height: g.inHeight, width: g.inWidth).count
            : (g.inHeight + 2) * (g.inWidth + 2) + Depthwise3x3.PaddedPlane.slack
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
        let image = ImageProduct(g: g, depth: unfold.rows, outPlane: outPlane, weight: weight, bias: bias, bounds: bounds,
                                 output: output, layout: layout)
        if !unfold.isIdentity {
            // Dense k×k: unfold a panel of output rows into this worker's scratch, multiply it, next panel.
            let panelRows = unfoldPanelRows(g, workers: workers), panelCount = (g.outHeight + panelRows - 1) / panelRows
            let panelFloats = unfold.rows * panelRows * g.outWidth
            func run(_ n: Int, panel: Int, worker: Int) {
                let rows = (panel * panelRows)..<min(g.outHeight, (panel + 1) * panelRows)
                let columns = scratch! + worker * panelFloats
                unfold.unfold(input + n * g.inChannels * inPlane, outputRows: rows, into: columns)
                image.computeInPanels(n, columns: UnsafePointer(columns), ldb: rows.count * g.outWidth,
                                      positions: (rows.lowerBound * g.outWidth)..<(rows.upperBound * g.outWidth))
            }
            if splitsImages(g, workers: workers) {
                Parallel.forEachChunk(g.batch, workers: workers) { images, worker in
                    for n in images { for panel in 0..<panelCount { run(n, panel: panel, worker: worker) } }
                }
            } else {
                for n in 0..<g.batch {
                    Parallel.forEachChunk(panelCount, workers: panelWorkers(g, workers: workers)) { panels, worker in
                        for panel in panels { run(n, panel: panel, worker: worker) }
                    }
                }
            }
            return
        }
        // 1×1: the input is the columns matrix.
        if splitsImages(g, workers: workers) {
            Parallel.forEachChunk(g.batch, workers: workers) { images, _ in
                for n in images {
                    image.computeInPanels(n, columns: input + n * g.inChannels * inPlane, ldb: outPlane, positions: 0..<outPlane)
                }
            }
            return
        }
        let panels = (outPlane + 15) / 16
        for n in 0..<g.batch {
            let x = input + n * g.inChannels * inPlane
            Parallel.forEachChunk(panels, workers: panelWorkers(g, workers: workers)) { range, _ in
                let positions = (range.lowerBound * 16)..<min(outPlane, range.upperBound * 16)
                image.computeInPanels(n, columns: x + positions.lowerBound, ldb: outPlane, positions: positions)
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

        /// `compute` over `positions` in cache-sized panels (multiples of 16 positions);
        /// `columns` points at the column of `positions.lowerBound`, rows `ldb` apart.
        func computeInPanels(_ n: Int, columns: UnsafePointer<Float>, ldb: Int, positions: Range<Int>) {
            let width = max(Self.minimumPanelWidth, Self.panelFloats / g.outChannels / 16 * 16)
            var start = positions.lowerBound
            while start < positions.upperBound {
                let end = min(positions.upperBound, start + width)
                compute(n, columns: columns + (start - positions.lowerBound), ldb: ldb, positions: start..<end)
                start = end
            }
        }

        /// The GEMM for output `positions` of image `n` from the columns of those positions
        /// (`columns` at the first, rows `ldb` apart), then the epilogue on that block.
        func compute(_ n: Int, columns: UnsafePointer<Float>, ldb: Int, positions: Range<Int>) {
            if positions.isEmpty { return }
            let p0 = positions.lowerBound, count = positions.count, cout = g.outChannels
            switch layout {
            case .channelsFirst:
                let c = output + n * cout * outPlane + p0
                GEMM.sgemm(false, false, cout, count, depth, 1, weight, depth, columns, ldb, 0, c, outPlane)
                ConvolutionEpilogue.addRowBias(c, rows: cout, columns: count, ldc: outPlane, bias: bias, bounds: bounds)
            case let .positionsFirst(rowStride, imageStride):
                // Cᵀ = columnsᵀ · weightᵀ: rows are positions, columns output channels.
                let c = output + n * imageStride + p0 * rowStride
                GEMM.sgemm(true, true, count, cout, depth, 1, columns, ldb, weight, depth, 0, c, rowStride)
                ConvolutionEpilogue.addColumnBias(c, rows: count, columns: cout, ldc: rowStride, bias: bias, bounds: bounds)
            }
        }
    }
}
