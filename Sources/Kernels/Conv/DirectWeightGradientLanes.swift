/// `DirectWeightGradient`'s lane-major route on AVX2: the same sums as the 2 × 3 dot-product
/// block, bit for bit, from an outer-product kernel that is not bound by loads.
///
/// A pair's sum over a panel is 16 lane sums (lane j adds the products at positions 16k + j in k
/// order), halved to one. Taken lane by lane, those lane sums are 16 small matrix products of
/// depth `positions ÷ 16`: for lane j, `S_j[d][o] = Σ_k x[d][16k + j] · g[o][16k + j]`. Each runs
/// on `PackedMicroKernel`'s 6 × 16 register block (6 input rows broadcast, 16 output-gradient rows
/// in two vectors: 2 vector loads and 6 broadcasts per 12 fused multiply-adds, where the
/// dot-product block needs 10 vector loads), every output's products added in k order from zero —
/// the lane's own chain. The 16 lane blocks are then halved exactly as `reduce` halves a pair's
/// 16 lanes.
///
/// Both operands are packed lane-major per panel (4 × 4 transposes in registers): a task's input
/// rows once (`packInputBlocks`; an unfolded layer's unfolded a few channels at a time and packed
/// as they come, `accumulateUnfoldedLaneMajor`), then its output-gradient rows 64 at a time
/// (`packLanes`), each multiplied with all the input rows. Packing costs about `1/rows + 1/columns`
/// of the multiply, so tasks are as large as the thread count allows and split on the cheaper side
/// (`laneMajorTasks`), and narrow layers keep the dot products (`preferredRoute`). Panels whose span
/// is not whole 16-position steps keep the dot products too.
///
/// Zen 3, two threads, batch 8, both routes interleaved: `bench engine`'s 1×1 table 1.16–1.25× as
/// fast in all, 1.1–1.6× on every layer of ≥ 64 channels (sgemm, with other bits, is still
/// 1.15–1.2× faster); the FPN's 3×3 layers 1.10× (64×32), 1.18× (32×16), 1.16× (16×8).
extension DirectWeightGradient {
    typealias Route = Conv2dKernel.WeightGradientRoute

    /// A route to use wherever it applies, for tests and benchmarks (`nil`: `preferredRoute`).
    @TaskLocal static var forcedRoute: Route?

    static let lanes = 16
    /// Output-gradient rows a lane-major block multiplies (two 8-lane vectors).
    static let laneBlockRows = 16
    /// Input rows a lane-major block broadcasts.
    static let laneBlockColumns = 6

    /// The route for a layer of `outChannels` gradient rows and `depth` weight columns (input
    /// channels × taps): lane-major on AVX2 where both are at least 32. Packing costs about
    /// `1/outChannels + 1/depth` of the multiply, so narrower layers keep the dot products (Zen 3,
    /// 16 → 32 at 256×128: 0.77× as fast lane-major). The AVX-512 4 × 4 block holds 16 lanes a
    /// register and has the loads to feed it.
    static func preferredRoute(wide: Bool, outChannels: Int, depth: Int) -> Route {
        if let forcedRoute { return forcedRoute }
        return !wide && min(outChannels, depth) >= 32 ? .laneMajor : .dotProducts
    }

    /// Whether a panel of `length` positions an image can run lane-major: whole 16-position steps.
    static func fitsLaneMajor(length: Int) -> Bool { length % lanes == 0 }

    /// Lane-major tasks: as few ranges as give every worker a task, each task packing its input
    /// rows once a panel and its gradient rows 64 at a time. Each range of output channels packs
    /// the input rows again, each range of input channels the gradient rows: a 1×1 layer splits
    /// its output channels (whole 16-row blocks) when it has fewer input channels than output
    /// channels — its input rows are then the cheaper to pack again — else its input channels
    /// (multiples of 6; Zen 3, 256 → 64 at 32×16: 0.88–1.0× the dot products split by rows,
    /// 1.09–1.16× split by columns); an unfolded layer splits only its input channels (multiples
    /// of `passChannels`: a row range would unfold them all again). Any split gives the same bits:
    /// each weight's sum stays in one task a segment.
    static func laneMajorTasks(_ g: Conv2dGeometry, segments: Int, workers: Int, unfolds: Bool = false) -> [Task] {
        let wanted = max(1, (workers + segments - 1) / segments)
        let rowRanges = unfolds || g.inChannels > g.outChannels ? 1 : wanted
        let perRange = (g.outChannels + rowRanges - 1) / rowRanges
        let rowsPerTask = (perRange + laneBlockRows - 1) / laneBlockRows * laneBlockRows
        let rowTasks = (g.outChannels + rowsPerTask - 1) / rowsPerTask
        let columnRanges = max(1, (wanted + rowTasks - 1) / rowTasks)
        let granularity = unfolds ? passChannels(taps: g.kernelHeight * g.kernelWidth) : laneBlockColumns
        let perColumnRange = (g.inChannels + columnRanges - 1) / columnRanges
        let columnsPerTask = min(g.inChannels, (perColumnRange + granularity - 1) / granularity * granularity)
        return stride(from: 0, to: g.inChannels, by: columnsPerTask).flatMap { first in
            stride(from: 0, to: g.outChannels, by: rowsPerTask).map {
                Task(rows: $0..<min(g.outChannels, $0 + rowsPerTask), channels: first..<min(g.inChannels, first + columnsPerTask))
            }
        }
    }

