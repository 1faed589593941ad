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
