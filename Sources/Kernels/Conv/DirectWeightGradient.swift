import KernelsAVX512

/// The weight gradient of a dense convolution (one group) without the packing sgemm does:
/// `gradWeight[o][d] = Σ_{n,p} gradOutput[n][o][p] · columns[n][d][p]` is a grid of dot products
/// of rows that are both contiguous along positions. A pointwise layer (1×1, stride 1, no padding)
/// reads its input rows as the columns; any other layer unfolds them per panel (`Im2col`).
///
/// - Blocking: panels of whole rows (~1,024 positions: a band of one image, or several whole small
///   images) so that a task's ≤ 64 output-gradient rows stay in L2 and 4 input rows in L1; each
///   block of 4 × 4 (AVX-512) or 2 × 3 (AVX2) pairs keeps one accumulator per pair in registers.
///   An unfolded layer's task unfolds a chunk of input channels (≤ 320 KB of columns, a multiple
///   of 4 columns where it can) of each of its panels into its worker's scratch. On AVX2, layers of
///   ≥ 32 output channels and ≥ 32 weight columns take the lane-major route instead
///   (`DirectWeightGradientLanes.swift`: the 16 lanes as 16 packed matrix products on
///   `PackedMicroKernel`, the same sums, with tasks of its own).
/// - Order: a pair's products go to 16 lanes by position in the panel, the lanes are halved to
///   one at the panel's end, and panel totals are added in panel order — the same on either
///   instruction set, for any block shape and on either route: bit-identical on AVX2 and AVX-512.
/// - Threads: tasks are (segment of panels, output channels[, input-channel chunk]); a task owns its
///   outputs and segments' partial sums are added in segment order, so the result is bit-identical
///   for any thread count (sgemm's weight gradient keeps one partial per worker).
/// - Rounding differs from sgemm's (lane-wise sums over ≤ ~1,024 positions), so
///   `dense_kernels: packed` runs differ from `openblas` runs in these bits too.
/// - The stem's and the 3×3 layers' weight gradients run here only under `dense_kernels: winograd`
///   (batch 8, two threads, against im2col + sgemm: the stem 3.3 → 1.95 ms, the FPN's 3×3 at 64×32
///   6.5 → 4.9 ms, at 32×16 1.8 → 1.4); `packed` keeps them on sgemm, so its runs keep their bits.
///   (Run as shifted rows over zero-padded copies of both operands instead of unfolded panels, the
///   FPN's 3×3 weight gradients had timed level with sgemm.)
enum DirectWeightGradient {
    static let panelPositions = 1024
    static let segmentPanels = 8
    static let maximumRowsPerTask = 64

    /// Output channels per task: at most 64 (their gradient rows of a panel fit in L2), fewer
    /// when that leaves under 4 tasks a worker (static chunks of uneven tasks leave a core idle).
    /// Any split gives the same bits: a task only chooses which outputs one worker computes.
    static func rowsPerTask(outChannels: Int, segments: Int, workers: Int) -> Int {
        let ranges = max(1, (4 * workers + segments - 1) / segments)
        let rows = (outChannels + ranges - 1) / ranges
        return min(maximumRowsPerTask, max(4, (rows + 3) / 4 * 4))
    }

    /// Every dense layer of one group: a 1×1 layer at stride 1 without padding reads its input
    /// rows in place; any other kernel, stride or padding first unfolds each panel (`Im2col`) for
    /// a chunk of input channels into the task's scratch.
    static func isSupported(_ g: Conv2dGeometry) -> Bool { g.groups == 1 }

    /// Floats of a task's unfolded columns (a panel of a chunk of input channels): 320 KB, so
    /// that they stay in L2 beside the panel's output-gradient rows (256 KB for 64 channels).
    static let unfoldedFloats = 81_920

    /// Rows `firstRow..<endRow` of images `firstImage..<firstImage + images`.
    struct Panel: Equatable {
        let firstImage: Int, images: Int, firstRow: Int, endRow: Int
    }

