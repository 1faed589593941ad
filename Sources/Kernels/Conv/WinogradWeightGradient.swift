/// The weight gradient of a 3×3, stride-1, pad-1 layer in Winograd's domain (`dense_kernels:
/// winograd-weights`): the transpose of the forward's F(2×2, 3×3), which is F(3×3, 2×2).
///
/// The forward computes each 2×2 output tile as `Aᵀ[(G g Gᵀ) ⊙ (Bᵀ d B)]A` from its 4×4 input
/// patch d, so the gradient of the 4×4 transformed filter is `dU = Σ_tiles (A dY Aᵀ) ⊙ (Bᵀ d B)`
/// (dY the tile's 2×2 output gradient) and the filter's is `Gᵀ dU G`. Per point ξ of the 4×4,
/// `dU[ξ][o][c] = Σ_t Ŷ[ξ][t][o] · V[ξ][t][c]`: 16 products of depth N·tiles where the direct sums
/// take one of depth 9·N·positions — 2.25× fewer multiply-adds.
///
/// Work goes by chunks of ~32 tiles (whole tile rows of one image). A chunk's input rows and
/// output-gradient rows are first turned channels-last (`Permute`'s 8 × 8 blocks, zero borders
/// written out), so that every patch value is a vector of channels and both transforms run 8
/// channels a vector, writing each point's [tile][channel] rows straight where the products read
/// them; a chunk's transformed points (~270 KB at 64 channels) stay in L2. The products run on a
/// 6 × 16 register block (`accumulateBlock`) over the chunk's tiles.
///
/// Order: each weight's products run as one chain of fused multiply-adds through a segment's
/// chunks in order (fixed runs of chunks, whoever runs them); segments are added in order. So the
/// result is bit-identical for any thread count, and on either instruction set (plain SIMD8 code).
/// Its rounding differs from the direct sums' (the transforms add and subtract values before they
/// are multiplied): another `dense_kernels`, another run of a seed.
///
/// Batch 8, two threads, Zen 3 (AVX2), against the direct sums in the same process (`bench engine`'s
/// 3×3 table): the FPN's 64 × 64 layers 1.6× as fast at 64×32 (15 → 9 ms), 1.6× at 32×16, 2–2.6× at 16×8.
enum WinogradWeightGradient {
    static func isSupported(_ g: Conv2dGeometry) -> Bool { Winograd3x3.isSupported(g) }

    /// The tiles of one image: ⌈H/2⌉ × ⌈W/2⌉ (at stride 1, pad 1 the output is the input's size).
    struct Tiles {
        let rows: Int, columns: Int
        init(_ g: Conv2dGeometry) { (rows, columns) = ((g.outHeight + 1) / 2, (g.outWidth + 1) / 2) }
        var count: Int { rows * columns }
    }

    /// Tiles a chunk aims at: its transformed points, 16 × 32 × (64 + 66) floats at 64 channels,
    /// stay in L2 beside its channels-last input and gradient rows.
    static let chunkTiles = 32
    /// At most this many segments (partials of the 16 point products): enough for a worker team
    /// to share any layer evenly, few enough that the partials stay small — and fewer for wide
    /// layers, whose partials would pass `maximumPartialFloats` (16 MB; the FPN's 64 × 64 layers
    /// take 4 MB). The count depends on the layer only, never on the workers.
    static let maximumSegments = 16
    static let maximumPartialFloats = 1 << 22

    static func segmentCount(chunks: Int, matrix: Int) -> Int {
        max(1, min(maximumSegments, chunks, maximumPartialFloats / (16 * matrix)))
    }

    /// Tile rows `rows` of image `image`.
    struct Chunk { let image: Int, rows: Range<Int> }

    static func chunks(batch: Int, tiles: Tiles) -> [Chunk] {
        let perChunk = max(1, min(tiles.rows, chunkTiles / tiles.columns))
        return (0..<batch).flatMap { n in
            stride(from: 0, to: tiles.rows, by: perChunk).map { Chunk(image: n, rows: $0..<min(tiles.rows, $0 + perChunk)) }
        }
    }

    /// Channel counts as laid out channels-last: whole vectors of 8, and for the products' blocks
    /// whole 16s (inputs, a block's columns) and whole 6s plus the overhang of an 8-wide load
    /// (output gradients, a block's rows).
    struct Layout {
        let inputs: Int, outputs: Int
        var inputVectors: Int { (inputs + 7) / 8 }
        var outputVectors: Int { (outputs + 7) / 8 }
        var inputStride: Int { (inputs + 15) / 16 * 16 }
        var outputStride: Int { max(outputVectors * 8, (outputs + 5) / 6 * 6) }
    }