    /// Input channels an unfolded layer's lane-major task unfolds at a time: whole blocks of 6
    /// weight columns, at least 32 of them (2 × 9 taps → 4 channels, 36 columns), so that the
    /// unfolded rows stay small (the whole task's rows are packed, not kept unfolded).
    static func passChannels(taps: Int) -> Int {
        var channels = 1
        while (channels * taps) % laneBlockColumns != 0 { channels += 1 }
        let wholeBlocks = channels
        while channels * taps < 32 { channels += wholeBlocks }
        return channels
    }

    /// Floats of packed rows a task of `rows` output-gradient rows and `columns` input rows needs
    /// for a panel of `positions`: up to 64 output-gradient rows and all its input rows (in blocks
    /// of 6), lane-major.
    static func laneMajorPackFloats(rows: Int, columns: Int, positions: Int) -> Int {
        let (gradientLane, inputLane) = laneStrides(positions: positions)
        let gradientBlocks = (min(rows, maximumRowsPerTask) + laneBlockRows - 1) / laneBlockRows
        let inputBlocks = (columns + laneBlockColumns - 1) / laneBlockColumns
        return (gradientBlocks * gradientLane + inputBlocks * inputLane) * lanes
    }

    /// Floats from one lane's packed rows to the next's, for a panel of `positions`: one cache
    /// line more than the lane's values, so that a 1,024-position panel's lanes are not 4 KB apart
    /// (16 streams on one L1 set: the packing ran at a third of its speed).
    static func laneStrides(positions: Int) -> (gradient: Int, input: Int) {
        let depth = positions / lanes, line = 16
        return (depth * laneBlockRows + line, depth * laneBlockColumns + line)
    }

    /// `accumulate`'s sums by the lane-major route: output-gradient rows `rows` against input rows
    /// `0..<columns`, each `length` (a multiple of 16) positions of `images` images; `packed` holds
    /// `laneMajorPackFloats(rows: rows.count, columns: columns, positions: images · length)` floats.
    ///
    /// The input rows are packed first, all of them (they are multiplied with every 64 gradient
    /// rows, packed in turn). Both operands are packed so that each lane's product reads two short
    /// contiguous streams (`PackedMicroKernel`'s layout): read in place, the 6 input rows'
    /// broadcasts touch a new cache line every step, and the rows (24 KB for a 1,024-position
    /// panel) did not stay in L1 across the 16 lanes (Zen 3: 0.81–0.93× the dot-product block).
    static func accumulateLaneMajor(
        rows: Range<Int>, columns inputRows: Int, wide: Bool,
        gradOutput gradBase: UnsafePointer<Float>, gradOutputRowStride: Int, gradOutputImageStride: Int,
        input inputBase: UnsafePointer<Float>, inputRowStride: Int, inputImageStride: Int,
        images: Int, length: Int, output: UnsafeMutablePointer<Float>, outputRowStride: Int, packed: UnsafeMutablePointer<Float>
    ) {
        precondition(fitsLaneMajor(length: length), "lane-major spans are whole steps of 16 positions")
        let steps = length / lanes, packedInput = packedInputStart(packed, rows: rows.count, positions: images * length)
        packInputBlocks(inputBase, rows: inputRows, rowStride: inputRowStride, imageStride: inputImageStride, images: images, steps: steps,
                        into: packedInput)
        multiplyLaneMajor(rows: rows, columns: inputRows, wide: wide, gradOutput: gradBase, gradOutputRowStride: gradOutputRowStride,
                          gradOutputImageStride: gradOutputImageStride, images: images, steps: steps, packedInput: packedInput,
                          packed: packed, output: output, outputRowStride: outputRowStride)
    }

