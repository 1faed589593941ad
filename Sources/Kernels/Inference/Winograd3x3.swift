/// Dense 3×3 inference convolution at stride 1, padding 1, by Winograd's minimal filtering
/// F(2×2, 3×3): each 2×2 block of outputs ("tile") comes from its 4×4 input patch `d` as
/// `Aᵀ [Σ_c (G g Gᵀ) ⊙ (Bᵀ d B)] A`, so a tile costs 16 multiply-adds per input channel instead
/// of 36 — 2.25× fewer. The sum over input channels of each of the 16 points is a matrix
/// product, Uₖ [out, in] × Vₖ [in, tiles], run by `PackedConv2d`'s micro-kernel on 16 tiles at
/// a time. Direct 3×3 layers here already run near the FMA units' peak, so cutting the
/// arithmetic is what is left to gain; ONNX Runtime's direct NCHWc kernels do not do this.
///
/// Per column of 16 tiles: the input patches are transformed into [16 points][in][16 tiles]
/// (from a padded copy of the input whose rows are split into even and odd columns, so a
/// tile's four patch columns are plain loads at any tile), the 16 products are written to
/// [out][16 points][16 tiles], and the output transform adds the bias, clamps and stores 2×2
/// blocks. Each output value comes from the same sums in the same order whoever computes it:
/// results are bit-identical for any worker count. They differ from the direct convolution's
/// by rounding only (the transforms' coefficients are 0, ±½ and ±1) — and in that a NaN or
/// infinity in the input reaches all four outputs of every tile whose patch holds it.
public enum Winograd3x3 {
    /// Tiles per micro-kernel call: its columns.
    static let lanes = PackedMicroKernel.columns
    /// Points of a transformed patch: 16 of F(2×2, 3×3)'s 4×4 patch, 36 of F(4×4, 3×3)'s 6×6 one
    /// (`Winograd3x3F4`); `tile` is the output tile's side.
    static func points(tile: Int) -> Int { (tile + 2) * (tile + 2) }

    public static func isSupported(_ g: Conv2dGeometry) -> Bool {
        g.groups == 1 && g.kernelHeight == 3 && g.kernelWidth == 3 && g.strideHeight == 1 && g.strideWidth == 1
            && g.padHeight == 1 && g.padWidth == 1
    }

    /// The output tiles of one image (2×2 here, 4×4 for `Winograd3x3F4`), and the split padded
    /// copy of its input planes: per padded row, its `tile` phases — columns p, p + tile,
    /// p + 2·tile, … for p = 0 ..< tile — one after the other, so patch column q of tile column
    /// `tx` is a plain load at any tile: phase q mod tile, index tx + q ÷ tile. With tile 2 the
    /// phases are the even and odd columns: even[tx], odd[tx], even[tx + 1], odd[tx + 1].
    struct Grid {
        let tile: Int
        let tileRows: Int
        let tileColumns: Int
        var tiles: Int { tileRows * tileColumns }
        var columnTiles: Int { (tiles + lanes - 1) / lanes }
        /// Floats from one phase of a padded row to the next.
        var phaseFloats: Int { tileColumns + 1 }
        var rowFloats: Int { tile * phaseFloats }
        /// One zero row above the input, zero rows below it up to tile·tileRows + 2.
        var planeFloats: Int { (tile * tileRows + 2) * rowFloats }

        init(_ g: Conv2dGeometry, tile: Int = 2) {
            self.tile = tile
            tileRows = (g.outHeight + tile - 1) / tile
            tileColumns = (g.outWidth + tile - 1) / tile
        }

        /// The tiles of column tile `index` as runs inside one tile row: `body(lane, tileRow, tileColumn, length)`.
        @inline(__always)
        func forEachRun(ofColumnTile index: Int, _ body: (Int, Int, Int, Int) -> Void) {
            let first = index * lanes, end = min(tiles, first + lanes)
            var t = first
            while t < end {
                let tx = t % tileColumns, length = min(tileColumns - tx, end - t)
                body(t - first, t / tileColumns, tx, length)
                t += length
            }
        }
    }

