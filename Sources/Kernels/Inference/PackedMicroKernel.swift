import KernelsAVX512

/// The inner product of `PackedConv2d`: a 6 × 16 block of outputs (6 output channels × 16
/// positions) over the whole depth, in twelve SIMD8 accumulators that stay in registers.
///
/// Per k step it loads 16 packed input values (two vectors) and broadcasts 6 packed weights:
/// 12 FMAs for 8 loads, which keeps the two FMA pipes of a Haswell/Zen core busy. The
/// accumulators start at the bias and are clamped before the one store, so a convolution's
/// output is written once and never read back for an epilogue.
///
/// Kept out of line on purpose: inlined into the tile loops, the compiler spilled accumulators
/// and the kernel ran at ~55 % of OpenBLAS's sgemm; as its own function it matched or beat it
/// on the detector's shapes (single thread, 256×256×512: 89.5 vs 85.1 GFLOP/s).
/// Where the CPU has AVX-512 (`VectorISA`), the same block runs as `PackedMicroKernelAVX512`.
enum PackedMicroKernel {
    static let rows = 6
    static let columns = 16

    /// Whether the AVX-512 kernels run, and so whether callers should hand blocks over two at a
    /// time (`runPair`: one 12 × 16 kernel), and two column tiles with them where they can
    /// (`runPairTwoTiles`: 12 × 32); with AVX2 the 6 × 16 kernel already uses every register. Callers read it once per convolution and pass it on: `VectorISA.current` is a
    /// lazily initialised global, so each read is a call (`swift_once`), once per block otherwise.
    static var isWide: Bool { VectorISA.current == .avx512 }

    /// Two consecutive blocks of `PackedFilters` (`filters` is the first; the second follows it,
    /// as do its 6 biases) against one column tile, on the AVX-512 kernel (callers pair blocks only
    /// when `isWide`); the blocks' 6 × 16 results go to `outputA` and `outputB`. The same bits as
    /// two `run` calls.
    @inline(__always)
    static func runPair(
        depth: Int, filters: UnsafePointer<Float>, columns: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        lower: Float, upper: Float, outputA: UnsafeMutablePointer<Float>, ldcA: Int, outputB: UnsafeMutablePointer<Float>, ldcB: Int
    ) {
        PackedMicroKernelAVX512.run12(depth: depth, filtersA: filters, filtersB: filters + depth * rows, columns: columns,
                                      biasA: bias, biasB: bias + rows, lower: lower, upper: upper,
                                      outputA: outputA, ldcA: ldcA, outputB: outputB, ldcB: ldcB)
    }

    /// `runPair` against two column tiles (`columnsA`, then `columnsB`), the second's results
    /// `secondTile` floats after the first's in the same rows: one 12 × 32 kernel. The same bits as
    /// two `runPair` calls.
    @inline(__always)
    static func runPairTwoTiles(
        depth: Int, filters: UnsafePointer<Float>, columnsA: UnsafePointer<Float>, columnsB: UnsafePointer<Float>,
        bias: UnsafePointer<Float>, lower: Float, upper: Float,
        outputA: UnsafeMutablePointer<Float>, outputB: UnsafeMutablePointer<Float>, ldc: Int, secondTile: Int
    ) {
        PackedMicroKernelAVX512.run12x2(depth: depth, filtersA: filters, filtersB: filters + depth * rows,
                                        columnsA: columnsA, columnsB: columnsB, biasA: bias, biasB: bias + rows,
                                        lower: lower, upper: upper, outputA: outputA, ldcA: ldc, outputB: outputB, ldcB: ldc,
                                        secondTile: secondTile)
    }

    /// `filters`: one block of `PackedFilters` ([depth][6]); `columns`: one packed column tile
    /// ([depth][16]); `bias`: 6 values. Writes the 6 × 16 results to `output` (rows `ldc` apart),
    /// on the AVX-512 kernel when `wide` (`isWide`, read once by the caller).
    @inline(never)
    static func run(
        wide: Bool, depth: Int, filters: UnsafePointer<Float>, columns: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        lower: Float, upper: Float, output: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        if wide {
            PackedMicroKernelAVX512.run(depth: depth, filters: filters, columns: columns, bias: bias,
                                        lower: lower, upper: upper, output: output, ldc: ldc)
            return
        }
        var block = Block(bias: bias)
        block.accumulate(depth: depth, filters: filters, filterStride: Self.rows, columns: columns, columnStride: Self.columns)
        block.store(to: output, rowStride: ldc, lower: lower, upper: upper)
    }

