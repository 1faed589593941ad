/// F(4×4, 3×3) for `Winograd3x3`: filters made with `WinogradFilters(tile4Weight:…)` give each
/// 4×4 block of outputs from its 6×6 input patch, 36 multiply-adds per input channel for 16
/// outputs — 2.25 a value against F(2×2, 3×3)'s 4 and the direct convolution's 9. The point
/// products, grouping, threading and the loops over tiles are `Winograd3x3`'s; what differs is
/// here: the padded rows split into four phases (columns ≡ p mod 4), the 6×6 transforms (`Tile4`),
/// and the store of 4×4 blocks.
///
/// Its transforms' coefficients (4, 5, 2 in Bᵀ; up to 8 in Aᵀ; sixths in G) round more than
/// F(2×2)'s: on the FPN's 64-channel shape the worst difference from the direct convolution is
/// ~5e-6 of the largest output against F(2×2)'s ~4e-7 (`WinogradTile4Tests`), so it runs inference
/// only (`FusedDetector`), never the training graph.
extension Winograd3x3 {
    /// Whether F(4×4) pays on this layer: each image must fill at least two micro-kernel calls
    /// of 16 tiles. On smaller planes (the detector's 16×8 level: 8 tiles of 4×4 against 32 of
    /// 2×2) most lanes of a call would be padding and F(2×2) does less work.
    public static func prefersTile4(_ g: Conv2dGeometry) -> Bool {
        isSupported(g) && Grid(g, tile: 4).tiles >= 2 * lanes
    }

    /// `Bᵀ x` for one column (or row) of a 6×6 patch:
    /// Bᵀ = [4 0 −5 0 1 0; 0 −4 −4 1 1 0; 0 4 −4 −1 1 0; 0 −2 −1 2 1 0; 0 2 −1 −2 1 0; 0 4 0 −5 0 1].
    @inline(__always)
    static func inputTransform4<V: WinogradLanes>(_ x: (V, V, V, V, V, V)) -> (V, V, V, V, V, V) {
        let a = x.4 - x.2 * 4, b = x.3 - x.1 * 4, c = x.4 - x.2, d = (x.3 - x.1) * 2
        return (x.0 * 4 - x.2 * 5 + x.4, a + b, a - b, c + d, c - d, x.1 * 4 - x.3 * 5 + x.5)
    }

    /// `Aᵀ m` for one column (or row) of the 6×6 products: Aᵀ = [1 1 1 1 1 0; 0 1 −1 2 −2 0;
    /// 0 1 1 4 4 0; 0 1 −1 8 −8 1].
    @inline(__always)
    static func outputTransform4<V: WinogradLanes>(_ m: (V, V, V, V, V, V)) -> (V, V, V, V) {
        let a = m.1 + m.2, b = m.1 - m.2, c = m.3 + m.4, d = m.3 - m.4
        return (m.0 + a + c, b + d * 2, a + c * 4, b + d * 8 + m.5)
    }

    /// F(4×4, 3×3).
    enum Tile4: WinogradTiling {
        static var tile: Int { 4 }

        /// One input row into its padded row's four phases (`Grid`): phase p, index m holds input column
        /// 4m + p − 1 (input column x sits at padded column x + 1), m = 0 … tileColumns.
        @inline(__always)
        static func splitRow(_ row: UnsafePointer<Float>, width: Int, _ grid: Grid, into split: UnsafeMutablePointer<Float>) {
            let phase = grid.phaseFloats, lastColumn = grid.tileColumns
            var m = 0
            if width >= 3 {
                split[0] = 0
                split[phase] = row[0]
                split[2 * phase] = row[1]
                split[3 * phase] = row[2]
                m = 1
            }
            while 4 * m + 30 < width {
                let a = load16(row + 4 * m - 1), b = load16(row + 4 * m + 15)
                store8(SIMD8(lowHalf: a.evenHalf.evenHalf, highHalf: b.evenHalf.evenHalf), split + m)
                store8(SIMD8(lowHalf: a.oddHalf.evenHalf, highHalf: b.oddHalf.evenHalf), split + phase + m)
                store8(SIMD8(lowHalf: a.evenHalf.oddHalf, highHalf: b.evenHalf.oddHalf), split + 2 * phase + m)
                store8(SIMD8(lowHalf: a.oddHalf.oddHalf, highHalf: b.oddHalf.oddHalf), split + 3 * phase + m)
                m += 8
            }
            while m <= lastColumn {
                for p in 0..<4 {
                    let x = 4 * m + p - 1
                    split[p * phase + m] = x >= 0 && x < width ? row[x] : 0
                }
                m += 1
            }
        }

