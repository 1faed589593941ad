/// Depthwise convolution with bias and a clamp activation in the same store: the training
/// graph writes the convolution, then reads it again for the batch-norm affine and the
/// activation; here each 8-column vector is finished before it is stored.
enum FusedDepthwise {
    static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        bounds: ActivationBounds, output: UnsafeMutablePointer<Float>, workers: Int, scratch: UnsafeMutablePointer<Float>?
    ) {
        let channels = g.inChannels, planes = g.batch * channels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let taps = g.kernelHeight * g.kernelWidth
        let paddedCount = FusedConv2d.paddedPlaneCount(g)
        let fast = g.isDepthwise3x3
        Parallel.forEachChunk(planes, workers: min(workers, planes)) { range, worker in
            // The border and slack are zeroed once per call; loading a plane writes only the interior.
            let padded = fast ? scratch! + worker * paddedCount : nil
            padded?.update(repeating: 0, count: paddedCount)
            for p in range {
                let c = p % channels
                let x = input + p * inPlane, y = output + p * outPlane
                if let padded {
                    let rowStride = g.inWidth + 2
                    for row in 0..<g.inHeight { (padded + (row + 1) * rowStride + 1).update(from: x + row * g.inWidth, count: g.inWidth) }
                    let filter = Filter3x3(weight + c * taps)
                    if g.strideHeight == 1 {
                        stride1(UnsafePointer(padded), rowStride: rowStride, height: g.inHeight, width: g.inWidth, filter,
                                bias: bias[c], bounds: bounds, output: y)
                    } else {
                        stride2(UnsafePointer(padded), rowStride: rowStride, outHeight: g.outHeight, outWidth: g.outWidth, filter,
                                bias: bias[c], bounds: bounds, output: y)
                    }
                } else {
                    DepthwiseConv.genericForward(g, plane: x, weight: weight + c * taps, bias: bias[c], output: y)
                    for i in 0..<outPlane { y[i] = clamp1(y[i], bounds) }
                }
            }
        }
    }

    /// `Depthwise3x3.forwardStride1` with the clamp before the store (same sums, same order).
    static func stride1(
        _ origin: UnsafePointer<Float>, rowStride: Int, height: Int, width: Int, _ f: Filter3x3, bias: Float,
        bounds: ActivationBounds, output: UnsafeMutablePointer<Float>
    ) {
        let b = SIMD8<Float>(repeating: bias)
        let lo = SIMD8<Float>(repeating: bounds.lower), hi = SIMD8<Float>(repeating: bounds.upper)
        for oy in 0..<height {
            let r0 = origin + oy * rowStride, r1 = r0 + rowStride, r2 = r1 + rowStride
            let dst = output + oy * width
            var x = 0
            while x < width {
                var acc = b + f.w0 * load8(r0 + x) + f.w1 * load8(r0 + x + 1) + f.w2 * load8(r0 + x + 2)
                acc += f.w3 * load8(r1 + x) + f.w4 * load8(r1 + x + 1) + f.w5 * load8(r1 + x + 2)
                acc += f.w6 * load8(r2 + x) + f.w7 * load8(r2 + x + 1) + f.w8 * load8(r2 + x + 2)
                acc = clamp8(acc, lo, hi)
                if x + 8 <= width { store8(acc, dst + x) } else { storePartial8(acc, dst + x, count: width - x) }
                x += 8
            }
        }
    }

    /// `Depthwise3x3.forwardStride2` with the clamp before the store.
    static func stride2(
        _ origin: UnsafePointer<Float>, rowStride: Int, outHeight: Int, outWidth: Int, _ f: Filter3x3, bias: Float,
        bounds: ActivationBounds, output: UnsafeMutablePointer<Float>
    ) {
        let b = SIMD8<Float>(repeating: bias)
        let lo = SIMD8<Float>(repeating: bounds.lower), hi = SIMD8<Float>(repeating: bounds.upper)
        for oy in 0..<outHeight {
            let r0 = origin + 2 * oy * rowStride, r1 = r0 + rowStride, r2 = r1 + rowStride
            let dst = output + oy * outWidth
            var x = 0
            while x < outWidth {
                let a0 = load16(r0 + 2 * x), c0 = load16(r0 + 2 * x + 2)
                let a1 = load16(r1 + 2 * x), c1 = load16(r1 + 2 * x + 2)
                let a2 = load16(r2 + 2 * x), c2 = load16(r2 + 2 * x + 2)
                var acc = b + f.w0 * a0.evenHalf + f.w1 * a0.oddHalf + f.w2 * c0.evenHalf
                acc += f.w3 * a1.evenHalf + f.w4 * a1.oddHalf + f.w5 * c1.evenHalf
                acc += f.w6 * a2.evenHalf + f.w7 * a2.oddHalf + f.w8 * c2.evenHalf
                acc = clamp8(acc, lo, hi)
                if x + 8 <= outWidth { store8(acc, dst + x) } else { storePartial8(acc, dst + x, count: outWidth - x) }
                x += 8
            }
        }
    }
}
