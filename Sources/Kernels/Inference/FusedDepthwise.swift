import KernelsAVX512

/// Depthwise convolution with bias and a clamp activation in the same store: the training
/// graph writes the convolution, then reads it again for the batch-norm affine and the
/// activation; here each 8-column vector is finished before it is stored (the training
/// kernels of `Depthwise3x3` with `ClampEpilogue`, or with AVX-512 their 16-wide twins in
/// `DepthwiseAVX512`: the same sums in the same order).
enum FusedDepthwise {
    static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        bounds: ActivationBounds, output: UnsafeMutablePointer<Float>, workers: Int, scratch: UnsafeMutablePointer<Float>?
    ) {
        let channels = g.inChannels, planes = g.batch * channels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let taps = g.kernelHeight * g.kernelWidth
        let paddedCount = FusedConv2d.paddedPlaneCount(g)
        let fast = g.isDepthwise3x3, wide = VectorISA.current == .avx512
        Parallel.forEachChunk(planes, workers: min(workers, planes)) { range, worker in
            // The border and slack are zeroed once per call; loading a plane writes only the interior.
            let padded = fast ? scratch! + worker * paddedCount : nil
            padded?.update(repeating: 0, count: paddedCount)
            for p in range {
                let c = p % channels
                let x = input + p * inPlane, y = output + p * outPlane
                if let padded {
                    let filter = Filter3x3(weight + c * taps)
                    let clamp = ClampEpilogue(bounds)
                    if g.strideHeight == 1 {
                        Depthwise3x3.PaddedPlane.load(x, height: g.inHeight, width: g.inWidth, into: padded)
                        if wide {
                            DepthwiseAVX512.forwardStride1(UnsafePointer(padded), rowStride: g.inWidth + 2, height: g.inHeight, width: g.inWidth,
                                                           taps: weight + c * taps, bias: bias[c], lower: bounds.lower, upper: bounds.upper, output: y)
                        } else {
                            Depthwise3x3.forwardStride1(UnsafePointer(padded), rowStride: g.inWidth + 2, height: g.inHeight, width: g.inWidth,
                                                        filter, bias: bias[c], epilogue: clamp, output: y)
                        }
                    } else {
                        let split = Depthwise3x3.SplitRows(height: g.inHeight, width: g.inWidth)
                        split.load(x, into: padded)
                        if wide {
                            DepthwiseAVX512.forwardStride2(UnsafePointer(padded), rowStride: split.rowStride, half: split.half,
                                                           outHeight: g.outHeight, outWidth: g.outWidth, taps: weight + c * taps, bias: bias[c],
                                                           lower: bounds.lower, upper: bounds.upper, output: y)
                        } else {
                            Depthwise3x3.forwardStride2(split: split, buffer: padded, outHeight: g.outHeight, outWidth: g.outWidth,
                                                        filter, bias: bias[c], epilogue: clamp, output: y)
                        }
                    }
                } else {
                    DepthwiseConv.genericForward(g, plane: x, weight: weight + c * taps, bias: bias[c], output: y)
                    for i in 0..<outPlane { y[i] = clamp1(y[i], bounds) }
                }
            }
        }
    }
}