    /// Column tiles transformed and multiplied together: each point's weights Uₖ are then read
    /// once per group, while the group's transformed inputs and products (~260 KB for 64
    /// channels in and out) stay in L2.
    static func columnTilesPerGroup(_ g: Conv2dGeometry, tile: Int = 2) -> Int {
        max(1, min(4, 262_144 / (4 * (transformedFloats(g, tile: tile) + productFloats(g, tile: tile)))))
    }

    /// Floats of one column tile's transformed input, [points][in][16 tiles] with
    /// `pointStride(_:)` between points.
    static func transformedFloats(_ g: Conv2dGeometry, tile: Int = 2) -> Int { points(tile: tile) * pointStride(channels: g.inChannels) }

    /// Floats from one point's [in][16 tiles] to the next: a cache line more than it holds. A
    /// patch's 16 points are stored together; at 64 channels an unpadded stride is 4 KB, which
    /// put all 16 stores in one L1 set (8 ways): the input transform took a third of the layer.
    static func pointStride(channels: Int) -> Int { channels * lanes + 16 }

    /// Floats of one column tile's products, [out rounded up to the micro-kernel's rows][points][16 tiles].
    static func productFloats(_ g: Conv2dGeometry, tile: Int = 2) -> Int {
        let rows = PackedMicroKernel.rows
        return (g.outChannels + rows - 1) / rows * rows * points(tile: tile) * lanes
    }

    static func perWorkerScratch(_ g: Conv2dGeometry, tile: Int) -> Int {
        columnTilesPerGroup(g, tile: tile) * (transformedFloats(g, tile: tile) + productFloats(g, tile: tile))
    }

    /// Floats of scratch `forward` needs with filters of output tile `tile` (`WinogradFilters.outputTile`):
    /// the split padded input, then each worker's group.
    public static func scratchCount(_ g: Conv2dGeometry, workers: Int, tile: Int = 2) -> Int {
        g.batch * g.inChannels * Grid(g, tile: tile).planeFloats + PackedConv2d.workers(g, requested: workers) * perWorkerScratch(g, tile: tile)
    }