    /// The panels, in order: a large image is cut into bands of whole rows (~`panelPositions`);
    /// small images are grouped, whole, up to `panelPositions` a panel.
    static func panels(batch: Int, height: Int, width: Int) -> [Panel] {
        guard batch > 0, height > 0, width > 0 else { return [] }
        var result: [Panel] = []
        if height * width > panelPositions {
            // Bands of equal height (64 rows → 22, 21, 21, not 30, 30, 4).
            let bands = (height * width + panelPositions - 1) / panelPositions
            let band = (height + bands - 1) / bands
            for image in 0..<batch {
                for row in stride(from: 0, to: height, by: band) {
                    result.append(Panel(firstImage: image, images: 1, firstRow: row, endRow: min(height, row + band)))
                }
            }
        } else {
            let perPanel = max(1, panelPositions / (height * width))
            for image in stride(from: 0, to: batch, by: perPanel) {
                result.append(Panel(firstImage: image, images: min(perPanel, batch - image), firstRow: 0, endRow: height))
            }
        }
        return result
    }

    /// What one task computes: output channels `rows` × the weight columns of input channels
    /// `channels` (all of them for a 1×1 layer read in place).
    struct Task {
        let rows: Range<Int>, channels: Range<Int>
    }

    /// The tasks of one segment: for a 1×1 layer, ranges of output channels (`rowsPerTask`); for
    /// an unfolded one, chunks of input channels whose panel columns fit `unfoldedFloats`, times
    /// ranges of at most 64 output channels; on the lane-major route, `laneMajorTasks`.
    static func tasks(
        _ g: Conv2dGeometry, unfolds: Bool, panelPositions: Int, segments: Int, workers: Int, laneMajor: Bool = false
    ) -> [Task] {
        if laneMajor { return laneMajorTasks(g, segments: segments, workers: workers, unfolds: unfolds) }
        if !unfolds {
            let rowsPerTask = rowsPerTask(outChannels: g.outChannels, segments: segments, workers: workers)
            return stride(from: 0, to: g.outChannels, by: rowsPerTask).map {
                Task(rows: $0..<min(g.outChannels, $0 + rowsPerTask), channels: 0..<g.inChannels)
            }
        }
        // Whole 4-wide blocks where the budget allows: an edge column runs one pair at a time.
        let taps = g.kernelHeight * g.kernelWidth
        var perChunk = max(1, min(g.inChannels, unfoldedFloats / (taps * panelPositions)))
        if perChunk < g.inChannels, let whole = stride(from: perChunk, through: 1, by: -1).first(where: { $0 * taps % 4 == 0 }) {
            perChunk = whole
        }
        return stride(from: 0, to: g.inChannels, by: perChunk).flatMap { first in
            stride(from: 0, to: g.outChannels, by: maximumRowsPerTask).map {
                Task(rows: $0..<min(g.outChannels, $0 + maximumRowsPerTask), channels: first..<min(g.inChannels, first + perChunk))
            }
        }
    }