    /// Where a task's packed input rows start in its `packed` scratch (after ≤ 64 gradient rows').
    static func packedInputStart(_ packed: UnsafeMutablePointer<Float>, rows: Int, positions: Int) -> UnsafeMutablePointer<Float> {
        packed + (min(rows, maximumRowsPerTask) + laneBlockRows - 1) / laneBlockRows * lanes * laneStrides(positions: positions).gradient
    }

    /// Input rows `0..<rows`, 6 at a time (`packInputLanes`), into consecutive blocks from `packed`.
    static func packInputBlocks(
        _ input: UnsafePointer<Float>, rows: Int, rowStride: Int, imageStride: Int, images: Int, steps: Int,
        into packed: UnsafeMutablePointer<Float>
    ) {
        let inputLane = laneStrides(positions: images * steps * lanes).input
        for (block, column) in stride(from: 0, to: rows, by: laneBlockColumns).enumerated() {
            packInputLanes(input + column * rowStride, rows: min(laneBlockColumns, rows - column), rowStride: rowStride,
                           imageStride: imageStride, images: images, steps: steps, into: packed + block * lanes * inputLane)
        }
    }

    /// The products and halving: output-gradient rows `rows` (packed 64 at a time into `packed`)
    /// against the `columns` input rows already packed at `packedInput`, added to `output`; on
    /// `PackedMicroKernel`'s AVX-512 block when `wide` (a forced route: the same bits).
    static func multiplyLaneMajor(
        rows: Range<Int>, columns inputRows: Int, wide: Bool,
        gradOutput gradBase: UnsafePointer<Float>, gradOutputRowStride: Int, gradOutputImageStride: Int,
        images: Int, steps: Int, packedInput: UnsafeMutablePointer<Float>, packed: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>, outputRowStride: Int
    ) {
        let depth = images * steps, (gradientLane, inputLane) = laneStrides(positions: depth * lanes)
        let blockFloats = laneBlockRows * laneBlockColumns
        withUnsafeTemporaryAllocation(of: Float.self, capacity: lanes * blockFloats + laneBlockColumns) { buffer in
            let tiles = buffer.baseAddress!, zeros = tiles + lanes * blockFloats
            zeros.update(repeating: 0, count: laneBlockColumns)
            for part in stride(from: rows.lowerBound, to: rows.upperBound, by: maximumRowsPerTask) {
                let partRows = part..<min(rows.upperBound, part + maximumRowsPerTask)
                packLanes(rows: partRows, gradOutput: gradBase, rowStride: gradOutputRowStride, imageStride: gradOutputImageStride,
                          images: images, steps: steps, into: packed)
                for (inputBlock, column) in stride(from: 0, to: inputRows, by: laneBlockColumns).enumerated() {
                    let columns = min(laneBlockColumns, inputRows - column), blockInput = packedInput + inputBlock * lanes * inputLane
                    for (block, first) in stride(from: partRows.lowerBound, to: partRows.upperBound, by: laneBlockRows).enumerated() {
                        let height = min(laneBlockRows, partRows.upperBound - first)
                        let blockPacked = packed + block * lanes * gradientLane
                        for lane in 0..<lanes {
                            // From zero, in k order, one fused multiply-add at a time: the lane's chain.
                            // The clamp to ±∞ leaves every value (and its sign) as it is.
                            PackedMicroKernel.run(wide: wide, depth: depth, filters: blockInput + lane * inputLane,
                                                  columns: blockPacked + lane * gradientLane, bias: zeros, lower: -.infinity,
                                                  upper: .infinity, output: tiles + lane * blockFloats, ldc: laneBlockRows)
                        }
                        addHalvedLanes(tiles, laneFloats: blockFloats, columns: columns, rows: height,
                                       to: output + first * outputRowStride + column, rowStride: outputRowStride)
                    }
                }
            }
        }
    }