    /// `filters` made from weight [out, in, 3, 3], by F(2×2, 3×3) or F(4×4, 3×3) as they were made
    /// (`WinogradFilters.outputTile`); `scratch` holds `scratchCount(g, workers:, tile:)` floats.
    public static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, filters: WinogradFilters, bounds: ActivationBounds,
        output: UnsafeMutablePointer<Float>, layout: FusedConv2d.OutputLayout = .channelsFirst,
        workers requested: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        precondition(isSupported(g) && filters.inChannels == g.inChannels && filters.outChannels == g.outChannels,
                     "Winograd3x3: filters \(filters.outChannels)×\(filters.inChannels) for \(g)")
        if g.batch == 0 { return }
        if filters.outputTile == 4 {
            forward(Tile4.self, g, input: input, filters: filters, bounds: bounds, output: output, layout: layout, workers: requested, scratch: scratch)
        } else {
            forward(Tile2.self, g, input: input, filters: filters, bounds: bounds, output: output, layout: layout, workers: requested, scratch: scratch)
        }
    }

    /// `forward` by the scheme `T` the filters were made for: the split, the transforms and the
    /// store are `T`'s, the grouping, threading and point products shared.
    private static func forward<T: WinogradTiling>(
        _: T.Type, _ g: Conv2dGeometry, input: UnsafePointer<Float>, filters: WinogradFilters, bounds: ActivationBounds,
        output: UnsafeMutablePointer<Float>, layout: FusedConv2d.OutputLayout, workers requested: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        let tile = T.tile, grid = Grid(g, tile: tile), channels = g.inChannels
        let workers = PackedConv2d.workers(g, requested: requested)
        let perGroup = columnTilesPerGroup(g, tile: tile)
        let groups = PackedConv2d.groupCount(tiles: grid.columnTiles, perGroup: perGroup, batch: g.batch, workers: workers)
        writeSplitPadded(T.self, g, grid, input: input, into: scratch, workers: workers)
        let padded = UnsafePointer(scratch)
        let work = scratch + g.batch * channels * grid.planeFloats
        let transformedCount = transformedFloats(g, tile: tile), productCount = productFloats(g, tile: tile)
        let perWorker = perWorkerScratch(g, tile: tile)
        let store = TileStore(g: g, output: output, layout: layout, bounds: bounds, bias: filters.bias)
        let pointStride = pointStride(channels: channels)
        Parallel.forEachChunk(g.batch * groups, workers: workers) { items, worker in
            let transformed = work + worker * perWorker, products = transformed + perGroup * transformedCount
            for item in items {
                let n = item / groups, columnTiles = Parallel.chunk(item % groups, of: groups, count: grid.columnTiles)
                let image = padded + n * channels * grid.planeFloats
                for (slot, index) in columnTiles.enumerated() {
                    transformInput(T.self, image, grid, channels: channels, columnTile: index, into: transformed + slot * transformedCount)
                }
                multiplyPoints(filters.points, channels: channels, columnTiles: columnTiles.count, transformed: transformed,
                               transformedCount: transformedCount, pointStride: pointStride, products: products, productCount: productCount)
                for (slot, index) in columnTiles.enumerated() {
                    transformOutput(T.self, products + slot * productCount, grid, n: n, columnTile: index, store: store)
                }
            }
        }
    }

    /// Each point's matrix product for a group of `columnTiles` column tiles: Uₖ [out, in] (one
    /// `PackedFilters` per point) times a tile's transformed inputs at point k ([in][16 lanes],
    /// `pointStride` floats per point, `transformedCount` per tile) into its products
    /// ([out rounded up to the micro-kernel's rows][points][16 lanes], `productCount` per tile).
    /// Shared by both tile sizes; each product is one micro-kernel sum, whoever runs it.
    static func multiplyPoints(
        _ points: [PackedFilters], channels: Int, columnTiles: Int, transformed: UnsafeMutablePointer<Float>, transformedCount: Int,
        pointStride: Int, products: UnsafeMutablePointer<Float>, productCount: Int
    ) {
        let rows = PackedMicroKernel.rows, productRow = points.count * lanes, pairs = PackedMicroKernel.isWide
        for (k, u) in points.enumerated() {
            var block = 0
            while block < u.blocks {
                // With AVX-512 two blocks a call (`runPair`); an odd last block alone.
                let paired = pairs && block + 1 < u.blocks
                let a = UnsafePointer(u.values + block * channels * rows), zero = UnsafePointer(u.bias + block * rows)
                var slot = 0
                while slot < columnTiles {
                    let tile = UnsafePointer(transformed + slot * transformedCount + k * pointStride)
                    let result = products + slot * productCount + block * rows * productRow + k * lanes
                    if paired && slot + 1 < columnTiles {
                        // Two column tiles a call: 12 × 32 (`runPairTwoTiles`).
                        PackedMicroKernel.runPairTwoTiles(depth: channels, filters: a, columnsA: tile, columnsB: tile + transformedCount,
                                                          bias: zero, lower: -.infinity, upper: .infinity, outputA: result,
                                                          outputB: result + rows * productRow, ldc: productRow, secondTile: productCount)
                        slot += 2
                        continue
                    }
                    if paired {
                        PackedMicroKernel.runPair(depth: channels, filters: a, columns: tile, bias: zero, lower: -.infinity, upper: .infinity,
                                                  outputA: result, ldcA: productRow, outputB: result + rows * productRow, ldcB: productRow)
                    } else {
                        PackedMicroKernel.run(wide: pairs, depth: channels, filters: a, columns: tile, bias: zero, lower: -.infinity, upper: .infinity,
                                              output: result, ldc: productRow)
                    }
                    slot += 1
                }
                block += paired ? 2 : 1
            }
        }
    }

    /// The input planes with a zero border, each padded row split into its `T.tile` phases by
    /// `T.splitRow` (`Grid`: even and odd columns for F(2×2)); planes split across `workers`.
    static func writeSplitPadded<T: WinogradTiling>(_: T.Type, _ g: Conv2dGeometry, _ grid: Grid, input: UnsafePointer<Float>,
                                                    into padded: UnsafeMutablePointer<Float>, workers: Int) {
        let planes = g.batch * g.inChannels, height = g.inHeight, width = g.inWidth, rowFloats = grid.rowFloats
        let parallel = g.inputCount >= PackedConv2d.PaddedInput.parallelValues ? workers : 1
        Parallel.forEachChunk(planes, workers: parallel) { range, _ in
            for index in range {
                let target = padded + index * grid.planeFloats, source = input + index * height * width
                target.update(repeating: 0, count: rowFloats)
                for y in 0..<height {
                    let split = target + (y + 1) * rowFloats, row = source + y * width
                    T.splitRow(row, width: width, grid, into: split)
                }
                (target + (height + 1) * rowFloats).update(repeating: 0, count: grid.planeFloats - (height + 1) * rowFloats)
            }
        }
    }

    /// `Bᵀ x` for one column (or row) of a patch: Bᵀ = [1 0 −1 0; 0 1 1 0; 0 −1 1 0; 0 1 0 −1].
    @inline(__always)
    static func inputTransform<V: WinogradLanes>(_ x0: V, _ x1: V, _ x2: V, _ x3: V) -> (V, V, V, V) {
        (x0 - x2, x1 + x2, x2 - x1, x1 - x3)
    }

    /// `Aᵀ m` for one column (or row) of the products: Aᵀ = [1 1 1 0; 0 1 −1 −1].
    @inline(__always)
    static func outputTransform<V: WinogradLanes>(_ m0: V, _ m1: V, _ m2: V, _ m3: V) -> (V, V) {
        (m0 + m1 + m2, m1 - m2 - m3)
    }

    /// Column tile `index`'s patches, `Bᵀ d B` per channel, into [points][channels][16 lanes], by
    /// `T`'s transform (`Tile2`: F(2×2, 3×3), `Tile4`: F(4×4, 3×3)) on runs of 8, 4 and single tiles.
    static func transformInput<T: WinogradTiling>(_: T.Type, _ image: UnsafePointer<Float>, _ grid: Grid, channels: Int, columnTile index: Int,
                                                  into transformed: UnsafeMutablePointer<Float>) {
        let used = min(lanes, grid.tiles - index * lanes), pointStride = pointStride(channels: channels)
        if used < lanes {
            // The micro-kernel computes every lane: keep the unused ones zero, not stale.
            for k in 0..<points(tile: T.tile) {
                for c in 0..<channels { (transformed + k * pointStride + c * lanes + used).update(repeating: 0, count: lanes - used) }
            }
        }
        grid.forEachRun(ofColumnTile: index) { lane, tileRow, tileColumn, length in
            let corner = image + T.tile * tileRow * grid.rowFloats + tileColumn
            for c in 0..<channels {
                let rows = corner + c * grid.planeFloats, target = transformed + c * lanes + lane
                var j = 0
                while j + 8 <= length {
                    T.transformPatches(SIMD8<Float>.self, rows + j, grid, into: target + j, pointStride: pointStride)
                    j += 8
                }
                if j + 4 <= length {
                    T.transformPatches(SIMD4<Float>.self, rows + j, grid, into: target + j, pointStride: pointStride)
                    j += 4
                }
                while j < length {
                    T.transformPatches(Float.self, rows + j, grid, into: target + j, pointStride: pointStride)
                    j += 1
                }
            }
        }
    }

    /// Column tile `index`'s products ([out][points][16 lanes]) to output blocks by `T`'s transform
    /// (`Tile4`'s overwrites the products on the way).
    static func transformOutput<T: WinogradTiling>(_: T.Type, _ products: UnsafeMutablePointer<Float>, _ grid: Grid, n: Int, columnTile index: Int,
                                                   store: TileStore) {
        let productRow = points(tile: T.tile) * lanes
        grid.forEachRun(ofColumnTile: index) { lane, tileRow, tileColumn, length in
            for o in 0..<store.g.outChannels {
                let m = products + o * productRow + lane
                var j = 0
                while j + 8 <= length {
                    T.transformProducts(SIMD8<Float>.self, m + j, n: n, channel: o, tileRow: tileRow, tileColumn: tileColumn + j, store: store)
                    j += 8
                }
                if j + 4 <= length {
                    T.transformProducts(SIMD4<Float>.self, m + j, n: n, channel: o, tileRow: tileRow, tileColumn: tileColumn + j, store: store)
                    j += 4
                }
                while j < length {
                    T.transformProducts(Float.self, m + j, n: n, channel: o, tileRow: tileRow, tileColumn: tileColumn + j, store: store)
                    j += 1
                }
            }
        }
    }

    /// Bias, clamp and the store of 2×2 blocks in either output layout.
    struct TileStore {
        let g: Conv2dGeometry
        let output: UnsafeMutablePointer<Float>
        let layout: FusedConv2d.OutputLayout
        let bounds: ActivationBounds
        let bias: UnsafePointer<Float>

        init(g: Conv2dGeometry, output: UnsafeMutablePointer<Float>, layout: FusedConv2d.OutputLayout, bounds: ActivationBounds,
             bias: UnsafeMutablePointer<Float>) {
            (self.g, self.output, self.layout, self.bounds, self.bias) = (g, output, layout, bounds, UnsafePointer(bias))
        }

        /// `top` (output row 2·tileRow) and `bottom` (the row below), each as (left, right) columns
        /// of `V.count` tiles from `tileColumn`. The last row or column is dropped where the
        /// output's height or width is odd.
        @inline(__always)
        func write<V: WinogradLanes>(_ top: (V, V), _ bottom: (V, V), n: Int, channel: Int, tileRow: Int, tileColumn: Int) {
            let b = V(repeating: bias[channel]), lower = bounds.lower, upper = bounds.upper
            let y00 = (top.0 + b).clamped(lower, upper), y01 = (top.1 + b).clamped(lower, upper)
            let y10 = (bottom.0 + b).clamped(lower, upper), y11 = (bottom.1 + b).clamped(lower, upper)
            let height = g.outHeight, width = g.outWidth, y = 2 * tileRow, x = 2 * tileColumn
            let hasBottom = y + 1 < height
            switch layout {
            case .channelsFirst:
                let row = output + ((n * g.outChannels + channel) * height + y) * width + x
                if x + 2 * V.count <= width {
                    V.storeInterleaved(y00, y01, to: row)
                    if hasBottom { V.storeInterleaved(y10, y11, to: row + width) }
                    return
                }
                for l in 0..<V.count {
                    row[2 * l] = y00[lane: l]
                    if hasBottom { row[width + 2 * l] = y10[lane: l] }
                    if x + 2 * l + 1 < width {
                        row[2 * l + 1] = y01[lane: l]
                        if hasBottom { row[width + 2 * l + 1] = y11[lane: l] }
                    }
                }
            case let .positionsFirst(rowStride, imageStride):
                // The detector's flat head matrix: one value per position row, a scatter either way.
                let base = output + n * imageStride + (y * width + x) * rowStride + channel
                for l in 0..<V.count {
                    let at = base + 2 * l * rowStride
                    at[0] = y00[lane: l]
                    if hasBottom { at[width * rowStride] = y10[lane: l] }
                    if x + 2 * l + 1 < width {
                        at[rowStride] = y01[lane: l]
                        if hasBottom { at[(width + 1) * rowStride] = y11[lane: l] }
                    }
                }
            }
        }
    }
}