    static func compute(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>, gradWeight: UnsafeMutablePointer<Float>
    ) {
        precondition(isSupported(g), "DirectWeightGradient: \(g)")
        let weights = g.weightCount
        let panels = panels(batch: g.batch, height: g.outHeight, width: g.outWidth)
        let segments = max(1, (panels.count + segmentPanels - 1) / segmentPanels)
        let unfolds = !g.isPointwise
        let largestPanel = panels.map { $0.images * ($0.endRow - $0.firstRow) * g.outWidth }.max() ?? 0
        // Read once per call (a lazy global: each read is a `swift_once` call), as `PackedMicroKernel.isWide`.
        let wide = VectorISA.current == .avx512
        let taps = g.kernelHeight * g.kernelWidth, depth = g.inChannels * taps
        let route = preferredRoute(wide: wide, outChannels: g.outChannels, depth: depth)
        // Panels of whole 16-position steps run lane-major on that route; the others keep the dot products.
        let lanePanels = route != .laneMajor ? 0 : panels.filter { fitsLaneMajor(length: ($0.endRow - $0.firstRow) * g.outWidth) }.count
        let laneMajor = lanePanels > 0
        let tasks = tasks(g, unfolds: unfolds, panelPositions: largestPanel, segments: segments, workers: Parallel.threadCount,
                          laneMajor: laneMajor)
        // Segment 0 writes the gradient in place; each later one keeps a partial, added below in order.
        let partials = Workspace(count: (segments - 1) * weights, zeroed: true)
        defer { partials.free() }
        gradWeight.update(repeating: 0, count: weights)
        // Lane-major panels unfold a pass of channels at a time and keep them packed instead (a
        // panel left to the dot products unfolds its task's channels at once).
        let unfoldedChannels = lanePanels == panels.count ? passChannels(taps: taps) : tasks.map(\.channels.count).max() ?? 0
        let columnFloats = unfolds ? unfoldedChannels * taps * largestPanel : 0
        let packFloats = laneMajor ? tasks.map {
            laneMajorPackFloats(rows: $0.rows.count, columns: $0.channels.count * taps, positions: largestPanel)
        }.max() ?? 0 : 0
        let workers = Parallel.workerCount(for: segments * tasks.count)
        let scratch = Workspace(count: workers * (columnFloats + packFloats))
        defer { scratch.free() }
        Parallel.forEachChunk(segments * tasks.count, workers: workers) { range, worker in
            let columns = scratch.pointer + worker * (columnFloats + packFloats)
            let packed = laneMajor ? columns + columnFloats : nil
            for index in range {
                let segment = index / tasks.count, task = tasks[index % tasks.count]
                let output = segment == 0 ? gradWeight : partials.pointer + (segment - 1) * weights
                for panel in panels[(segment * segmentPanels)..<min(panels.count, (segment + 1) * segmentPanels)] {
                    if unfolds {
                        accumulateUnfolded(g, panel: panel, task: task, wide: wide, packed: packed, input: input, gradOutput: gradOutput,
                                           columns: columns, output: output + task.channels.lowerBound * taps, outputRowStride: depth)
                    } else {
                        accumulate(g, panel: panel, task: task, wide: wide, packed: packed, input: input, gradOutput: gradOutput,
                                   output: output)
                    }
                }
            }
        }
        Vector.addInOrder(partials.pointer, partCount: segments - 1, count: weights, to: gradWeight)
    }

    /// A 1×1 layer's panel: the task's output channels against its input channels, read in place.
    static func accumulate(
        _ g: Conv2dGeometry, panel: Panel, task: Task, wide: Bool, packed: UnsafeMutablePointer<Float>?, input: UnsafePointer<Float>,
        gradOutput: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        let plane = g.outHeight * g.outWidth
        let span = (panel.firstRow * g.outWidth)..<(panel.endRow * g.outWidth)
        accumulate(rows: task.rows, columns: task.channels.count, wide: wide, packed: packed,
                   gradOutput: gradOutput + panel.firstImage * g.outChannels * plane + span.lowerBound,
                   gradOutputRowStride: plane, gradOutputImageStride: g.outChannels * plane,
                   input: input + (panel.firstImage * g.inChannels + task.channels.lowerBound) * plane + span.lowerBound,
                   inputRowStride: plane, inputImageStride: g.inChannels * plane,
                   images: panel.images, length: span.count, output: output + task.channels.lowerBound, outputRowStride: g.inChannels)
    }

    /// Any other layer's panel: the task's input channels unfolded into `columns` ([image][chunk
    /// depth][panel positions]), then multiplied as the 1×1 layers' rows are.
    static func accumulateUnfolded(
        _ g: Conv2dGeometry, panel: Panel, task: Task, wide: Bool, packed: UnsafeMutablePointer<Float>?, input: UnsafePointer<Float>,
        gradOutput: UnsafePointer<Float>, columns: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, outputRowStride: Int
    ) {
        let inPlane = g.inHeight * g.inWidth, plane = g.outHeight * g.outWidth
        let rows = panel.firstRow..<panel.endRow, length = rows.count * g.outWidth
        if let packed, fitsLaneMajor(length: length) {
            accumulateUnfoldedLaneMajor(g, panel: panel, task: task, wide: wide, packed: packed, input: input, gradOutput: gradOutput,
                                        columns: columns, output: output, outputRowStride: outputRowStride)
            return
        }
        var chunk = g
        chunk.inChannels = task.channels.count
        let unfold = Im2col(chunk), chunkDepth = unfold.rows
        for image in 0..<panel.images {
            let x = input + ((panel.firstImage + image) * g.inChannels + task.channels.lowerBound) * inPlane
            unfold.unfold(x, outputRows: rows, into: columns + image * chunkDepth * length)
        }
        accumulate(rows: task.rows, columns: chunkDepth, wide: wide, packed: packed,
                   gradOutput: gradOutput + panel.firstImage * g.outChannels * plane + panel.firstRow * g.outWidth,
                   gradOutputRowStride: plane, gradOutputImageStride: g.outChannels * plane,
                   input: UnsafePointer(columns), inputRowStride: length, inputImageStride: chunkDepth * length,
                   images: panel.images, length: length, output: output, outputRowStride: outputRowStride)
    }