    /// `accumulateUnfolded` by the lane-major route: the task's input channels unfolded a pass
    /// (`passChannels`) at a time into `columns` and packed block after block — whole blocks of 6
    /// weight columns a pass — then multiplied with its gradient rows as a 1×1 layer's are.
    static func accumulateUnfoldedLaneMajor(
        _ g: Conv2dGeometry, panel: Panel, task: Task, wide: Bool, packed: UnsafeMutablePointer<Float>, input: UnsafePointer<Float>,
        gradOutput: UnsafePointer<Float>, columns: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, outputRowStride: Int
    ) {
        let taps = g.kernelHeight * g.kernelWidth, pass = passChannels(taps: taps)
        let inPlane = g.inHeight * g.inWidth, plane = g.outHeight * g.outWidth
        let rows = panel.firstRow..<panel.endRow, length = rows.count * g.outWidth, steps = length / lanes
        let packedInput = packedInputStart(packed, rows: task.rows.count, positions: panel.images * length)
        let blockFloats = lanes * laneStrides(positions: panel.images * length).input
        for first in stride(from: task.channels.lowerBound, to: task.channels.upperBound, by: pass) {
            var chunk = g
            chunk.inChannels = min(pass, task.channels.upperBound - first)
            let unfold = Im2col(chunk), passDepth = unfold.rows
            for image in 0..<panel.images {
                unfold.unfold(input + ((panel.firstImage + image) * g.inChannels + first) * inPlane, outputRows: rows,
                              into: columns + image * passDepth * length)
            }
            let block = (first - task.channels.lowerBound) * taps / laneBlockColumns
            packInputBlocks(columns, rows: passDepth, rowStride: length, imageStride: passDepth * length, images: panel.images,
                            steps: steps, into: packedInput + block * blockFloats)
        }
        multiplyLaneMajor(rows: task.rows, columns: task.channels.count * taps, wide: wide,
                          gradOutput: gradOutput + panel.firstImage * g.outChannels * plane + panel.firstRow * g.outWidth,
                          gradOutputRowStride: plane, gradOutputImageStride: g.outChannels * plane, images: panel.images, steps: steps,
                          packedInput: packedInput, packed: packed, output: output, outputRowStride: outputRowStride)
    }

    /// Packs up to 6 input rows lane-major for `PackedMicroKernel`'s filter side: lane j, step k at
    /// `j · laneStrides.input + k · 6`, rows past `rows` zeros (their sums are not written): rows
    /// 0–3 by 4 × 4 transposes, rows 4–5 interleaved in pairs.
    static func packInputLanes(
        _ input: UnsafePointer<Float>, rows: Int, rowStride: Int, imageStride: Int, images: Int, steps: Int,
        into packed: UnsafeMutablePointer<Float>
    ) {
        let layout = LanePacking(rowStride: rowStride, imageStride: imageStride, images: images, steps: steps,
                                 record: laneBlockColumns, laneStride: laneStrides(positions: images * steps * lanes).input)
        guard rows >= 4 else {
            layout.packScalar(input, rows: rows, slots: laneBlockColumns, into: packed)
            return
        }
        layout.pack4(input, into: packed)
        if rows == laneBlockColumns {
            layout.pack2(input + 4 * rowStride, into: packed + 4)
        } else {
            layout.packScalar(input + 4 * rowStride, rows: rows - 4, slots: laneBlockColumns - 4, into: packed + 4)
        }
    }

    /// Packs output-gradient rows `rows` lane-major: block b (16 rows), lane j, step k (over the
    /// panel's images, then their steps) holds the 16 rows' values at position 16k + j, at
    /// `(b · 16 + j) · laneStrides.gradient + k · 16`; rows past the last are zeros.
    static func packLanes(
        rows: Range<Int>, gradOutput: UnsafePointer<Float>, rowStride: Int, imageStride: Int,
        images: Int, steps: Int, into packed: UnsafeMutablePointer<Float>
    ) {
        let layout = LanePacking(rowStride: rowStride, imageStride: imageStride, images: images, steps: steps,
                                 record: laneBlockRows, laneStride: laneStrides(positions: images * steps * lanes).gradient)
        for (block, first) in stride(from: rows.lowerBound, to: rows.upperBound, by: laneBlockRows).enumerated() {
            let height = min(laneBlockRows, rows.upperBound - first)
            let blockPacked = packed + block * lanes * layout.laneStride
            for group in 0..<(laneBlockRows / 4) {
                let from = gradOutput + (first + 4 * group) * rowStride, to = blockPacked + 4 * group
                if height >= 4 * group + 4 {
                    layout.pack4(from, into: to)
                } else {
                    layout.packScalar(from, rows: max(0, height - 4 * group), slots: 4, into: to)
                }
            }
        }
    }

    /// Where packed lanes go: lane j, step k (over images, then their steps) of a row at
    /// `j · laneStride + k · record` past the row's slot.
    struct LanePacking {
        let rowStride: Int, imageStride: Int, images: Int, steps: Int, record: Int, laneStride: Int

