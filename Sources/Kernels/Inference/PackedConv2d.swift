/// Dense inference convolution without im2col or OpenBLAS: `output = clamp(conv(input) + bias)`
/// computed tile by tile with `PackedMicroKernel`.
///
/// A tile is 16 consecutive output positions of one image. Its input values — the im2col
/// columns of just those 16 positions, [depth][16] — are gathered into the worker's scratch
/// (16 KB for depth 256: it stays in L1), then every block of 6 output channels of
/// `PackedFilters` is multiplied against it and written once, bias and clamp applied in
/// registers. Compared with the OpenBLAS path (`FusedConv2d`'s dense case) this drops the
/// per-call weight repacking, the im2col panel written to memory and read back, and the
/// separate epilogue pass; and it splits small layers finely (16 positions) at no cost.
///
/// Tiles are grouped so a group's columns fit in L2 next to the streamed weights (each block of
/// weights is then read once per group, not once per tile); groups are split statically across workers. Each output value is one kernel's sum over the depth in a
/// fixed order, whoever computes it: results are bit-identical for any worker count.
public enum PackedConv2d {
    static let tileWidth = PackedMicroKernel.columns

    /// Below this many multiply-adds a layer runs on one worker: waking the second thread
    /// (~20 µs on the 2-vCPU machines) costs more than it saves. Tests lower it for their scope.
    @TaskLocal static var parallelMultiplyAdds = 2_000_000

    /// Dense convolutions with stride 1 or 2 (depthwise layers stay with `FusedConv2d`). The
    /// gather is vectorised for both; at other strides it would be a scalar loop per value (on the
    /// stem, a scalar stride-2 gather made the layer 1.6× slower than im2col + sgemm).
    public static func isSupported(_ g: Conv2dGeometry) -> Bool {
        g.groups == 1 && (1...2).contains(g.strideHeight) && (1...2).contains(g.strideWidth)
    }

    /// Tiles packed together: ~96 KB of columns, at least one and at most `maxTilesPerGroup`.
    /// Shallow layers reach the cap. A cap of 8 ran the 16→32 layer at 128×256 in 3.6 ms
    /// forward, 64 in 2.8 (deeper layers level) — likely because each output row is then written
    /// in 4 KB runs rather than 512-byte ones, 12 rows 128 KB apart at a time. Tests change the
    /// cap for their scope (it changes no bits).
    @TaskLocal static var maxTilesPerGroup = 64
    static func tilesPerGroup(depth: Int) -> Int { max(1, min(maxTilesPerGroup, 98_304 / (depth * tileWidth * 4))) }

    static func workers(_ g: Conv2dGeometry, requested: Int) -> Int {
        g.multiplyAdds >= parallelMultiplyAdds ? max(1, requested) : 1
    }

    /// Groups per image: enough that a group's columns (`Parallel.chunk` of the tiles, nearly
    /// equal sizes) stay within ~96 KB; for small layers, rounded up so the workers get equal
    /// shares (8 tiles of depth 512 in 3 groups would give one worker 5 tiles, the other 3).
    static func groupCount(tiles: Int, depth: Int, batch: Int, workers: Int) -> Int {
        groupCount(tiles: tiles, perGroup: tilesPerGroup(depth: depth), batch: batch, workers: workers)
    }

    /// As above for any kernel whose groups hold at most `perGroup` tiles (`Winograd3x3` too).
    static func groupCount(tiles: Int, perGroup: Int, batch: Int, workers: Int) -> Int {
        var groups = (tiles + perGroup - 1) / perGroup
        if workers > 1 && (batch * groups) % workers != 0 && batch * groups < 8 * workers {
            groups = min(tiles, ((batch * groups + workers - 1) / workers * workers + batch - 1) / batch)
        }
        return groups
    }

    /// Floats of scratch `forward` needs: per worker, one group of column tiles and one output
    /// tile; for kernels wider than 1×1, the padded copy of the input after them.
    public static func scratchCount(_ g: Conv2dGeometry, workers: Int) -> Int {
        let depth = g.inChannels * g.kernelHeight * g.kernelWidth
        return Self.workers(g, requested: workers) * perWorkerScratch(depth: depth)
            + (ColumnPacker.needsPaddedCopy(g) ? PaddedInput.count(g) : 0)
    }

    static func perWorkerScratch(depth: Int) -> Int {
        tilesPerGroup(depth: depth) * depth * tileWidth + 2 * PackedMicroKernel.rows * tileWidth
    }