/// One Winograd scheme's parts for `Winograd3x3`'s shared loops: `tile`, the output tile's side;
/// the split of an input row into its phases; the input transform of `V.count` neighbouring patches of one channel into their points
/// (`pointStride` apart); the output transform of one output channel's products (point k at
/// `m + 16k`) and their store.
protocol WinogradTiling {
    static var tile: Int { get }
    /// One input row into its padded row's phases (`Winograd3x3.Grid`).
    static func splitRow(_ row: UnsafePointer<Float>, width: Int, _ grid: Winograd3x3.Grid, into split: UnsafeMutablePointer<Float>)
    static func transformPatches<V: WinogradLanes>(_: V.Type, _ rows: UnsafePointer<Float>, _ grid: Winograd3x3.Grid,
                                                   into target: UnsafeMutablePointer<Float>, pointStride: Int)
    static func transformProducts<V: WinogradLanes>(_: V.Type, _ m: UnsafeMutablePointer<Float>, n: Int, channel: Int, tileRow: Int,
                                                    tileColumn: Int, store: Winograd3x3.TileStore)
}

extension Winograd3x3 {
    /// F(2×2, 3×3).
    enum Tile2: WinogradTiling {
        static var tile: Int { 2 }

        /// One input row into its padded row's even and odd columns: even[m] = row[2m − 1],
        /// odd[m] = row[2m] (input column x sits at padded column x + 1).
        @inline(__always)
        static func splitRow(_ row: UnsafePointer<Float>, width: Int, _ grid: Grid, into even: UnsafeMutablePointer<Float>) {
            let odd = even + grid.phaseFloats, lastColumn = grid.tileColumns
            even[0] = 0
            odd[0] = row[0]
            var m = 1
            while 2 * m + 15 <= width {
                let v = load16(row + 2 * m - 1)
                store8(v.evenHalf, even + m)
                store8(v.oddHalf, odd + m)
                m += 8
            }
            while m <= lastColumn {
                even[m] = 2 * m - 1 < width ? row[2 * m - 1] : 0
                odd[m] = 2 * m < width ? row[2 * m] : 0
                m += 1
            }
        }