    /// Adds the dot products of output-gradient rows `rows` with input rows `0..<columns` (each
    /// `length` positions of `images` images) to `output[row · outputRowStride + column]`: lane-major
    /// (`accumulateLaneMajor`) where `packed` scratch is given and the span is whole steps, else in
    /// 4 × 4 AVX-512 blocks when `wide` or 2 × 3 AVX2 blocks (the same bits, every way).
    static func accumulate(
        rows: Range<Int>, columns inputRows: Int, wide: Bool, packed: UnsafeMutablePointer<Float>?,
        gradOutput gradBase: UnsafePointer<Float>, gradOutputRowStride: Int, gradOutputImageStride: Int,
        input inputBase: UnsafePointer<Float>, inputRowStride: Int, inputImageStride: Int,
        images: Int, length: Int, output: UnsafeMutablePointer<Float>, outputRowStride: Int
    ) {
        if let packed, fitsLaneMajor(length: length) {
            accumulateLaneMajor(rows: rows, columns: inputRows, wide: wide, gradOutput: gradBase, gradOutputRowStride: gradOutputRowStride,
                                gradOutputImageStride: gradOutputImageStride, input: inputBase, inputRowStride: inputRowStride,
                                inputImageStride: inputImageStride, images: images, length: length, output: output,
                                outputRowStride: outputRowStride, packed: packed)
            return
        }
        let blockRows = wide ? 4 : 2, blockColumns = wide ? 4 : 3
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 16) { buffer in
            let sums = buffer.baseAddress!
            var column = 0
            while column < inputRows {
                let columns = min(blockColumns, inputRows - column)
                var row = rows.lowerBound
                while row < rows.upperBound {
                    let blockHeight = min(blockRows, rows.upperBound - row)
                    let gy = gradBase + row * gradOutputRowStride, x = inputBase + column * inputRowStride
                    if blockHeight == blockRows && columns == blockColumns {
                        if wide {
                            DirectWeightGradientAVX512.block4x4(
                                gradOutput: gy, gradOutputRowStride: gradOutputRowStride, gradOutputImageStride: gradOutputImageStride,
                                input: x, inputRowStride: inputRowStride, inputImageStride: inputImageStride,
                                images: images, length: length, sums: sums)
                        } else {
                            block2x3(gradOutput: gy, gradOutputRowStride: gradOutputRowStride, gradOutputImageStride: gradOutputImageStride,
                                     input: x, inputRowStride: inputRowStride, inputImageStride: inputImageStride,
                                     images: images, length: length, sums: sums)
                        }
                    } else {
                        for r in 0..<blockHeight {
                            for c in 0..<columns {
                                sums[r * columns + c] = pair(
                                    gradOutput: gy + r * gradOutputRowStride, gradOutputImageStride: gradOutputImageStride,
                                    input: x + c * inputRowStride, inputImageStride: inputImageStride, images: images, length: length)
                            }
                        }
                    }
                    for r in 0..<blockHeight {
                        for c in 0..<columns { output[(row + r) * outputRowStride + column + c] += sums[r * columns + c] }
                    }
                    row += blockHeight
                }
                column += columns
            }
        }
    }

    /// 2 × 3 pairs in 8-lane registers: each pair's 16 lanes are two accumulators (positions
    /// q..q+7 and q+8..q+15 of every 16), 12 in all, as many as AVX2's 16 registers hold beside
    /// the gradient rows. Same sums, same bits as `DirectWeightGradientAVX512.block4x4`.
    @inline(never)
    static func block2x3(
        gradOutput: UnsafePointer<Float>, gradOutputRowStride rowStride: Int, gradOutputImageStride: Int,
        input: UnsafePointer<Float>, inputRowStride: Int, inputImageStride: Int,
        images: Int, length: Int, sums: UnsafeMutablePointer<Float>
    ) {
        var block = Block2x3()
        let full = length / 16 * 16, rest = length - full
        for image in 0..<images {
            let g = gradOutput + image * gradOutputImageStride, x = input + image * inputImageStride
            var q = 0
            while q < full {
                block.add(loadSixteen(g + q), loadSixteen(g + rowStride + q),
                          loadSixteen(x + q), loadSixteen(x + inputRowStride + q), loadSixteen(x + 2 * inputRowStride + q))
                q += 16
            }
            if rest > 0 {
                block.add(loadSixteen(g + q, count: rest), loadSixteen(g + rowStride + q, count: rest), loadSixteen(x + q, count: rest),
                          loadSixteen(x + inputRowStride + q, count: rest), loadSixteen(x + 2 * inputRowStride + q, count: rest))
            }
        }
        sums[0] = reduce(block.l00, block.h00); sums[1] = reduce(block.l01, block.h01); sums[2] = reduce(block.l02, block.h02)
        sums[3] = reduce(block.l10, block.h10); sums[4] = reduce(block.l11, block.h11); sums[5] = reduce(block.l12, block.h12)
    }

    /// `block2x3`'s accumulators: low and high halves of each pair's 16 lanes.
    struct Block2x3 {
        typealias V = SIMD8<Float>
        var l00 = V(), h00 = V(), l01 = V(), h01 = V(), l02 = V(), h02 = V()
        var l10 = V(), h10 = V(), l11 = V(), h11 = V(), l12 = V(), h12 = V()

        @inline(__always)
        mutating func add(_ g0: (V, V), _ g1: (V, V), _ x0: (V, V), _ x1: (V, V), _ x2: (V, V)) {
            l00 = l00.addingProduct(g0.0, x0.0); h00 = h00.addingProduct(g0.1, x0.1)
            l10 = l10.addingProduct(g1.0, x0.0); h10 = h10.addingProduct(g1.1, x0.1)
            l01 = l01.addingProduct(g0.0, x1.0); h01 = h01.addingProduct(g0.1, x1.1)
            l11 = l11.addingProduct(g1.0, x1.0); h11 = h11.addingProduct(g1.1, x1.1)
            l02 = l02.addingProduct(g0.0, x2.0); h02 = h02.addingProduct(g0.1, x2.1)
            l12 = l12.addingProduct(g1.0, x2.0); h12 = h12.addingProduct(g1.1, x2.1)
        }
    }

    /// One pair (the edges of the block grid), in the same 16 lanes.
    static func pair(
        gradOutput: UnsafePointer<Float>, gradOutputImageStride: Int, input: UnsafePointer<Float>, inputImageStride: Int,
        images: Int, length: Int
    ) -> Float {
        var low = SIMD8<Float>(), high = SIMD8<Float>()
        let full = length / 16 * 16, rest = length - full
        for image in 0..<images {
            let g = gradOutput + image * gradOutputImageStride, x = input + image * inputImageStride
            var q = 0
            while q < full {
                low = low.addingProduct(load8(g + q), load8(x + q))
                high = high.addingProduct(load8(g + q + 8), load8(x + q + 8))
                q += 16
            }
            if rest > 0 {
                let (gl, gh) = loadSixteen(g + full, count: rest), (xl, xh) = loadSixteen(x + full, count: rest)
                low = low.addingProduct(gl, xl)
                high = high.addingProduct(gh, xh)
            }
        }
        return reduce(low, high)
    }

    /// 16 positions as two 8-lane halves.
    @inline(__always)
    static func loadSixteen(_ p: UnsafePointer<Float>) -> (SIMD8<Float>, SIMD8<Float>) { (load8(p), load8(p + 8)) }

    /// The last `count` (< 16) positions in the low lanes, zeros above (adding 0 · 0 changes no
    /// sum): the AVX-512 block's partial step, lane for lane.
    @inline(__always)
    static func loadSixteen(_ p: UnsafePointer<Float>, count: Int) -> (SIMD8<Float>, SIMD8<Float>) {
        var v = SIMD16<Float>()
        for i in 0..<count { v[i] = p[i] }
        return (v.lowHalf, v.highHalf)
    }

    /// 16 lanes (as two halves) → 1 by halving: `DirectWeightGradientAVX512.reduce`'s tree.
    @inline(__always)
    static func reduce(_ low: SIMD8<Float>, _ high: SIMD8<Float>) -> Float {
        let v8 = low + high
        let v4 = v8.lowHalf + v8.highHalf
        let v2 = v4.lowHalf + v4.highHalf
        return v2[0] + v2[1]
    }
}