        /// 4 rows into 4 consecutive slots, by 4 × 4 transposes in registers: each row is read
        /// sequentially (4 streams; 16 rows at once had left the loads waiting on memory).
        @inline(__always)
        func pack4(_ rows: UnsafePointer<Float>, into slots: UnsafeMutablePointer<Float>) {
            for image in 0..<images {
                let source = rows + image * imageStride, target = slots + image * steps * record
                for step in 0..<steps {
                    for quarter in 0..<(lanes / 4) {
                        Permute.transpose4(source + step * lanes + 4 * quarter, rowStride: rowStride,
                                           to: target + step * record + 4 * quarter * laneStride, rowStrideOut: laneStride)
                    }
                }
            }
        }

        /// 2 rows into 2 consecutive slots: each 4 positions of the two rows interleaved in a
        /// register, then 2 values a lane.
        @inline(__always)
        func pack2(_ rows: UnsafePointer<Float>, into slots: UnsafeMutablePointer<Float>) {
            typealias V = SIMD4<Float>
            for image in 0..<images {
                let source = rows + image * imageStride, target = slots + image * steps * record
                for step in 0..<steps {
                    for quarter in 0..<(lanes / 4) {
                        let offset = step * lanes + 4 * quarter
                        let a = UnsafeRawPointer(source + offset).loadUnaligned(as: V.self)
                        let b = UnsafeRawPointer(source + rowStride + offset).loadUnaligned(as: V.self)
                        let to = target + step * record + 4 * quarter * laneStride
                        let low = V(a[0], b[0], a[1], b[1]), high = V(a[2], b[2], a[3], b[3])
                        UnsafeMutableRawPointer(to).storeBytes(of: low.lowHalf, as: SIMD2<Float>.self)
                        UnsafeMutableRawPointer(to + laneStride).storeBytes(of: low.highHalf, as: SIMD2<Float>.self)
                        UnsafeMutableRawPointer(to + 2 * laneStride).storeBytes(of: high.lowHalf, as: SIMD2<Float>.self)
                        UnsafeMutableRawPointer(to + 3 * laneStride).storeBytes(of: high.highHalf, as: SIMD2<Float>.self)
                    }
                }
            }
        }

        /// `rows` rows (fewer than 4, or none) into the first `rows` of `slots` slots, zeros in the others.
        func packScalar(_ from: UnsafePointer<Float>, rows: Int, slots: Int, into target: UnsafeMutablePointer<Float>) {
            for image in 0..<images {
                for step in 0..<steps {
                    let source = from + image * imageStride + step * lanes, to = target + (image * steps + step) * record
                    for lane in 0..<lanes {
                        for r in 0..<slots { to[lane * laneStride + r] = r < rows ? source[r * rowStride + lane] : 0 }
                    }
                }
            }
        }
    }

    /// The 16 lane tiles (`laneFloats` apart, each [6 input rows][16 gradient rows]) halved to one
    /// by `reduce`'s tree — lane i + lane i + 8, then + 4, + 2, + 1 — and added to `output` (gradient
    /// row c, input row r at `c · rowStride + r`). Each 8 values are halved in registers, so the 15
    /// intermediate tiles are never stored and read back (as 15 passes of `Vector.accumulate`
    /// did); the sums are then added an output row (6 neighbouring weights) at a time, not 16 rows
    /// apart. The same additions in the same order as before: the same bits.
    @inline(__always)
    static func addHalvedLanes(
        _ tiles: UnsafeMutablePointer<Float>, laneFloats: Int, columns: Int, rows height: Int,
        to output: UnsafeMutablePointer<Float>, rowStride: Int
    ) {
        for offset in stride(from: 0, to: laneFloats, by: 8) {
            let lane = tiles + offset
            @inline(__always) func pair(_ i: Int) -> SIMD8<Float> { load8(lane + i * laneFloats) + load8(lane + (i + 8) * laneFloats) }
            let a0 = pair(0), a1 = pair(1), a2 = pair(2), a3 = pair(3), a4 = pair(4), a5 = pair(5), a6 = pair(6), a7 = pair(7)
            let b0 = a0 + a4, b1 = a1 + a5, b2 = a2 + a6, b3 = a3 + a7
            store8((b0 + b2) + (b1 + b3), lane)
        }
        for c in 0..<height {
            let row = output + c * rowStride
            for r in 0..<columns { row[r] += tiles[r * laneBlockRows + c] }
        }
    }
}
