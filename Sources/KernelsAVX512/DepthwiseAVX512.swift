/// `Depthwise3x3.forwardStride1` with the fused clamp, 16 output columns a vector (inference's
/// depthwise layers where the CPU has AVX-512). The same products and additions in the same
/// order, lane by lane, as the 8-wide kernel: the same bits.
public enum DepthwiseAVX512 {
    /// Stride 1 over a zero-bordered plane whose padded row 0 starts at `origin` (rows
    /// `rowStride` apart, at least 16 readable floats after the last padded row); `taps` are the
    /// 9 filter weights; each output is clamped to `lower`…`upper` (NaN passes) before its store.
    @inline(never)
    public static func forwardStride1(
        _ origin: UnsafePointer<Float>, rowStride: Int, height: Int, width: Int, taps: UnsafePointer<Float>, bias: Float,
        lower: Float, upper: Float, output: UnsafeMutablePointer<Float>
    ) {
        typealias V = SIMD16<Float>
        let w0 = V(repeating: taps[0]), w1 = V(repeating: taps[1]), w2 = V(repeating: taps[2])
        let w3 = V(repeating: taps[3]), w4 = V(repeating: taps[4]), w5 = V(repeating: taps[5])
        let w6 = V(repeating: taps[6]), w7 = V(repeating: taps[7]), w8 = V(repeating: taps[8])
        let b = V(repeating: bias), lo = V(repeating: lower), hi = V(repeating: upper)
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        for oy in 0..<height {
            let r0 = origin + oy * rowStride, r1 = r0 + rowStride, r2 = r1 + rowStride
            let dst = output + oy * width
            var x = 0
            while x < width {
                // Grouped as the 8-wide kernel groups them: ((b + p0) + p1) + p2, then + (p3 + p4 + p5), + (p6 + p7 + p8).
                var acc = b + w0 * load(r0 + x) + w1 * load(r0 + x + 1) + w2 * load(r0 + x + 2)
                acc += w3 * load(r1 + x) + w4 * load(r1 + x + 1) + w5 * load(r1 + x + 2)
                acc += w6 * load(r2 + x) + w7 * load(r2 + x + 1) + w8 * load(r2 + x + 2)
                acc.replace(with: lo, where: acc .< lo)
                acc.replace(with: hi, where: acc .> hi)
                if x + 16 <= width {
                    UnsafeMutableRawPointer(dst + x).storeBytes(of: acc, as: V.self)
                } else {
                    for i in 0..<(width - x) { dst[x + i] = acc[i] }
                }
                x += 16
            }
        }
    }

    /// Stride 2 over rows split into even and odd padded columns (`Depthwise3x3.SplitRows`: each
    /// padded row `rowStride` floats, its even columns first, its odd ones `half` floats on): output
    /// column x takes even[x], odd[x], even[x + 1] of three padded rows, summed as the 8-wide
    /// `Depthwise3x3.forwardStride2` sums them, then clamped: the same bits, 16 columns a vector.
    /// Lanes past `outWidth` read the half rows' slack and are not stored.
    @inline(never)
    public static func forwardStride2(
        _ buffer: UnsafePointer<Float>, rowStride: Int, half: Int, outHeight: Int, outWidth: Int, taps: UnsafePointer<Float>,
        bias: Float, lower: Float, upper: Float, output: UnsafeMutablePointer<Float>
    ) {
        typealias V = SIMD16<Float>
        let w0 = V(repeating: taps[0]), w1 = V(repeating: taps[1]), w2 = V(repeating: taps[2])
        let w3 = V(repeating: taps[3]), w4 = V(repeating: taps[4]), w5 = V(repeating: taps[5])
        let w6 = V(repeating: taps[6]), w7 = V(repeating: taps[7]), w8 = V(repeating: taps[8])
        let b = V(repeating: bias), lo = V(repeating: lower), hi = V(repeating: upper)
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        for oy in 0..<outHeight {
            let e0 = buffer + 2 * oy * rowStride, e1 = e0 + rowStride, e2 = e1 + rowStride
            let o0 = e0 + half, o1 = e1 + half, o2 = e2 + half
            let dst = output + oy * outWidth
            var x = 0
            while x < outWidth {
                var acc = b + w0 * load(e0 + x) + w1 * load(o0 + x) + w2 * load(e0 + x + 1)
                acc += w3 * load(e1 + x) + w4 * load(o1 + x) + w5 * load(e1 + x + 1)
                acc += w6 * load(e2 + x) + w7 * load(o2 + x) + w8 * load(e2 + x + 1)
                acc.replace(with: lo, where: acc .< lo)
                acc.replace(with: hi, where: acc .> hi)
                if x + 16 <= outWidth {
                    UnsafeMutableRawPointer(dst + x).storeBytes(of: acc, as: V.self)
                } else {
                    for i in 0..<(outWidth - x) { dst[x + i] = acc[i] }
                }
                x += 16
            }
        }
    }
}