        /// `V.count` neighbouring tiles of one channel: d[r][q] is padded row r of the patch at phase
        /// q mod 4, index q ÷ 4; point 6i + j of `Bᵀ d B` goes to `target + (6i + j) · pointStride`.
        /// The column transforms are written to the points' places and read back for the row
        /// transforms: 36 values do not fit in 16 vector registers, and those places are in L1.
        @inline(__always)
        static func transformPatches<V: WinogradLanes>(_: V.Type, _ rows: UnsafePointer<Float>, _ grid: Grid,
                                                        into target: UnsafeMutablePointer<Float>, pointStride: Int) {
            let phase = grid.phaseFloats, rowFloats = grid.rowFloats
            @inline(__always) func point(_ i: Int, _ j: Int) -> UnsafeMutablePointer<Float> { target + (6 * i + j) * pointStride }
            for q in 0..<6 {
                let column = rows + (q & 3) * phase + (q >> 2)
                @inline(__always) func d(_ r: Int) -> V { V(loading: column + r * rowFloats) }
                let t = inputTransform4((d(0), d(1), d(2), d(3), d(4), d(5)))
                t.0.store(to: point(0, q)); t.1.store(to: point(1, q)); t.2.store(to: point(2, q))
                t.3.store(to: point(3, q)); t.4.store(to: point(4, q)); t.5.store(to: point(5, q))
            }
            for i in 0..<6 {
                @inline(__always) func t(_ j: Int) -> V { V(loading: point(i, j)) }
                let u = inputTransform4((t(0), t(1), t(2), t(3), t(4), t(5)))
                u.0.store(to: point(i, 0)); u.1.store(to: point(i, 1)); u.2.store(to: point(i, 2))
                u.3.store(to: point(i, 3)); u.4.store(to: point(i, 4)); u.5.store(to: point(i, 5))
            }
        }

        /// `Aᵀ M A` for `V.count` neighbouring tiles of one output channel (point k at `m + 16k`).
        @inline(__always)
        static func transformProducts<V: WinogradLanes>(_: V.Type, _ m: UnsafeMutablePointer<Float>, n: Int, channel: Int, tileRow: Int,
                                                         tileColumn: Int, store: TileStore) {
            @inline(__always) func point(_ i: Int, _ j: Int) -> UnsafeMutablePointer<Float> { m + (6 * i + j) * lanes }
            // Aᵀ M down each column j, its 4 values written over the column's first 4 points.
            for j in 0..<6 {
                @inline(__always) func p(_ i: Int) -> V { V(loading: point(i, j)) }
                let s = outputTransform4((p(0), p(1), p(2), p(3), p(4), p(5)))
                s.0.store(to: point(0, j)); s.1.store(to: point(1, j)); s.2.store(to: point(2, j)); s.3.store(to: point(3, j))
            }
            // (Aᵀ M) A along each of the 4 rows.
            for r in 0..<4 {
                @inline(__always) func s(_ j: Int) -> V { V(loading: point(r, j)) }
                store.write4(outputTransform4((s(0), s(1), s(2), s(3), s(4), s(5))), n: n, channel: channel, row: 4 * tileRow + r,
                             tileColumn: tileColumn)
            }
        }
    }
}

extension Winograd3x3.TileStore {
    /// One output row's part of `V.count` neighbouring 4×4 blocks: `values.q` holds column 4·tile + q
    /// of each; bias and clamp applied. Rows and columns past the output's edge are dropped.
    @inline(__always)
    func write4<V: WinogradLanes>(_ values: (V, V, V, V), n: Int, channel: Int, row y: Int, tileColumn: Int) {
        guard y < g.outHeight else { return }
        let b = V(repeating: bias[channel]), lower = bounds.lower, upper = bounds.upper
        let v0 = (values.0 + b).clamped(lower, upper), v1 = (values.1 + b).clamped(lower, upper)
        let v2 = (values.2 + b).clamped(lower, upper), v3 = (values.3 + b).clamped(lower, upper)
        let width = g.outWidth, x = 4 * tileColumn
        switch layout {
        case .channelsFirst:
            let row = output + ((n * g.outChannels + channel) * g.outHeight + y) * width + x
            if x + 4 * V.count <= width {
                V.storeInterleaved(v0, v1, v2, v3, to: row)
                return
            }
            for l in 0..<V.count {
                let values = (v0[lane: l], v1[lane: l], v2[lane: l], v3[lane: l])
                if x + 4 * l < width { row[4 * l] = values.0 }
                if x + 4 * l + 1 < width { row[4 * l + 1] = values.1 }
                if x + 4 * l + 2 < width { row[4 * l + 2] = values.2 }
                if x + 4 * l + 3 < width { row[4 * l + 3] = values.3 }
            }
        case let .positionsFirst(rowStride, imageStride):
            let base = output + n * imageStride + (y * width + x) * rowStride + channel
            for l in 0..<V.count {
                let at = base + 4 * l * rowStride
                if x + 4 * l < width { at[0] = v0[lane: l] }
                if x + 4 * l + 1 < width { at[rowStride] = v1[lane: l] }
                if x + 4 * l + 2 < width { at[2 * rowStride] = v2[lane: l] }
                if x + 4 * l + 3 < width { at[3 * rowStride] = v3[lane: l] }
            }
        }
    }
}
