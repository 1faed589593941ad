/// `DirectWeightGradient`'s 4 × 4 block compiled for AVX-512: the dot products of 4 output-
/// gradient rows with 4 input rows over a span of positions, one 16-lane accumulator per pair.
///
/// Lane j of a pair's accumulator adds the products at positions ≡ j (mod 16) in position order,
/// and the 16 lanes are reduced by halving (8, 4, 2, 1) — exactly what the AVX2 version does with
/// two 8-lane halves, so the two give the same bits. 16 accumulators and 8 row loads per 16 FMAs.
public enum DirectWeightGradientAVX512 {
    /// `gradOutput`/`input`: the first row of each operand at the span's first position; rows are
    /// `gradOutputRowStride`/`inputRowStride` apart, images `gradOutputImageStride`/`inputImageStride`
    /// apart; `length` positions of each of `images` images. Writes the 16 sums to `sums` (row-major 4 × 4).
    @inline(never)
    public static func block4x4(
        gradOutput: UnsafePointer<Float>, gradOutputRowStride: Int, gradOutputImageStride: Int,
        input: UnsafePointer<Float>, inputRowStride: Int, inputImageStride: Int,
        images: Int, length: Int, sums: UnsafeMutablePointer<Float>
    ) {
        let rowStride = gradOutputRowStride, inputStride = inputRowStride
        var block = Block()
        let full = length / 16 * 16, rest = length - full
        for image in 0..<images {
            let g = gradOutput + image * gradOutputImageStride, x = input + image * inputImageStride
            var q = 0
            while q < full {
                block.add(load(g + q), load(g + rowStride + q), load(g + 2 * rowStride + q), load(g + 3 * rowStride + q),
                          load(x + q), load(x + inputStride + q), load(x + 2 * inputStride + q), load(x + 3 * inputStride + q))
                q += 16
            }
            if rest > 0 {
                block.add(partial(g + q, rest), partial(g + rowStride + q, rest), partial(g + 2 * rowStride + q, rest),
                          partial(g + 3 * rowStride + q, rest), partial(x + q, rest), partial(x + inputStride + q, rest),
                          partial(x + 2 * inputStride + q, rest), partial(x + 3 * inputStride + q, rest))
            }
        }
        block.reduce(into: sums)
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> SIMD16<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self) }

    /// The last `count` (< 16) positions in the low lanes, zeros above (adding 0 · 0 changes no sum).
    @inline(__always)
    static func partial(_ p: UnsafePointer<Float>, _ count: Int) -> SIMD16<Float> {
        var v = SIMD16<Float>()
        for i in 0..<count { v[i] = p[i] }
        return v
    }

    /// The 16 accumulators, a value type so that they stay in registers.
    struct Block {
        typealias V = SIMD16<Float>
        var a00 = V(), a01 = V(), a02 = V(), a03 = V()
        var a10 = V(), a11 = V(), a12 = V(), a13 = V()
        var a20 = V(), a21 = V(), a22 = V(), a23 = V()
        var a30 = V(), a31 = V(), a32 = V(), a33 = V()

        @inline(__always)
        mutating func add(_ g0: V, _ g1: V, _ g2: V, _ g3: V, _ x0: V, _ x1: V, _ x2: V, _ x3: V) {
            a00 = a00.addingProduct(g0, x0); a10 = a10.addingProduct(g1, x0); a20 = a20.addingProduct(g2, x0); a30 = a30.addingProduct(g3, x0)
            a01 = a01.addingProduct(g0, x1); a11 = a11.addingProduct(g1, x1); a21 = a21.addingProduct(g2, x1); a31 = a31.addingProduct(g3, x1)
            a02 = a02.addingProduct(g0, x2); a12 = a12.addingProduct(g1, x2); a22 = a22.addingProduct(g2, x2); a32 = a32.addingProduct(g3, x2)
            a03 = a03.addingProduct(g0, x3); a13 = a13.addingProduct(g1, x3); a23 = a23.addingProduct(g2, x3); a33 = a33.addingProduct(g3, x3)
        }

        @inline(__always)
        func reduce(into sums: UnsafeMutablePointer<Float>) {
            sums[0] = DirectWeightGradientAVX512.reduce(a00); sums[1] = DirectWeightGradientAVX512.reduce(a01)
            sums[2] = DirectWeightGradientAVX512.reduce(a02); sums[3] = DirectWeightGradientAVX512.reduce(a03)
            sums[4] = DirectWeightGradientAVX512.reduce(a10); sums[5] = DirectWeightGradientAVX512.reduce(a11)
            sums[6] = DirectWeightGradientAVX512.reduce(a12); sums[7] = DirectWeightGradientAVX512.reduce(a13)
            sums[8] = DirectWeightGradientAVX512.reduce(a20); sums[9] = DirectWeightGradientAVX512.reduce(a21)
            sums[10] = DirectWeightGradientAVX512.reduce(a22); sums[11] = DirectWeightGradientAVX512.reduce(a23)
            sums[12] = DirectWeightGradientAVX512.reduce(a30); sums[13] = DirectWeightGradientAVX512.reduce(a31)
            sums[14] = DirectWeightGradientAVX512.reduce(a32); sums[15] = DirectWeightGradientAVX512.reduce(a33)
        }
    }

    /// 16 lanes → 1 by halving; `DirectWeightGradient.reduce` is the same tree on two halves.
    @inline(__always)
    static func reduce(_ v: SIMD16<Float>) -> Float {
        let v8 = v.lowHalf + v.highHalf
        let v4 = v8.lowHalf + v8.highHalf
        let v2 = v4.lowHalf + v4.highHalf
        return v2[0] + v2[1]
    }
}
