/// Materialises a transpose: output dimension i is input dimension `permutation[i]`.
public enum Permute {
    public static func apply(_ input: UnsafePointer<Float>, shape: [Int], permutation: [Int], output: UnsafeMutablePointer<Float>) {
        let rank = shape.count
        if rank >= 2, permutation == Array(0..<(rank - 2)) + [rank - 1, rank - 2] {
            transposeLastTwo(input, batch: shape.dropLast(2).reduce(1, *), rows: shape[rank - 2], columns: shape[rank - 1], output: output)
            return
        }
        var inStrides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { inStrides[d] = inStrides[d + 1] * shape[d + 1] }
        let outShape = permutation.map { shape[$0] }
        let stridesInOutOrder = permutation.map { inStrides[$0] }
        let total = shape.reduce(1, *)
        guard total > 0 else { return }
        let inner = outShape[rank - 1], innerStride = stridesInOutOrder[rank - 1]
        var index = [Int](repeating: 0, count: rank)
        var inOffset = 0
        var o = 0
        while o < total {
            var p = input + inOffset
            for i in 0..<inner { output[o + i] = p.pointee; p += innerStride }
            o += inner
            var d = rank - 2
            while d >= 0 {
                index[d] += 1
                inOffset += stridesInOutOrder[d]
                if index[d] < outShape[d] { break }
                inOffset -= stridesInOutOrder[d] * outShape[d]
                index[d] = 0
                d -= 1
            }
        }
    }

    /// One matrix of a strided transpose: `output[c · outputStride + r] = input[r · inputStride + c]`
    /// for r < `rows`, c < `columns`.
    public struct Matrix {
        public let input: UnsafePointer<Float>
        public let rows: Int, columns: Int, inputStride: Int
        public let output: UnsafeMutablePointer<Float>
        public let outputStride: Int

        public init(input: UnsafePointer<Float>, rows: Int, columns: Int, inputStride: Int,
                    output: UnsafeMutablePointer<Float>, outputStride: Int) {
            self.input = input; self.rows = rows; self.columns = columns; self.inputStride = inputStride
            self.output = output; self.outputStride = outputStride
        }
    }

    /// [batch, rows, columns] → [batch, columns, rows] (`transpose`'s tiles; the general loop
    /// above reads a whole column per output row: the detector's head flatten, [N, 77, 2688] →
    /// [N, 2688, 77], took 4 ms a batch that way).
    public static func transposeLastTwo(_ input: UnsafePointer<Float>, batch: Int, rows: Int, columns: Int, output: UnsafeMutablePointer<Float>) {
        transpose((0..<batch).map {
            Matrix(input: input + $0 * rows * columns, rows: rows, columns: columns, inputStride: columns,
                   output: output + $0 * rows * columns, outputStride: rows)
        })
    }

    /// Transposes every matrix in tiles of 8 × 8 blocks transposed in registers. A wide matrix
    /// goes 8 rows × 256 columns a tile (8 input rows read as 8 streams; the 256 output rows'
    /// pieces stay in L1 until the next 8 rows fill the rest of their cache lines), a tall one 32
    /// × 32. Tiles of all the matrices are split across workers; each output float is written
    /// once, so any worker count gives the same result. (A C probe on a Zen 3 host, one thread,
    /// the head flatten's [8, 77, 2,688] → [8, 2,688, 77]: ~1.5 ms, against ~3 ms in 32 × 32 tiles
    /// of 4 × 4 blocks and ~0.7–1 ms for a plain copy of the same bytes; the tall direction, its
    /// gradient, timed alike in every tile shape tried, within that host's noise.)
    public static func transpose(_ matrices: [Matrix]) {
        func tile(_ m: Matrix) -> (rows: Int, columns: Int) { m.columns >= m.rows ? (8, 256) : (32, 32) }
        func tiles(_ m: Matrix) -> (rows: Int, columns: Int) {
            let t = tile(m)
            return ((m.rows + t.rows - 1) / t.rows, (m.columns + t.columns - 1) / t.columns)
        }
        var firstTile = [0]
        for m in matrices { firstTile.append(firstTile.last! + tiles(m).rows * tiles(m).columns) }
        let total = firstTile.last!, elements = matrices.reduce(0) { $0 + $1.rows * $1.columns }
        let workers = elements >= 1 << 16 ? Parallel.workerCount(for: total) : 1
        Parallel.forEachChunk(total, workers: workers) { range, _ in
            var index = 0
            for t in range {
                while t >= firstTile[index + 1] { index += 1 }
                let m = matrices[index], size = tile(m), columnTiles = tiles(m).columns, local = t - firstTile[index]
                let r0 = local / columnTiles * size.rows, c0 = local % columnTiles * size.columns
                transposeTile(m, rows: r0..<min(m.rows, r0 + size.rows), columns: c0..<min(m.columns, c0 + size.columns))
            }
        }
    }

