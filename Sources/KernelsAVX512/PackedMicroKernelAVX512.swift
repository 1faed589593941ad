/// `PackedMicroKernel`'s 6 × 16 block compiled for AVX-512 (this module alone is built with
/// `-target-cpu skylake-avx512`; `Kernels` calls it only where the CPU reports AVX-512).
///
/// One 16-lane register holds a whole row of the tile, so a k step is one column load and six
/// fused multiply-adds with the weight broadcast from memory (`vfmadd231ps m32{1to16}`) instead
/// of two loads and twelve 8-lane FMAs. On a core with full-width AVX-512 units (Zen 5, Intel
/// server parts) that is twice the work per instruction. Each output still adds its products in
/// k order, one FMA at a time, so the results are bit-identical to the AVX2 kernel's.
public enum PackedMicroKernelAVX512 {
    @inline(never)
    public static func run(
        depth: Int, filters: UnsafePointer<Float>, columns: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        lower: Float, upper: Float, output: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        typealias V = SIMD16<Float>
        var c0 = V(repeating: bias[0]), c1 = V(repeating: bias[1]), c2 = V(repeating: bias[2])
        var c3 = V(repeating: bias[3]), c4 = V(repeating: bias[4]), c5 = V(repeating: bias[5])
        var a = filters, b = columns
        for _ in 0..<depth {
            let row = UnsafeRawPointer(b).loadUnaligned(as: V.self)
            c0 = c0.addingProduct(V(repeating: a[0]), row)
            c1 = c1.addingProduct(V(repeating: a[1]), row)
            c2 = c2.addingProduct(V(repeating: a[2]), row)
            c3 = c3.addingProduct(V(repeating: a[3]), row)
            c4 = c4.addingProduct(V(repeating: a[4]), row)
            c5 = c5.addingProduct(V(repeating: a[5]), row)
            a += 6
            b += 16
        }
        storeBlock(c0, c1, c2, c3, c4, c5, lower: lower, upper: upper, output, ldc)
    }

    /// Two blocks of 6 output channels against one column tile: 12 × 16 outputs in twelve
    /// accumulators. Six accumulators of `run` leave the fused multiply-add units waiting on
    /// their own results (each accumulator's next FMA needs the last one, four cycles, two
    /// pipes); twelve keep them busy, and each column row is loaded once for twelve FMAs.
    /// `filtersB`/`biasB` and `outputB` are the second block's; each output's sum runs in k
    /// order as in `run`, so results are the same bits.
    @inline(never)
    public static func run12(
        depth: Int, filtersA: UnsafePointer<Float>, filtersB: UnsafePointer<Float>, columns: UnsafePointer<Float>,
        biasA: UnsafePointer<Float>, biasB: UnsafePointer<Float>, lower: Float, upper: Float,
        outputA: UnsafeMutablePointer<Float>, ldcA: Int, outputB: UnsafeMutablePointer<Float>, ldcB: Int
    ) {
        typealias V = SIMD16<Float>
        var c0 = V(repeating: biasA[0]), c1 = V(repeating: biasA[1]), c2 = V(repeating: biasA[2])
        var c3 = V(repeating: biasA[3]), c4 = V(repeating: biasA[4]), c5 = V(repeating: biasA[5])
        var d0 = V(repeating: biasB[0]), d1 = V(repeating: biasB[1]), d2 = V(repeating: biasB[2])
        var d3 = V(repeating: biasB[3]), d4 = V(repeating: biasB[4]), d5 = V(repeating: biasB[5])
        var a = filtersA, e = filtersB, b = columns
        for _ in 0..<depth {
            let row = UnsafeRawPointer(b).loadUnaligned(as: V.self)
            c0 = c0.addingProduct(V(repeating: a[0]), row)
            c1 = c1.addingProduct(V(repeating: a[1]), row)
            c2 = c2.addingProduct(V(repeating: a[2]), row)
            c3 = c3.addingProduct(V(repeating: a[3]), row)
            c4 = c4.addingProduct(V(repeating: a[4]), row)
            c5 = c5.addingProduct(V(repeating: a[5]), row)
            d0 = d0.addingProduct(V(repeating: e[0]), row)
            d1 = d1.addingProduct(V(repeating: e[1]), row)
            d2 = d2.addingProduct(V(repeating: e[2]), row)
            d3 = d3.addingProduct(V(repeating: e[3]), row)
            d4 = d4.addingProduct(V(repeating: e[4]), row)
            d5 = d5.addingProduct(V(repeating: e[5]), row)
            a += 6
            e += 6
            b += 16
        }
        storeBlock(c0, c1, c2, c3, c4, c5, lower: lower, upper: upper, outputA, ldcA)
        storeBlock(d0, d1, d2, d3, d4, d5, lower: lower, upper: upper, outputB, ldcB)
    }