    static func compute(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>, gradWeight: UnsafeMutablePointer<Float>
    ) {
        precondition(isSupported(g), "WinogradWeightGradient: \(g)")
        let tiles = Tiles(g), layout = Layout(inputs: g.inChannels, outputs: g.outChannels)
        guard g.batch > 0 else { gradWeight.update(repeating: 0, count: g.weightCount); return }
        let chunks = chunks(batch: g.batch, tiles: tiles)
        let perChunk = chunks[0].rows.count
        let matrix = g.outChannels * g.inChannels
        let wanted = segmentCount(chunks: chunks.count, matrix: matrix)
        let segmentChunks = (chunks.count + wanted - 1) / wanted
        let segments = (chunks.count + segmentChunks - 1) / segmentChunks
        let depth = perChunk * tiles.columns
        // Per worker: the chunk's input rows channels-last with zero borders (patch rows 2ty − 1 …
        // 2ty + 2, columns −1 … 2·tiles), its gradient rows (2ty, 2ty + 1; columns 0 … 2·tiles − 1),
        // and its 16 points of both, [point][tile][channel].
        let inputRowFloats = (2 * tiles.columns + 2) * layout.inputVectors * 8
        let gradientRowFloats = 2 * tiles.columns * layout.outputVectors * 8
        let inputSlab = (2 * perChunk + 2) * inputRowFloats, gradientSlab = 2 * perChunk * gradientRowFloats
        let vPoint = depth * layout.inputStride, yPoint = depth * layout.outputStride
        let vFloats = 16 * vPoint, yFloats = 16 * yPoint
        let perWorker = inputSlab + gradientSlab + vFloats + yFloats
        let workers = Parallel.workerCount(for: segments)
        let scratch = Workspace(count: workers * perWorker, zeroed: true)
        let partials = Workspace(count: segments * 16 * matrix)
        defer { scratch.free(); partials.free() }
        Parallel.forEachChunk(segments, workers: workers) { range, worker in
            let slab = scratch.pointer + worker * perWorker, gradientRows = slab + inputSlab
            let v = gradientRows + gradientSlab, y = v + vFloats
            for segment in range {
                let sums = partials.pointer + segment * 16 * matrix
                sums.update(repeating: 0, count: 16 * matrix)
                for chunk in chunks[(segment * segmentChunks)..<min(chunks.count, (segment + 1) * segmentChunks)] {
                    let count = chunk.rows.count * tiles.columns
                    // Patch rows 2ty − 1 … 2ty + 2 from column −1; gradient rows 2ty, 2ty + 1 from column 0.
                    loadRows(input + chunk.image * g.inChannels * g.inHeight * g.inWidth, channels: g.inChannels, height: g.inHeight,
                             width: g.inWidth, firstRow: 2 * chunk.rows.lowerBound - 1, rows: 2 * chunk.rows.count + 2, columnOffset: 1,
                             stride: layout.inputVectors * 8, into: slab, rowFloats: inputRowFloats)
                    loadRows(gradOutput + chunk.image * g.outChannels * g.outHeight * g.outWidth, channels: g.outChannels,
                             height: g.outHeight, width: g.outWidth, firstRow: 2 * chunk.rows.lowerBound, rows: 2 * chunk.rows.count,
                             columnOffset: 0, stride: layout.outputVectors * 8, into: gradientRows, rowFloats: gradientRowFloats)
                    transformInput(tiles, layout, rows: chunk.rows.count, slab: slab, rowFloats: inputRowFloats, into: v, pointFloats: vPoint)
                    transformGradient(tiles, layout, rows: chunk.rows.count, slab: gradientRows, rowFloats: gradientRowFloats,
                                      into: y, pointFloats: yPoint)
                    for point in 0..<16 {
                        multiply(layout, tiles: count, gradients: y + point * yPoint, inputs: v + point * vPoint, into: sums + point * matrix)
                    }
                }
            }
        }
        let products = partials.pointer
        Vector.addInOrder(products + 16 * matrix, partCount: segments - 1, count: 16 * matrix, to: products)
        transformFilterGradient(products, matrix: matrix, into: gradWeight)
    }