    /// The 6 × 16 block's twelve accumulators (two 8-lane vectors a row), and the multiply-adds of
    /// one depth step, shared by `run` and the kernels that start or store a block otherwise
    /// (`WinogradWeightGradient`).
    struct Block {
        typealias V = SIMD8<Float>
        var c00: V, c01: V, c10: V, c11: V, c20: V, c21: V, c30: V, c31: V, c40: V, c41: V, c50: V, c51: V

        @inline(__always)
        init(bias: UnsafePointer<Float>) {
            c00 = V(repeating: bias[0]); c01 = c00
            c10 = V(repeating: bias[1]); c11 = c10
            c20 = V(repeating: bias[2]); c21 = c20
            c30 = V(repeating: bias[3]); c31 = c30
            c40 = V(repeating: bias[4]); c41 = c40
            c50 = V(repeating: bias[5]); c51 = c50
        }

        /// The block's current values, rows `rowStride` apart.
        @inline(__always)
        init(loading block: UnsafePointer<Float>, rowStride: Int) {
            var row = block
            c00 = load8(row); c01 = load8(row + 8); row += rowStride
            c10 = load8(row); c11 = load8(row + 8); row += rowStride
            c20 = load8(row); c21 = load8(row + 8); row += rowStride
            c30 = load8(row); c31 = load8(row + 8); row += rowStride
            c40 = load8(row); c41 = load8(row + 8); row += rowStride
            c50 = load8(row); c51 = load8(row + 8)
        }

        /// Per step k: 16 values of `columns` (two vector loads) times each of 6 of `filters`
        /// (broadcast), one fused multiply-add each; the next step's values are `filterStride` and
        /// `columnStride` floats on.
        @inline(__always)
        mutating func accumulate(depth: Int, filters: UnsafePointer<Float>, filterStride: Int, columns: UnsafePointer<Float>, columnStride: Int) {
            var a = filters, b = columns
            for _ in 0..<depth {
                let b0 = load8(b), b1 = load8(b + 8)
                var w = V(repeating: a[0])
                c00 = c00.addingProduct(w, b0); c01 = c01.addingProduct(w, b1)
                w = V(repeating: a[1])
                c10 = c10.addingProduct(w, b0); c11 = c11.addingProduct(w, b1)
                w = V(repeating: a[2])
                c20 = c20.addingProduct(w, b0); c21 = c21.addingProduct(w, b1)
                w = V(repeating: a[3])
                c30 = c30.addingProduct(w, b0); c31 = c31.addingProduct(w, b1)
                w = V(repeating: a[4])
                c40 = c40.addingProduct(w, b0); c41 = c41.addingProduct(w, b1)
                w = V(repeating: a[5])
                c50 = c50.addingProduct(w, b0); c51 = c51.addingProduct(w, b1)
                a += filterStride
                b += columnStride
            }
        }

        /// Clamped to [lower, upper], rows `rowStride` apart.
        @inline(__always)
        func store(to output: UnsafeMutablePointer<Float>, rowStride: Int, lower: Float = -.infinity, upper: Float = .infinity) {
            let lo = V(repeating: lower), hi = V(repeating: upper)
            var row = output
            store8(clamp8(c00, lo, hi), row); store8(clamp8(c01, lo, hi), row + 8); row += rowStride
            store8(clamp8(c10, lo, hi), row); store8(clamp8(c11, lo, hi), row + 8); row += rowStride
            store8(clamp8(c20, lo, hi), row); store8(clamp8(c21, lo, hi), row + 8); row += rowStride
            store8(clamp8(c30, lo, hi), row); store8(clamp8(c31, lo, hi), row + 8); row += rowStride
            store8(clamp8(c40, lo, hi), row); store8(clamp8(c41, lo, hi), row + 8); row += rowStride
            store8(clamp8(c50, lo, hi), row); store8(clamp8(c51, lo, hi), row + 8)
        }
    }
}