    @inline(__always)
    static func transposeTile(_ m: Matrix, rows: Range<Int>, columns: Range<Int>) {
        let wholeRows = rows.lowerBound + rows.count / 8 * 8, wholeColumns = columns.lowerBound + columns.count / 8 * 8
        for r in stride(from: rows.lowerBound, to: wholeRows, by: 8) {
            for c in stride(from: columns.lowerBound, to: wholeColumns, by: 8) {
                transpose8(m.input + r * m.inputStride + c, rowStride: m.inputStride, to: m.output + c * m.outputStride + r,
                           rowStrideOut: m.outputStride)
            }
            for c in wholeColumns..<columns.upperBound {
                for i in r..<(r + 8) { m.output[c * m.outputStride + i] = m.input[i * m.inputStride + c] }
            }
        }
        for r in wholeRows..<rows.upperBound {
            for c in columns { m.output[c * m.outputStride + r] = m.input[r * m.inputStride + c] }
        }
    }

    /// `to[c · rowStrideOut + r] = from[r · rowStride + c]` for an 8 × 8 block: pairs of rows
    /// interleaved, then pairs of pairs, then the 128-bit halves swapped (the usual unpack,
    /// shuffle and permute sequence; 16 memory operations for 64 values).
    @inline(__always)
    static func transpose8(_ from: UnsafePointer<Float>, rowStride: Int, to: UnsafeMutablePointer<Float>, rowStrideOut: Int) {
        typealias V = SIMD8<Float>
        func load(_ r: Int) -> V { UnsafeRawPointer(from + r * rowStride).loadUnaligned(as: V.self) }
        func store(_ v: V, _ c: Int) { UnsafeMutableRawPointer(to + c * rowStrideOut).storeBytes(of: v, as: V.self) }
        func low(_ a: V, _ b: V) -> V { V(a[0], b[0], a[1], b[1], a[4], b[4], a[5], b[5]) }
        func high(_ a: V, _ b: V) -> V { V(a[2], b[2], a[3], b[3], a[6], b[6], a[7], b[7]) }
        func lowPairs(_ a: V, _ b: V) -> V { V(a[0], a[1], b[0], b[1], a[4], a[5], b[4], b[5]) }
        func highPairs(_ a: V, _ b: V) -> V { V(a[2], a[3], b[2], b[3], a[6], a[7], b[6], b[7]) }
        func lowHalves(_ a: V, _ b: V) -> V { V(lowHalf: a.lowHalf, highHalf: b.lowHalf) }
        func highHalves(_ a: V, _ b: V) -> V { V(lowHalf: a.highHalf, highHalf: b.highHalf) }
        let r0 = load(0), r1 = load(1), r2 = load(2), r3 = load(3), r4 = load(4), r5 = load(5), r6 = load(6), r7 = load(7)
        let t0 = low(r0, r1), t1 = high(r0, r1), t2 = low(r2, r3), t3 = high(r2, r3)
        let t4 = low(r4, r5), t5 = high(r4, r5), t6 = low(r6, r7), t7 = high(r6, r7)
        let s0 = lowPairs(t0, t2), s1 = highPairs(t0, t2), s2 = lowPairs(t1, t3), s3 = highPairs(t1, t3)
        let s4 = lowPairs(t4, t6), s5 = highPairs(t4, t6), s6 = lowPairs(t5, t7), s7 = highPairs(t5, t7)
        store(lowHalves(s0, s4), 0); store(lowHalves(s1, s5), 1); store(lowHalves(s2, s6), 2); store(lowHalves(s3, s7), 3)
        store(highHalves(s0, s4), 4); store(highHalves(s1, s5), 5); store(highHalves(s2, s6), 6); store(highHalves(s3, s7), 7)
    }

    /// `to[c · rowStrideOut + r] = from[r · rowStride + c]` for a 4 × 4 block (unpack and move
    /// shuffles: 8 memory operations and 12 shuffles for 16 values).
    @inline(__always)
    static func transpose4(_ from: UnsafePointer<Float>, rowStride: Int, to: UnsafeMutablePointer<Float>, rowStrideOut: Int) {
        typealias V = SIMD4<Float>
        func load(_ r: Int) -> V { UnsafeRawPointer(from + r * rowStride).loadUnaligned(as: V.self) }
        func store(_ v: V, _ c: Int) { UnsafeMutableRawPointer(to + c * rowStrideOut).storeBytes(of: v, as: V.self) }
        let a = load(0), b = load(1), c = load(2), d = load(3)
        let ab0 = V(a[0], b[0], a[1], b[1]), ab1 = V(a[2], b[2], a[3], b[3])
        let cd0 = V(c[0], d[0], c[1], d[1]), cd1 = V(c[2], d[2], c[3], d[3])
        store(V(ab0[0], ab0[1], cd0[0], cd0[1]), 0); store(V(ab0[2], ab0[3], cd0[2], cd0[3]), 1)
        store(V(ab1[0], ab1[1], cd1[0], cd1[1]), 2); store(V(ab1[2], ab1[3], cd1[2], cd1[3]), 3)
    }

    public static func inverse(_ permutation: [Int]) -> [Int] {
        var inverse = [Int](repeating: 0, count: permutation.count)
        for (i, p) in permutation.enumerated() { inverse[p] = i }
        return inverse
    }
}