    /// Rows `firstRow …` (`rows` of them) of one image's `channels` planes (`height` × `width`)
    /// channels-last, `[row][columnOffset + column][channel]` with `stride` floats a column; a row
    /// outside the image is zeros. Other columns and the channel lanes past `channels` are never
    /// written, so they stay the zeros the scratch starts with: the input's borders (column −1,
    /// columns W … 2·tiles) and an odd width's last gradient column.
    static func loadRows(
        _ planes: UnsafePointer<Float>, channels: Int, height: Int, width: Int, firstRow: Int, rows: Int, columnOffset: Int,
        stride: Int, into slab: UnsafeMutablePointer<Float>, rowFloats: Int
    ) {
        for r in 0..<rows {
            let y = firstRow + r, row = slab + r * rowFloats
            guard (0..<height).contains(y) else {
                row.update(repeating: 0, count: rowFloats)
                continue
            }
            Permute.transposeTile(Permute.Matrix(input: planes + y * width, rows: channels, columns: width, inputStride: height * width,
                                                 output: row + columnOffset * stride, outputStride: stride),
                                  rows: 0..<channels, columns: 0..<width)
        }
    }

    /// `Bᵀ d B` for every tile of the chunk, 8 channels a vector (Bᵀ = [1 0 −1 0; 0 1 1 0;
    /// 0 −1 1 0; 0 1 0 −1], on the patch's rows, then on its columns), into `[point][tile][channel]`.
    static func transformInput(
        _ tiles: Tiles, _ layout: Layout, rows: Int, slab: UnsafePointer<Float>, rowFloats: Int,
        into v: UnsafeMutablePointer<Float>, pointFloats: Int
    ) {
        let stride = layout.inputVectors * 8
        forEachTileVector(tiles, rows: rows, slab: slab, rowFloats: rowFloats, channelStride: stride) { corner, t, k in
            @inline(__always) func d(_ i: Int, _ j: Int) -> SIMD8<Float> { load8(corner + i * rowFloats + j * stride + k) }
            // Rows: for each patch column j, Bᵀ on (d0j, d1j, d2j, d3j).
            @inline(__always) func rowsOf(_ j: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
                let x0 = d(0, j), x1 = d(1, j), x2 = d(2, j), x3 = d(3, j)
                return (x0 - x2, x1 + x2, x2 - x1, x1 - x3)
            }
            let c0 = rowsOf(0), c1 = rowsOf(1), c2 = rowsOf(2), c3 = rowsOf(3)
            @inline(__always) func store(_ a: Int, _ x0: SIMD8<Float>, _ x1: SIMD8<Float>, _ x2: SIMD8<Float>, _ x3: SIMD8<Float>) {
                let base = v + (4 * a) * pointFloats + t * layout.inputStride + k
                store8(x0 - x2, base); store8(x1 + x2, base + pointFloats)
                store8(x2 - x1, base + 2 * pointFloats); store8(x1 - x3, base + 3 * pointFloats)
            }
            store(0, c0.0, c1.0, c2.0, c3.0); store(1, c0.1, c1.1, c2.1, c3.1)
            store(2, c0.2, c1.2, c2.2, c3.2); store(3, c0.3, c1.3, c2.3, c3.3)
        }
    }

    /// `A dY Aᵀ` for every tile of the chunk, 8 channels a vector (A = [1 0; 1 1; 1 −1; 0 −1] on the
    /// tile's two rows, then on its two columns), into `[point][tile][channel]`.
    static func transformGradient(
        _ tiles: Tiles, _ layout: Layout, rows: Int, slab: UnsafePointer<Float>, rowFloats: Int,
        into y: UnsafeMutablePointer<Float>, pointFloats: Int
    ) {
        let stride = layout.outputVectors * 8
        forEachTileVector(tiles, rows: rows, slab: slab, rowFloats: rowFloats, channelStride: stride) { corner, t, k in
            let g00 = load8(corner + k), g01 = load8(corner + stride + k)
            let g10 = load8(corner + rowFloats + k), g11 = load8(corner + rowFloats + stride + k)
            // Rows: (g0, g0 + g1, g0 − g1, −g1) for each column.
            let r0 = (g00, g01), r1 = (g00 + g10, g01 + g11), r2 = (g00 - g10, g01 - g11), r3 = (-g10, -g11)
            @inline(__always) func store(_ a: Int, _ e: SIMD8<Float>, _ o: SIMD8<Float>) {
                let base = y + (4 * a) * pointFloats + t * layout.outputStride + k
                store8(e, base); store8(e + o, base + pointFloats)
                store8(e - o, base + 2 * pointFloats); store8(-o, base + 3 * pointFloats)
            }
            store(0, r0.0, r0.1); store(1, r1.0, r1.1); store(2, r2.0, r2.1); store(3, r3.0, r3.1)
        }
    }

