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

    /// Tiles packed together: ~96 KB of columns, and at least one.
    static func tilesPerGroup(depth: Int) -> Int { max(1, min(8, 98_304 / (depth * tileWidth * 4))) }

    static func workers(_ g: Conv2dGeometry, requested: Int) -> Int {
        g.multiplyAdds >= parallelMultiplyAdds ? max(1, requested) : 1
    }

    /// Groups per image: enough that a group's columns (`Parallel.chunk` of the tiles, nearly
    /// equal sizes) stay within ~96 KB; for small layers, rounded up so the workers get equal
    /// shares (8 tiles of depth 512 in 3 groups would give one worker 5 tiles, the other 3).
    static func groupCount(tiles: Int, depth: Int, batch: Int, workers: Int) -> Int {
        var groups = (tiles + tilesPerGroup(depth: depth) - 1) / tilesPerGroup(depth: depth)
        if workers > 1 && (batch * groups) % workers != 0 && batch * groups < 8 * workers {
            groups = min(tiles, ((batch * groups + workers - 1) / workers * workers + batch - 1) / batch)
        }
        return groups
    }

    /// Floats of scratch `forward` needs: per worker, one group of column tiles and one output tile.
    public static func scratchCount(_ g: Conv2dGeometry, workers: Int) -> Int {
        let depth = g.inChannels * g.kernelHeight * g.kernelWidth
        return Self.workers(g, requested: workers) * perWorkerScratch(depth: depth)
    }

    static func perWorkerScratch(depth: Int) -> Int {
        tilesPerGroup(depth: depth) * depth * tileWidth + PackedMicroKernel.rows * tileWidth
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
        let packer = ColumnPacker(g)
        let store = TileStore(g: g, output: output, layout: layout, outPlane: outPlane)
        let lower = bounds.lower, upper = bounds.upper
        let scratchPerWorker = perWorkerScratch(depth: depth)
        let rows = PackedMicroKernel.rows
        Parallel.forEachChunk(g.batch * groups, workers: workers) { items, worker in
            let columns = scratch + worker * scratchPerWorker
            let spill = columns + tilesPerGroup(depth: depth) * depth * tileWidth
            for item in items {
                let n = item / groups
                let image = input + n * g.inChannels * g.inHeight * g.inWidth
                let range = Parallel.chunk(item % groups, of: groups, count: tiles), first = range.lowerBound, last = range.upperBound
                for t in first..<last {
                    let start = t * tileWidth
                    packer.pack(image, start: start, count: min(tileWidth, outPlane - start), into: columns + (t - first) * depth * tileWidth)
                }
                for block in 0..<filters.blocks {
                    let a = UnsafePointer(filters.values + block * depth * rows), bias = UnsafePointer(filters.bias + block * rows)
                    let channel = block * rows, validRows = min(rows, g.outChannels - channel)
                    for t in first..<last {
                        let start = t * tileWidth, count = min(tileWidth, outPlane - start)
                        let b = UnsafePointer(columns + (t - first) * depth * tileWidth)
                        if let direct = store.direct(n, channel: channel, start: start, rows: validRows, count: count) {
                            PackedMicroKernel.run(depth: depth, filters: a, columns: b, bias: bias, lower: lower, upper: upper,
                                                  output: direct, ldc: outPlane)
                        } else {
                            PackedMicroKernel.run(depth: depth, filters: a, columns: b, bias: bias, lower: lower, upper: upper,
                                                  output: spill, ldc: tileWidth)
                            store.copy(spill, n, channel: channel, start: start, rows: validRows, count: count)
                        }
                    }
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

    /// Gathers the im2col columns of up to 16 consecutive output positions of one image into
    /// [depth][16] (k = (channel·kh + ky)·kw + kx, the weights' order), zeros for padding and
    /// for the lanes past `count`.
    struct ColumnPacker {
        let g: Conv2dGeometry
        let inPlane: Int
        /// 1×1 without padding: the input planes are the columns.
        let isPlain: Bool

        init(_ g: Conv2dGeometry) {
            self.g = g
            inPlane = g.inHeight * g.inWidth
            isPlain = g.kernelHeight == 1 && g.kernelWidth == 1 && g.padHeight == 0 && g.padWidth == 0
        }

        func pack(_ image: UnsafePointer<Float>, start: Int, count: Int, into columns: UnsafeMutablePointer<Float>) {
            let width = PackedConv2d.tileWidth
            if isPlain {
                if count == width {
                    for c in 0..<g.inChannels {
                        let source = image + c * inPlane + start, target = columns + c * width
                        store8(load8(source), target)
                        store8(load8(source + 8), target + 8)
                    }
                } else {
                    for c in 0..<g.inChannels {
                        let source = image + c * inPlane + start, target = columns + c * width
                        for j in 0..<width { target[j] = j < count ? source[j] : 0 }
                    }
                }
                return
            }
            let depth = g.inChannels * g.kernelHeight * g.kernelWidth
            if count < width {
                for k in 0..<depth { (columns + k * width + count).update(repeating: 0, count: width - count) }
            }
            // The tile's positions, one output row at a time (a tile spans rows when outWidth is not a multiple of 16).
            var position = start, lane = 0
            while position < start + count {
                let oy = position / g.outWidth, ox = position % g.outWidth
                let length = min(g.outWidth - ox, start + count - position)
                let iy0 = oy * g.strideHeight - g.padHeight, ix0 = ox * g.strideWidth - g.padWidth
                for c in 0..<g.inChannels {
                    for ky in 0..<g.kernelHeight {
                        let iy = iy0 + ky
                        let target = columns + ((c * g.kernelHeight + ky) * g.kernelWidth) * width + lane
                        if iy < 0 || iy >= g.inHeight {
                            for kx in 0..<g.kernelWidth { (target + kx * width).update(repeating: 0, count: length) }
                            continue
                        }
                        let row = image + c * inPlane + iy * g.inWidth
                        for kx in 0..<g.kernelWidth {
                            copyRow(row, from: ix0 + kx, length: length, into: target + kx * width)
                        }
                    }
                }
                position += length
                lane += length
            }
        }

        /// `length` input values of one row, `strideWidth` apart from column `x`; zeros off the
        /// row (padding). Stride 2 takes the even lanes of 16-wide loads, which read one value
        /// past the last one used: the vector path runs only when that value is inside the row.
        @inline(__always)
        func copyRow(_ row: UnsafePointer<Float>, from x: Int, length: Int, into target: UnsafeMutablePointer<Float>) {
            let step = g.strideWidth
            if x >= 0 && x + step * length <= g.inWidth {
                var j = 0
                if step == 1 {
                    while j + 8 <= length {
                        store8(load8(row + x + j), target + j)
                        j += 8
                    }
                } else if step == 2 {
                    while j + 8 <= length {
                        store8(load16(row + x + 2 * j).evenHalf, target + j)
                        j += 8
                    }
                }
                while j < length {
                    target[j] = row[x + step * j]
                    j += 1
                }
                return
            }
            for j in 0..<length {
                let ix = x + step * j
                target[j] = ix >= 0 && ix < g.inWidth ? row[ix] : 0
            }
        }
    }
}