    /// `run12` against two column tiles at once (`columnsA`, `columnsB`: [depth][16] each; the
    /// second tile's results go `secondTile` floats after the first's): 12 rows × 32 positions, 24 accumulators. Each weight is broadcast once into a register for two FMAs,
    /// so a k step is 2 column loads and 12 broadcasts for 24 FMAs, where `run12` needs 13 loads for
    /// 12 (Intel cores issue two 512-bit loads a cycle: `run12` waits on loads as much as on its
    /// FMA pipes). The same FMA chain per output: the same bits as two `run12` calls.
    @inline(never)
    public static func run12x2(
        depth: Int, filtersA: UnsafePointer<Float>, filtersB: UnsafePointer<Float>,
        columnsA: UnsafePointer<Float>, columnsB: UnsafePointer<Float>,
        biasA: UnsafePointer<Float>, biasB: UnsafePointer<Float>, lower: Float, upper: Float,
        outputA: UnsafeMutablePointer<Float>, ldcA: Int, outputB: UnsafeMutablePointer<Float>, ldcB: Int, secondTile: Int
    ) {
        typealias V = SIMD16<Float>
        // c: filter rows of A, d: of B; suffix 0: tile A (positions 0–15), 1: tile B (16–31).
        var c00 = V(repeating: biasA[0]), c10 = V(repeating: biasA[1]), c20 = V(repeating: biasA[2])
        var c30 = V(repeating: biasA[3]), c40 = V(repeating: biasA[4]), c50 = V(repeating: biasA[5])
        var d00 = V(repeating: biasB[0]), d10 = V(repeating: biasB[1]), d20 = V(repeating: biasB[2])
        var d30 = V(repeating: biasB[3]), d40 = V(repeating: biasB[4]), d50 = V(repeating: biasB[5])
        var c01 = c00, c11 = c10, c21 = c20, c31 = c30, c41 = c40, c51 = c50
        var d01 = d00, d11 = d10, d21 = d20, d31 = d30, d41 = d40, d51 = d50
        var a = filtersA, e = filtersB, p = columnsA, q = columnsB
        for _ in 0..<depth {
            let x0 = UnsafeRawPointer(p).loadUnaligned(as: V.self), x1 = UnsafeRawPointer(q).loadUnaligned(as: V.self)
            var w = V(repeating: a[0]); c00 = c00.addingProduct(w, x0); c01 = c01.addingProduct(w, x1)
            w = V(repeating: a[1]); c10 = c10.addingProduct(w, x0); c11 = c11.addingProduct(w, x1)
            w = V(repeating: a[2]); c20 = c20.addingProduct(w, x0); c21 = c21.addingProduct(w, x1)
            w = V(repeating: a[3]); c30 = c30.addingProduct(w, x0); c31 = c31.addingProduct(w, x1)
            w = V(repeating: a[4]); c40 = c40.addingProduct(w, x0); c41 = c41.addingProduct(w, x1)
            w = V(repeating: a[5]); c50 = c50.addingProduct(w, x0); c51 = c51.addingProduct(w, x1)
            w = V(repeating: e[0]); d00 = d00.addingProduct(w, x0); d01 = d01.addingProduct(w, x1)
            w = V(repeating: e[1]); d10 = d10.addingProduct(w, x0); d11 = d11.addingProduct(w, x1)
            w = V(repeating: e[2]); d20 = d20.addingProduct(w, x0); d21 = d21.addingProduct(w, x1)
            w = V(repeating: e[3]); d30 = d30.addingProduct(w, x0); d31 = d31.addingProduct(w, x1)
            w = V(repeating: e[4]); d40 = d40.addingProduct(w, x0); d41 = d41.addingProduct(w, x1)
            w = V(repeating: e[5]); d50 = d50.addingProduct(w, x0); d51 = d51.addingProduct(w, x1)
            a += 6
            e += 6
            p += 16
            q += 16
        }
        storeBlock(c00, c10, c20, c30, c40, c50, lower: lower, upper: upper, outputA, ldcA)
        storeBlock(c01, c11, c21, c31, c41, c51, lower: lower, upper: upper, outputA + secondTile, ldcA)
        storeBlock(d00, d10, d20, d30, d40, d50, lower: lower, upper: upper, outputB, ldcB)
        storeBlock(d01, d11, d21, d31, d41, d51, lower: lower, upper: upper, outputB + secondTile, ldcB)
    }

    /// A finished 6 × 16 block: each row clamped as `clamp8` clamps (a NaN passes through), then
    /// stored, rows `ldc` apart. `@_transparent`, not `@inline(__always)`: with the latter the
    /// compiler kept the row store out of line — twelve calls a tile, each vector passed in
    /// pieces and reassembled — which took 6.6 % of a training step's samples.
    @_transparent
    static func storeBlock(
        _ c0: SIMD16<Float>, _ c1: SIMD16<Float>, _ c2: SIMD16<Float>, _ c3: SIMD16<Float>, _ c4: SIMD16<Float>, _ c5: SIMD16<Float>,
        lower: Float, upper: Float, _ output: UnsafeMutablePointer<Float>, _ ldc: Int
    ) {
        let lo = SIMD16<Float>(repeating: lower), hi = SIMD16<Float>(repeating: upper)
        storeRow(c0, lo, hi, output)
        storeRow(c1, lo, hi, output + ldc)
        storeRow(c2, lo, hi, output + 2 * ldc)
        storeRow(c3, lo, hi, output + 3 * ldc)
        storeRow(c4, lo, hi, output + 4 * ldc)
        storeRow(c5, lo, hi, output + 5 * ldc)
    }

    @_transparent
    static func storeRow(_ value: SIMD16<Float>, _ lo: SIMD16<Float>, _ hi: SIMD16<Float>, _ output: UnsafeMutablePointer<Float>) {
        var v = value
        v.replace(with: lo, where: v .< lo)
        v.replace(with: hi, where: v .> hi)
        UnsafeMutableRawPointer(output).storeBytes(of: v, as: SIMD16<Float>.self)
    }
}