    /// `filters` packed from weight [out, in, kh, kw]; `scratch` holds `scratchCount(g, workers:)` floats.
    public static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, filters: PackedFilters, bounds: ActivationBounds,
        output: UnsafeMutablePointer<Float>, layout: FusedConv2d.OutputLayout = .channelsFirst,
        workers requested: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        let depth = g.inChannels * g.kernelHeight * g.kernelWidth
        precondition(isSupported(g) && filters.depth == depth && filters.outChannels == g.outChannels,
                     "PackedConv2d: filters \(filters.outChannels)×\(filters.depth) for \(g)")
        if g.batch == 0 { return }
        let outPlane = g.outHeight * g.outWidth
        let tiles = (outPlane + tileWidth - 1) / tileWidth
        let workers = Self.workers(g, requested: requested)
        let groups = groupCount(tiles: tiles, depth: depth, batch: g.batch, workers: workers)
        let scratchPerWorker = perWorkerScratch(depth: depth)
        var source = g, images = input
        if ColumnPacker.needsPaddedCopy(g) {
            let padded = scratch + workers * scratchPerWorker
            PaddedInput.write(g, input: input, into: padded, workers: workers)
            (source, images) = (PaddedInput.geometry(g), UnsafePointer(padded))
        }
        let packer = ColumnPacker(source)
        let store = TileStore(g: g, output: output, layout: layout, outPlane: outPlane)
        let lower = bounds.lower, upper = bounds.upper
        let rows = PackedMicroKernel.rows, pairs = PackedMicroKernel.isWide
        Parallel.forEachChunk(g.batch * groups, workers: workers) { items, worker in
            let columns = scratch + worker * scratchPerWorker
            let spill = columns + tilesPerGroup(depth: depth) * depth * tileWidth
            for item in items {
                let n = item / groups
                let image = images + n * source.inChannels * source.inHeight * source.inWidth
                let range = Parallel.chunk(item % groups, of: groups, count: tiles), first = range.lowerBound, last = range.upperBound
                packer.pack(image, tiles: first..<last, positions: outPlane, into: columns)
                var block = 0
                while block < filters.blocks {
                    // With AVX-512 two blocks a call (`runPair`); an odd last block alone.
                    let paired = pairs && block + 1 < filters.blocks
                    let a = UnsafePointer(filters.values + block * depth * rows), bias = UnsafePointer(filters.bias + block * rows)
                    let channel = block * rows, validRows = min(rows, g.outChannels - channel)
                    var t = first
                    while t < last {
                        let start = t * tileWidth, count = min(tileWidth, outPlane - start)
                        let b = UnsafePointer(columns + (t - first) * depth * tileWidth)
                        let direct = store.direct(n, channel: channel, start: start, rows: validRows, count: count)
                        if paired {
                            let validB = min(rows, g.outChannels - channel - rows), spillB = spill + rows * tileWidth
                            let directB = store.direct(n, channel: channel + rows, start: start, rows: validB, count: count)
                            // Two full tiles stored in place: one 12 × 32 call (`runPairTwoTiles`).
                            if let direct, let directB, t + 1 < last, outPlane - start >= 2 * tileWidth {
                                PackedMicroKernel.runPairTwoTiles(depth: depth, filters: a, columnsA: b, columnsB: b + depth * tileWidth,
                                                                  bias: bias, lower: lower, upper: upper,
                                                                  outputA: direct, outputB: directB, ldc: outPlane, secondTile: tileWidth)
                                t += 2
                                continue
                            }
                            PackedMicroKernel.runPair(depth: depth, filters: a, columns: b, bias: bias, lower: lower, upper: upper,
                                                      outputA: direct ?? spill, ldcA: direct == nil ? tileWidth : outPlane,
                                                      outputB: directB ?? spillB, ldcB: directB == nil ? tileWidth : outPlane)
                            if directB == nil { store.copy(spillB, n, channel: channel + rows, start: start, rows: validB, count: count) }
                        } else {
                            PackedMicroKernel.run(wide: pairs, depth: depth, filters: a, columns: b, bias: bias, lower: lower, upper: upper,
                                                  output: direct ?? spill, ldc: direct == nil ? tileWidth : outPlane)
                        }
                        if direct == nil { store.copy(spill, n, channel: channel, start: start, rows: validRows, count: count) }
                        t += 1
                    }
                    block += paired ? 2 : 1
                }
            }
        }
    }

    /// Where a 6 × 16 result block goes.
    struct TileStore {
        let g: Conv2dGeometry
        let output: UnsafeMutablePointer<Float>
        let layout: FusedConv2d.OutputLayout
        let outPlane: Int

        /// The output address when the kernel can store there itself: channels-first, a full block.
        @inline(__always)
        func direct(_ n: Int, channel: Int, start: Int, rows: Int, count: Int) -> UnsafeMutablePointer<Float>? {
            guard case .channelsFirst = layout, rows == PackedMicroKernel.rows, count == PackedMicroKernel.columns else { return nil }
            return output + (n * g.outChannels + channel) * outPlane + start
        }

        /// The valid part of a block computed into `tile` ([6][16]).
        func copy(_ tile: UnsafePointer<Float>, _ n: Int, channel: Int, start: Int, rows: Int, count: Int) {
            switch layout {
            case .channelsFirst:
                let base = output + (n * g.outChannels + channel) * outPlane + start
                for r in 0..<rows { (base + r * outPlane).update(from: tile + r * PackedMicroKernel.columns, count: count) }
            case let .positionsFirst(rowStride, imageStride):
                let base = output + n * imageStride + start * rowStride + channel
                for j in 0..<count {
                    let row = base + j * rowStride
                    for r in 0..<rows { row[r] = tile[r * PackedMicroKernel.columns + j] }
                }
            }
        }
    }

    /// The input with its zero padding written out: the gather then reads every run of
    /// values in place, without bounds checks. Checking bounds per (channel, ky, kx) run took
    /// 22 % of a 64-channel 3×3 layer; writing the padded copy takes ~2 %.
    enum PaddedInput {
        /// Floats after the last plane: a stride-2 vector load reads one value past the last one it keeps.
        static let slack = 16

        static func geometry(_ g: Conv2dGeometry) -> Conv2dGeometry {
            var padded = g
            padded.inHeight += 2 * g.padHeight
            padded.inWidth += 2 * g.padWidth
            padded.padHeight = 0
            padded.padWidth = 0
            return padded
        }

        static func count(_ g: Conv2dGeometry) -> Int { geometry(g).inputCount + slack }

        /// Below this many input values one worker writes the copy: it takes less than waking
        /// the second (a 64-channel 32×16 input: ~3 µs).
        static let parallelValues = 262_144

        /// Each plane's rows copied between zero borders; planes split across `workers`.
        static func write(_ g: Conv2dGeometry, input: UnsafePointer<Float>, into padded: UnsafeMutablePointer<Float>, workers: Int) {
            let p = geometry(g), planes = g.batch * g.inChannels
            let paddedPlane = p.inHeight * p.inWidth, plane = g.inHeight * g.inWidth
            Parallel.forEachChunk(planes, workers: g.inputCount >= parallelValues ? workers : 1) { range, _ in
                for index in range {
                    let target = padded + index * paddedPlane, source = input + index * plane
                    target.update(repeating: 0, count: g.padHeight * p.inWidth)
                    for y in 0..<g.inHeight {
                        let row = target + (g.padHeight + y) * p.inWidth
                        row.update(repeating: 0, count: g.padWidth)
                        (row + g.padWidth).update(from: source + y * g.inWidth, count: g.inWidth)
                        (row + g.padWidth + g.inWidth).update(repeating: 0, count: g.padWidth)
                    }
                    (target + (g.padHeight + g.inHeight) * p.inWidth).update(repeating: 0, count: g.padHeight * p.inWidth)
                }
            }
            (padded + planes * paddedPlane).update(repeating: 0, count: slack)
        }
    }

    /// Gathers the im2col columns of up to 16 consecutive output positions of one image into
    /// [depth][16] (k = (channel·kh + ky)·kw + kx, the weights' order), zeros for the lanes past
    /// `count`. Wider kernels read a `PaddedInput` (geometry without padding).
    struct ColumnPacker {
        let g: Conv2dGeometry
        let inPlane: Int
        /// 1×1 at stride 1 without padding: the input planes are the columns.
        let isPlain: Bool

        /// Whether the gather reads the layer's input as it is (no padded copy). Stride 1 too:
        /// a strided 1×1 skips input positions, so its columns are gathered like any kernel's.
        static func readsInPlace(_ g: Conv2dGeometry) -> Bool {
            g.kernelHeight == 1 && g.kernelWidth == 1 && g.padHeight == 0 && g.padWidth == 0
                && g.strideHeight == 1 && g.strideWidth == 1
        }

        /// 3×3 at stride 2, padded by 1, over an input of even height and width whose output rows
        /// are whole tiles (the stem): the only padding such a layer reads is the row above and the
        /// column left of the input, so the gather supplies those zeros itself and reads the input
        /// in place (`packStride2InPlace`) — the padded copy was a pass over the whole batch,
        /// written and read back (12.6 MB at batch 8).
        static func readsStride2InPlace(_ g: Conv2dGeometry) -> Bool {
            g.kernelHeight == 3 && g.kernelWidth == 3 && g.strideHeight == 2 && g.strideWidth == 2
                && g.padHeight == 1 && g.padWidth == 1 && g.inHeight % 2 == 0 && g.inWidth % 2 == 0
                && g.outWidth % PackedConv2d.tileWidth == 0 && gathersStride2InPlace
        }

        /// Off: those layers take the padded copy too (tests compare the two bit for bit).
        @TaskLocal static var gathersStride2InPlace = true

        /// Whether `forward` gathers from a padded copy of the input (`PaddedInput`).
        static func needsPaddedCopy(_ g: Conv2dGeometry) -> Bool { !readsInPlace(g) && !readsStride2InPlace(g) }

        /// Set for `readsStride2InPlace` layers.
        let isStride2InPlace: Bool

        init(_ g: Conv2dGeometry) {
            self.g = g
            inPlane = g.inHeight * g.inWidth
            isPlain = Self.readsInPlace(g)
            isStride2InPlace = Self.readsStride2InPlace(g)
            precondition(isPlain || isStride2InPlace || (g.padHeight == 0 && g.padWidth == 0), "ColumnPacker: pad the input first (PaddedInput)")
        }

        /// Input channels a plain 1×1 gather reads per pass over a group's tiles.
        ///
        /// Why: tile by tile, every input plane is an open stream, and on a Zen 3 host (512 KB L2,
        /// ~17 GB/s) 32 of them ran a 32-channel layer at 256×128 at ~4 GB/s (probe, batch 8: the
        /// 32→16 forward 8.4–9.5 ms, 16→32's input gradient 8.7–9.0) — 16 per pass: 5.8–6.7 and
        /// 5.8–5.9 ms. One channel per pass wrote each tile's 64 bytes 1 KB apart and, on a Zen 5
        /// host, ran 16→32's forward at 4.36 ms against 2.03 tile by tile (`Reports/benchmarks.md`,
        /// "Decoded screens kept in memory"); with 16 that layer is packed as before.
        static let channelsPerPass = 16

        /// The columns of `tiles` (of 16 positions; the last may be partial) into consecutive
        /// [depth][16] blocks; a plain 1×1 input `channelsPerPass` channels at a time across them.
        func pack(_ image: UnsafePointer<Float>, tiles: Range<Int>, positions: Int, into columns: UnsafeMutablePointer<Float>) {
            let width = PackedConv2d.tileWidth, block = g.inChannels * g.kernelHeight * g.kernelWidth * width
            if isStride2InPlace {
                // Output rows are whole tiles: every tile is 16 positions of one row.
                for t in tiles { packStride2InPlace(image, start: t * width, into: columns + (t - tiles.lowerBound) * block) }
                return
            }
            guard isPlain else {
                for t in tiles {
                    let start = t * width
                    pack(image, start: start, count: min(width, positions - start), into: columns + (t - tiles.lowerBound) * block)
                }
                return
            }
            let full = min(tiles.upperBound, positions / width)
            for first in stride(from: 0, to: g.inChannels, by: Self.channelsPerPass) {
                let channels = first..<min(g.inChannels, first + Self.channelsPerPass)
                for t in tiles.lowerBound..<full {
                    let tile = columns + (t - tiles.lowerBound) * block
                    for c in channels {
                        let source = image + c * inPlane + t * width, target = tile + c * width
                        store8(load8(source), target)
                        store8(load8(source + 8), target + 8)
                    }
                }
                for t in max(full, tiles.lowerBound)..<tiles.upperBound {
                    let start = t * width, count = positions - start
                    let tile = columns + (t - tiles.lowerBound) * block
                    for c in channels {
                        let plane = image + c * inPlane, target = tile + c * width
                        for j in 0..<width { target[j] = j < count ? plane[start + j] : 0 }
                    }
                }
            }
        }

        /// One tile of a kernel wider than 1×1 (or strided) from the padded input.
        private func pack(_ image: UnsafePointer<Float>, start: Int, count: Int, into columns: UnsafeMutablePointer<Float>) {
            let width = PackedConv2d.tileWidth
            let depth = g.inChannels * g.kernelHeight * g.kernelWidth
            if count < width {
                for k in 0..<depth { (columns + k * width + count).update(repeating: 0, count: width - count) }
            }
            // The tile's positions, one output row at a time (a tile spans rows when outWidth is not a multiple of 16).
            var position = start, lane = 0
            while position < start + count {
                let oy = position / g.outWidth, ox = position % g.outWidth
                let length = min(g.outWidth - ox, start + count - position)
                let corner = image + oy * g.strideHeight * g.inWidth + ox * g.strideWidth
                if g.kernelWidth == 3 && length == width {
                    if g.strideWidth == 1 { packRow3(corner, into: columns) } else { packRow3Stride2(corner, into: columns) }
                } else {
                    packSegment(corner, length: length, into: columns + lane)
                }
                position += length
                lane += length
            }
        }

        /// Per (channel, ky) the input row from `corner`; `visit(row, target)` writes its kx columns.
        @inline(__always)
        func forEachRun(_ corner: UnsafePointer<Float>, _ columns: UnsafeMutablePointer<Float>,
                        _ visit: (UnsafePointer<Float>, UnsafeMutablePointer<Float>) -> Void) {
            let runWidth = g.kernelWidth * PackedConv2d.tileWidth
            var target = columns
            for c in 0..<g.inChannels {
                var row = corner + c * inPlane
                for _ in 0..<g.kernelHeight {
                    visit(row, target)
                    row += g.inWidth
                    target += runWidth
                }
            }
        }

        /// A full tile inside one output row, 3-wide kernel, stride 1: six shifted loads per run.
        func packRow3(_ corner: UnsafePointer<Float>, into columns: UnsafeMutablePointer<Float>) {
            forEachRun(corner, columns) { row, target in
                store8(load8(row), target); store8(load8(row + 8), target + 8)
                store8(load8(row + 1), target + 16); store8(load8(row + 9), target + 24)
                store8(load8(row + 2), target + 32); store8(load8(row + 10), target + 40)
            }
        }

        /// As `packRow3` at stride 2: the even lanes of 16-wide loads (the last reads one value
        /// past the last it keeps: `PaddedInput.slack`).
        func packRow3Stride2(_ corner: UnsafePointer<Float>, into columns: UnsafeMutablePointer<Float>) {
            forEachRun(corner, columns) { row, target in
                store8(load16(row).evenHalf, target); store8(load16(row + 16).evenHalf, target + 8)
                store8(load16(row + 1).evenHalf, target + 16); store8(load16(row + 17).evenHalf, target + 24)
                store8(load16(row + 2).evenHalf, target + 32); store8(load16(row + 18).evenHalf, target + 40)
            }
        }

        /// One tile of a `readsStride2InPlace` layer from the unpadded input: the tile's positions
        /// `2x − 1 + kx` of each input row are the odd (kx 0, 2) or even (kx 1) lanes of 16-wide
        /// loads at even offsets `2·x0 − 2 … 2·x0 + 31` — all inside the row — and the padding is
        /// the first tile's column −1 (a zero shifted into lane 0) and the first output row's row −1
        /// (a zero run). The same values, in the same places, as `packRow3Stride2` over the padded copy.
        func packStride2InPlace(_ image: UnsafePointer<Float>, start: Int, into columns: UnsafeMutablePointer<Float>) {
            let oy = start / g.outWidth, first = 2 * (start % g.outWidth)
            let runWidth = 3 * PackedConv2d.tileWidth
            var target = columns
            for c in 0..<g.inChannels {
                let plane = image + c * inPlane
                for ky in 0..<3 {
                    let y = 2 * oy - 1 + ky
                    if y < 0 {
                        target.update(repeating: 0, count: runWidth)
                    } else {
                        let row = plane + y * g.inWidth + first
                        let low = load16(row), high = load16(row + 16)
                        let leftLow: SIMD8<Float>
                        if first > 0 {
                            leftLow = load16(row - 2).oddHalf
                        } else {
                            let odd = low.oddHalf
                            leftLow = SIMD8(0, odd[0], odd[1], odd[2], odd[3], odd[4], odd[5], odd[6])
                        }
                        store8(leftLow, target); store8(load16(row + 14).oddHalf, target + 8)
                        store8(low.evenHalf, target + 16); store8(high.evenHalf, target + 24)
                        store8(low.oddHalf, target + 32); store8(high.oddHalf, target + 40)
                    }
                    target += runWidth
                }
            }
        }

        /// Any kernel width and run length: `length` values `strideWidth` apart per kx.
        func packSegment(_ corner: UnsafePointer<Float>, length: Int, into columns: UnsafeMutablePointer<Float>) {
            let step = g.strideWidth, width = PackedConv2d.tileWidth
            forEachRun(corner, columns) { row, target in
                for kx in 0..<g.kernelWidth {
                    let from = row + kx, to = target + kx * width
                    var j = 0
                    while j + 8 <= length {
                        store8(step == 1 ? load8(from + j) : load16(from + 2 * j).evenHalf, to + j)
                        j += 8
                    }
                    while j < length {
                        to[j] = from[step * j]
                        j += 1
                    }
                }
            }
        }
    }
}
