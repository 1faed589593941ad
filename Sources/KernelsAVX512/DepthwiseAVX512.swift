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
}