        /// `V.count` neighbouring tiles of one channel: d[r][q] is padded row r of the patch, column
        /// q ∈ even[tx], odd[tx], even[tx + 1], odd[tx + 1]; point 4i + j of `Bᵀ d B` goes to
        /// `target + (4i + j) · pointStride`.
        @inline(__always)
        static func transformPatches<V: WinogradLanes>(_: V.Type, _ rows: UnsafePointer<Float>, _ grid: Grid,
                                                       into target: UnsafeMutablePointer<Float>, pointStride: Int) {
            @inline(__always) func patchRow(_ r: Int) -> (V, V, V, V) {
                let even = rows + r * grid.rowFloats, odd = even + grid.phaseFloats
                return (V(loading: even), V(loading: odd), V(loading: even + 1), V(loading: odd + 1))
            }
            let d0 = patchRow(0), d1 = patchRow(1), d2 = patchRow(2), d3 = patchRow(3)
            // Bᵀ d: down each column.
            let c0 = inputTransform(d0.0, d1.0, d2.0, d3.0), c1 = inputTransform(d0.1, d1.1, d2.1, d3.1)
            let c2 = inputTransform(d0.2, d1.2, d2.2, d3.2), c3 = inputTransform(d0.3, d1.3, d2.3, d3.3)
            // (Bᵀ d) B: along each row i.
            @inline(__always) func storeRow(_ i: Int, _ x: (V, V, V, V)) {
                let t = inputTransform(x.0, x.1, x.2, x.3), row = target + 4 * i * pointStride
                t.0.store(to: row); t.1.store(to: row + pointStride); t.2.store(to: row + 2 * pointStride); t.3.store(to: row + 3 * pointStride)
            }
            storeRow(0, (c0.0, c1.0, c2.0, c3.0))
            storeRow(1, (c0.1, c1.1, c2.1, c3.1))
            storeRow(2, (c0.2, c1.2, c2.2, c3.2))
            storeRow(3, (c0.3, c1.3, c2.3, c3.3))
        }