    /// `body(corner, t, k)` for every tile t of a chunk's `rows` tile rows and every 8 channels k
    /// from 0: `corner` is the tile's first row and column in a channels-last slab (rows
    /// `rowFloats` apart, columns `channelStride`); both operands' tiles start at even rows and columns.
    @inline(__always)
    static func forEachTileVector(
        _ tiles: Tiles, rows: Int, slab: UnsafePointer<Float>, rowFloats: Int, channelStride: Int,
        _ body: (_ corner: UnsafePointer<Float>, _ t: Int, _ k: Int) -> Void
    ) {
        for ty in 0..<rows {
            for tx in 0..<tiles.columns {
                let corner = slab + 2 * ty * rowFloats + 2 * tx * channelStride
                for k in stride(from: 0, to: channelStride, by: 8) { body(corner, ty * tiles.columns + tx, k) }
            }
        }
    }

    /// `sums[o][c] += Σ_t gradients[t][o] · inputs[t][c]` over the chunk's tiles, in 6 × 16 blocks
    /// added to in place (a block that overhangs the channels goes through a zeroed buffer).
    static func multiply(
        _ layout: Layout, tiles: Int, gradients: UnsafePointer<Float>, inputs: UnsafePointer<Float>, into sums: UnsafeMutablePointer<Float>
    ) {
        let (rows, lanes) = (6, 16)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: rows * lanes) { buffer in
            let block = buffer.baseAddress!
            for o in stride(from: 0, to: layout.outputs, by: rows) {
                for c in stride(from: 0, to: layout.inputs, by: lanes) {
                    let validRows = min(rows, layout.outputs - o), validLanes = min(lanes, layout.inputs - c)
                    let target = sums + o * layout.inputs + c
                    if validRows == rows && validLanes == lanes {
                        accumulateBlock(depth: tiles, gradients: gradients + o, gradientStride: layout.outputStride,
                                        inputs: inputs + c, inputStride: layout.inputStride, into: target, rowStride: layout.inputs)
                        continue
                    }
                    block.update(repeating: 0, count: rows * lanes)
                    for r in 0..<validRows { (block + r * lanes).update(from: target + r * layout.inputs, count: validLanes) }
                    accumulateBlock(depth: tiles, gradients: gradients + o, gradientStride: layout.outputStride,
                                    inputs: inputs + c, inputStride: layout.inputStride, into: block, rowStride: lanes)
                    for r in 0..<validRows { (target + r * layout.inputs).update(from: block + r * lanes, count: validLanes) }
                }
            }
        }
    }

    /// One 6 × 16 block: `block[r][l] += Σ_t gradients[t][r] · inputs[t][l]`, each sum one chain of
    /// fused multiply-adds in tile order (`PackedMicroKernel.Block`, out of line as `run` is, for the
    /// same reason: its twelve accumulators stay in registers).
    @inline(never)
    static func accumulateBlock(
        depth: Int, gradients: UnsafePointer<Float>, gradientStride: Int, inputs: UnsafePointer<Float>, inputStride: Int,
        into block: UnsafeMutablePointer<Float>, rowStride: Int
    ) {
        var sums = PackedMicroKernel.Block(loading: block, rowStride: rowStride)
        sums.accumulate(depth: depth, filters: gradients, filterStride: gradientStride, columns: inputs, columnStride: inputStride)
        sums.store(to: block, rowStride: rowStride)
    }

    /// `gradWeight[o][c] = Gᵀ dU[o][c] G` (G = [1 0 0; ½ ½ ½; ½ −½ ½; 0 0 1]) from the 16 point
    /// matrices `products[ξ][o][c]`, columns first, then rows.
    static func transformFilterGradient(_ products: UnsafePointer<Float>, matrix: Int, into gradWeight: UnsafeMutablePointer<Float>) {
        Parallel.forEachChunk(matrix) { pairs, _ in
            for pair in pairs {
                func point(_ a: Int, _ b: Int) -> Float { products[(4 * a + b) * matrix + pair] }
                // h[a] = the three columns of point row a: (p0 + ½(p1 + p2), ½(p1 − p2), ½(p1 + p2) + p3).
                func columns(_ a: Int) -> SIMD3<Float> {
                    let p0 = point(a, 0), p1 = point(a, 1), p2 = point(a, 2), p3 = point(a, 3)
                    let half = (p1 + p2) * 0.5
                    return SIMD3(p0 + half, (p1 - p2) * 0.5, half + p3)
                }
                let h0 = columns(0), h1 = columns(1), h2 = columns(2), h3 = columns(3)
                let half = (h1 + h2) * 0.5
                let rows = (h0 + half, (h1 - h2) * 0.5, half + h3)
                let target = gradWeight + pair * 9
                for kx in 0..<3 {
                    target[kx] = rows.0[kx]
                    target[3 + kx] = rows.1[kx]
                    target[6 + kx] = rows.2[kx]
                }
            }
        }
    }
}