        /// `Aᵀ M A` for `V.count` neighbouring tiles of one output channel (point k at `m + 16k`).
        @inline(__always)
        static func transformProducts<V: WinogradLanes>(_: V.Type, _ m: UnsafeMutablePointer<Float>, n: Int, channel: Int, tileRow: Int,
                                                        tileColumn: Int, store: TileStore) {
            @inline(__always) func point(_ i: Int, _ j: Int) -> V { V(loading: m + (4 * i + j) * lanes) }
            // Aᵀ M: down each column j.
            let s0 = outputTransform(point(0, 0), point(1, 0), point(2, 0), point(3, 0))
            let s1 = outputTransform(point(0, 1), point(1, 1), point(2, 1), point(3, 1))
            let s2 = outputTransform(point(0, 2), point(1, 2), point(2, 2), point(3, 2))
            let s3 = outputTransform(point(0, 3), point(1, 3), point(2, 3), point(3, 3))
            // (Aᵀ M) A: along rows 0 and 1.
            let top = outputTransform(s0.0, s1.0, s2.0, s3.0), bottom = outputTransform(s0.1, s1.1, s2.1, s3.1)
            store.write(top, bottom, n: n, channel: channel, tileRow: tileRow, tileColumn: tileColumn)
        }
    }
}

/// The lane types the Winograd transforms are written once for: 8 and 4 neighbouring tiles,
/// and one (a row's last tiles).
protocol WinogradLanes {
    static var count: Int { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Float) -> Self
    init(loading pointer: UnsafePointer<Float>)
    init(repeating value: Float)
    func store(to pointer: UnsafeMutablePointer<Float>)
    /// Clamp that lets NaN through (as `clamp8`).
    func clamped(_ lower: Float, _ upper: Float) -> Self
    /// `a[0], b[0], a[1], b[1], …` stored from `pointer`.
    static func storeInterleaved(_ a: Self, _ b: Self, to pointer: UnsafeMutablePointer<Float>)
    /// `a[0], b[0], c[0], d[0], a[1], …` stored from `pointer` (F(4×4)'s rows of 4×4 blocks).
    static func storeInterleaved(_ a: Self, _ b: Self, _ c: Self, _ d: Self, to pointer: UnsafeMutablePointer<Float>)
    subscript(lane index: Int) -> Float { get }
}

extension SIMD8: WinogradLanes where Scalar == Float {
    static var count: Int { 8 }
    init(loading pointer: UnsafePointer<Float>) { self = load8(pointer) }
    func store(to pointer: UnsafeMutablePointer<Float>) { store8(self, pointer) }
    func clamped(_ lower: Float, _ upper: Float) -> Self { clamp8(self, Self(repeating: lower), Self(repeating: upper)) }
    static func storeInterleaved(_ a: Self, _ b: Self, to pointer: UnsafeMutablePointer<Float>) { store16(interleave(a, b), pointer) }
    static func storeInterleaved(_ a: Self, _ b: Self, _ c: Self, _ d: Self, to pointer: UnsafeMutablePointer<Float>) {
        // (a c a c …) and (b d b d …) interleaved give a b c d per lane.
        let ac = interleave(a, c), bd = interleave(b, d)
        store16(interleave(ac.lowHalf, bd.lowHalf), pointer)
        store16(interleave(ac.highHalf, bd.highHalf), pointer + 16)
    }
    subscript(lane index: Int) -> Float { self[index] }
}

extension SIMD4: WinogradLanes where Scalar == Float {
    static var count: Int { 4 }
    init(loading pointer: UnsafePointer<Float>) { self = UnsafeRawPointer(pointer).loadUnaligned(as: Self.self) }
    func store(to pointer: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(pointer).storeBytes(of: self, as: Self.self) }
    func clamped(_ lower: Float, _ upper: Float) -> Self {
        var v = self
        v.replace(with: Self(repeating: lower), where: v .< Self(repeating: lower))
        v.replace(with: Self(repeating: upper), where: v .> Self(repeating: upper))
        return v
    }
    static func storeInterleaved(_ a: Self, _ b: Self, to pointer: UnsafeMutablePointer<Float>) {
        let pairs = SIMD8<Float>(lowHalf: a, highHalf: b)
        store8(SIMD8(pairs[0], pairs[4], pairs[1], pairs[5], pairs[2], pairs[6], pairs[3], pairs[7]), pointer)
    }
    static func storeInterleaved(_ a: Self, _ b: Self, _ c: Self, _ d: Self, to pointer: UnsafeMutablePointer<Float>) {
        let ac = SIMD8<Float>(lowHalf: a, highHalf: c), bd = SIMD8<Float>(lowHalf: b, highHalf: d)
        store16(interleave(SIMD8(ac[0], ac[4], ac[1], ac[5], ac[2], ac[6], ac[3], ac[7]),
                           SIMD8(bd[0], bd[4], bd[1], bd[5], bd[2], bd[6], bd[3], bd[7])), pointer)
    }
    subscript(lane index: Int) -> Float { self[index] }
}

extension Float: WinogradLanes {
    static var count: Int { 1 }
    init(loading pointer: UnsafePointer<Float>) { self = pointer.pointee }
    init(repeating value: Float) { self = value }
    func store(to pointer: UnsafeMutablePointer<Float>) { pointer.pointee = self }
    func clamped(_ lower: Float, _ upper: Float) -> Float { self < lower ? lower : (self > upper ? upper : self) }
    static func storeInterleaved(_ a: Float, _ b: Float, to pointer: UnsafeMutablePointer<Float>) {
        pointer[0] = a
        pointer[1] = b
    }
    static func storeInterleaved(_ a: Float, _ b: Float, _ c: Float, _ d: Float, to pointer: UnsafeMutablePointer<Float>) {
        pointer[0] = a
        pointer[1] = b
        pointer[2] = c
        pointer[3] = d
    }
    subscript(lane index: Int) -> Float { self }
}
