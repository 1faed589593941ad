/// SIMD kernels for depthwise 3×3 convolution with padding 1, stride 1 or 2, on one plane.
///
/// Each plane is first copied into a zero-bordered buffer so the inner loops need no bounds
/// checks; rows are processed 8 output columns at a time. Vector loads may run past the end
/// of a row into the next row or the buffer's zeroed slack: those lanes belong to columns
/// past the row's end and are never stored.
enum Depthwise3x3 {
    /// A plane with a one-pixel zero border and zeroed slack after it.
    struct PaddedPlane {
        static let slack = 48
        let height: Int, width: Int
        let stride: Int
        let buffer: UnsafeMutablePointer<Float>
        let count: Int

        init(height: Int, width: Int) {
            self.height = height
            self.width = width
            stride = width + 2
            count = (height + 2) * stride + Self.slack
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: 0, count: count)
        }

        func free() { buffer.deallocate() }

        /// Top-left of the border (padded row 0, padded column 0).
        var origin: UnsafeMutablePointer<Float> { buffer }

        func load(_ plane: UnsafePointer<Float>) { Self.load(plane, height: height, width: width, into: buffer) }

        /// `load` with each row normalised on its way in (`VectorSums.affine`, row by row: the
        /// same values as mapping the whole plane first), so a batch norm's output plane is never
        /// written out and read back to be copied here.
        func loadNormalized(_ plane: UnsafePointer<Float>, scale: Float, shift: Float, activation: ActivationKind?) {
            for y in 0..<height {
                VectorSums.affine(plane + y * width, count: width, scale: scale, shift: shift, activation: activation,
                                  output: buffer + (y + 1) * stride + 1)
            }
        }

        /// Copies a `height` × `width` plane inside the one-value border of the zeroed buffer at
        /// `origin` (rows `width + 2` apart); the border is left as it is.
        static func load(_ plane: UnsafePointer<Float>, height: Int, width: Int, into origin: UnsafeMutablePointer<Float>) {
            for y in 0..<height {
                (origin + (y + 1) * (width + 2) + 1).update(from: plane + y * width, count: width)
            }
        }
    }

    static func forwardStride1(_ p: PaddedPlane, _ f: Filter3x3, bias: Float, output: UnsafeMutablePointer<Float>) {
        forwardStride1(UnsafePointer(p.origin), rowStride: p.stride, height: p.height, width: p.width, f, bias: bias,
                       epilogue: NoEpilogue(), output: output)
    }

    /// Stride 1 over a zero-bordered plane whose padded row 0 starts at `origin`; `epilogue`
    /// finishes each 8-column vector before it is stored (the fused inference path clamps there).
    @inline(__always)
    static func forwardStride1<E: StoreEpilogue>(
        _ origin: UnsafePointer<Float>, rowStride: Int, height: Int, width: Int, _ f: Filter3x3, bias: Float,
        epilogue: E, output: UnsafeMutablePointer<Float>
    ) {
        let b = SIMD8<Float>(repeating: bias)
        for oy in 0..<height {
            let r0 = origin + oy * rowStride, r1 = r0 + rowStride, r2 = r1 + rowStride
            let dst = output + oy * width
            var x = 0
            while x < width {
                var acc = b + f.w0 * load8(r0 + x) + f.w1 * load8(r0 + x + 1) + f.w2 * load8(r0 + x + 2)
                acc += f.w3 * load8(r1 + x) + f.w4 * load8(r1 + x + 1) + f.w5 * load8(r1 + x + 2)
                acc += f.w6 * load8(r2 + x) + f.w7 * load8(r2 + x + 1) + f.w8 * load8(r2 + x + 2)
                acc = epilogue.finish(acc)
                if x + 8 <= width { store8(acc, dst + x) } else { storePartial8(acc, dst + x, count: width - x) }
                x += 8
            }
        }
    }

    /// A plane for stride 2 with each zero-bordered row stored as its even columns, then its
    /// odd columns: the kernel then reads all nine taps as plain 8-wide loads. Splitting the
    /// lanes of 16-wide loads for every output vector instead (nine shuffles per 8 outputs) ran
    /// the stride-2 layers at half ONNX Runtime's speed, 1.4–2× slower than this; splitting
    /// each input row once, while the plane is copied, costs one shuffle pair per 16 inputs.
    struct SplitRows {
        /// Floats per half row: the even half is read up to index outWidth + 8 (lanes past the
        /// row's end, computed and never stored).
        let half: Int
        let height: Int, width: Int

        init(height: Int, width: Int) {
            self.height = height
            self.width = width
            half = ((width + 1) / 2 + 7) / 8 * 8 + 16
        }

        var rowStride: Int { 2 * half }
        /// Floats of the buffer: the zero rows above and below included.
        var count: Int { (height + 2) * rowStride }

        /// Copies `plane` into `buffer` (zeroed once beforehand: a slot this never writes stays
        /// zero). Padded column j is input column j − 1: even padded columns are the border then
        /// the odd input columns, odd padded columns the even input columns.
        func load(_ plane: UnsafePointer<Float>, into buffer: UnsafeMutablePointer<Float>) {
            for y in 0..<height {
                let even = buffer + (y + 1) * rowStride, odd = even + half, row = plane + y * width
                var k = 0
                while 2 * k + 16 <= width {
                    let v = load16(row + 2 * k)
                    store8(v.evenHalf, odd + k)
                    store8(v.oddHalf, even + k + 1)
                    k += 8
                }
                while 2 * k < width {
                    odd[k] = row[2 * k]
                    if 2 * k + 1 < width { even[k + 1] = row[2 * k + 1] }
                    k += 1
                }
            }
        }
    }

    /// Stride 2 over `SplitRows`: output column x takes padded columns 2x, 2x + 1, 2x + 2 =
    /// even[x], odd[x], even[x + 1]; taps summed in the stride-1 kernel's order.
    @inline(__always)
    static func forwardStride2<E: StoreEpilogue>(
        split rows: SplitRows, buffer: UnsafePointer<Float>, outHeight: Int, outWidth: Int, _ f: Filter3x3, bias: Float,
        epilogue: E, output: UnsafeMutablePointer<Float>
    ) {
        let b = SIMD8<Float>(repeating: bias)
        let rowStride = rows.rowStride, half = rows.half
        for oy in 0..<outHeight {
            let e0 = buffer + 2 * oy * rowStride, e1 = e0 + rowStride, e2 = e1 + rowStride
            let o0 = e0 + half, o1 = e1 + half, o2 = e2 + half
            let dst = output + oy * outWidth
            var x = 0
            while x < outWidth {
                var acc = b + f.w0 * load8(e0 + x) + f.w1 * load8(o0 + x) + f.w2 * load8(e0 + x + 1)
                acc += f.w3 * load8(e1 + x) + f.w4 * load8(o1 + x) + f.w5 * load8(e1 + x + 1)
                acc += f.w6 * load8(e2 + x) + f.w7 * load8(o2 + x) + f.w8 * load8(e2 + x + 1)
                acc = epilogue.finish(acc)
                if x + 8 <= outWidth { store8(acc, dst + x) } else { storePartial8(acc, dst + x, count: outWidth - x) }
                x += 8
            }
        }
    }

    /// Stride-2 input gradient as a gather, one input row at a time. Input row/column i
    /// takes filter tap k from output o where i = 2o − 1 + k: even i only tap 1 (o = i/2),
    /// odd i taps 0 (o = (i+1)/2) and 2 (o = (i−1)/2). Even and odd columns are computed as
    /// two 8-lane vectors and interleaved; no read-modify-write of overlapping vectors.
    /// `rows` holds the output-gradient rows with zero padding: `(outHeight + 1) × rowStride`.
    static func backwardInputStride2(
        gradOutput: UnsafePointer<Float>, outHeight: Int, outWidth: Int, _ f: Filter3x3,
        rows: GradientRows, gradInput: UnsafeMutablePointer<Float>, height: Int, width: Int
    ) {
        rows.load(gradOutput, height: outHeight, width: outWidth)
        let rowStride = rows.stride
        for y in 0..<height {
            let dst = gradInput + y * width
            let m = y >> 1
            let bottom = UnsafePointer(rows.buffer + m * rowStride)
            // Row outHeight of the buffer is zero: the missing output row below the image.
            let top = bottom + rowStride
            var j = 0
            while 2 * j < width {
                let even: SIMD8<Float>, odd: SIMD8<Float>
                let b0 = load8(bottom + j), b1 = load8(bottom + j + 1)
                if y & 1 == 0 {
                    even = f.w4 * b0
                    odd = f.w3 * b1 + f.w5 * b0
                } else {
                    let t0 = load8(top + j), t1 = load8(top + j + 1)
                    even = f.w1 * t0 + f.w7 * b0
                    odd = f.w0 * t1 + f.w2 * t0 + f.w6 * b1 + f.w8 * b0
                }
                let values = interleave(even, odd)
                let remaining = width - 2 * j
                if remaining >= 16 {
                    store16(values, dst + 2 * j)
                } else {
                    for i in 0..<remaining { dst[2 * j + i] = values[i] }
                }
                j += 8
            }
        }
    }

    /// Output-gradient rows copied into a buffer with zeroed columns past the row end and a
    /// zeroed extra row, so the stride-2 gather needs no bounds checks.
    struct GradientRows {
        let stride: Int
        let buffer: UnsafeMutablePointer<Float>

        init(outHeight: Int, outWidth: Int) {
            stride = outWidth + 9
            let count = (outHeight + 1) * stride
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: 0, count: count)
        }

        func load(_ plane: UnsafePointer<Float>, height: Int, width: Int) {
            for y in 0..<height { (buffer + y * stride).update(from: plane + y * width, count: width) }
        }

        func free() { buffer.deallocate() }
    }

    /// Adds `Σ gradOutput · window` for the 9 taps of one plane into `sums`. The nine lane
    /// accumulators live on the stack rather than in a heap array allocated per plane (a
    /// 512-channel 16×8 layer at batch 8 has 4,096 planes of 128 values).
    static func accumulateWeightGradient(
        _ p: PaddedPlane, gradOutput: UnsafePointer<Float>, outHeight: Int, outWidth: Int, stride: Int,
        into sums: inout [Double]
    ) {
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 9) { buffer in
            let s = buffer.baseAddress!
            s.initialize(repeating: SIMD8(), count: 9)
            if stride == 1 {
                weightGradientStride1(p, gradOutput: gradOutput, outHeight: outHeight, outWidth: outWidth, into: s)
            } else {
                weightGradientStride2(p, gradOutput: gradOutput, outHeight: outHeight, outWidth: outWidth, into: s)
            }
            for t in 0..<9 { sums[t] += Double(s[t].sum()) }
        }
    }

    /// One filter column (tap offset `k`) at a time: the loads at x, x+1 and x+2 of one row
    /// in a single loop let LLVM merge them into shuffles and spill the nine accumulators
    /// (1.6× the forward's time); with one offset per loop they stay plain loads. Each lane
    /// still sums in row order, so the result is unchanged.
    static func weightGradientStride1(
        _ p: PaddedPlane, gradOutput: UnsafePointer<Float>, outHeight: Int, outWidth: Int, into s: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        let rowStride = p.stride
        let fullWidth = outWidth & ~7
        for oy in 0..<outHeight {
            let gyRow = gradOutput + oy * outWidth
            let r0 = UnsafePointer(p.origin + oy * rowStride), r1 = r0 + rowStride, r2 = r1 + rowStride
            for k in 0..<3 {
                var top = s[k], middle = s[3 + k], bottom = s[6 + k]
                var x = 0
                while x < fullWidth {
                    let g = load8(gyRow + x)
                    top += g * load8(r0 + x + k); middle += g * load8(r1 + x + k); bottom += g * load8(r2 + x + k)
                    x += 8
                }
                if x < outWidth {
                    let g = loadPartial8(gyRow + x, count: outWidth - x)
                    top += g * load8(r0 + x + k); middle += g * load8(r1 + x + k); bottom += g * load8(r2 + x + k)
                }
                s[k] = top; s[3 + k] = middle; s[6 + k] = bottom
            }
        }
    }

    static func weightGradientStride2(
        _ p: PaddedPlane, gradOutput: UnsafePointer<Float>, outHeight: Int, outWidth: Int, into s: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        let rowStride = p.stride
        var s0 = SIMD8<Float>(), s1 = SIMD8<Float>(), s2 = SIMD8<Float>()
        var s3 = SIMD8<Float>(), s4 = SIMD8<Float>(), s5 = SIMD8<Float>()
        var s6 = SIMD8<Float>(), s7 = SIMD8<Float>(), s8 = SIMD8<Float>()
        for oy in 0..<outHeight {
            let gyRow = gradOutput + oy * outWidth
            let r0 = UnsafePointer(p.origin + 2 * oy * rowStride), r1 = r0 + rowStride, r2 = r1 + rowStride
            var x = 0
            while x < outWidth {
                let g = x + 8 <= outWidth ? load8(gyRow + x) : loadPartial8(gyRow + x, count: outWidth - x)
                let a0 = load16(r0 + 2 * x), c0 = load16(r0 + 2 * x + 2)
                s0 += g * a0.evenHalf; s1 += g * a0.oddHalf; s2 += g * c0.evenHalf
                let a1 = load16(r1 + 2 * x), c1 = load16(r1 + 2 * x + 2)
                s3 += g * a1.evenHalf; s4 += g * a1.oddHalf; s5 += g * c1.evenHalf
                let a2 = load16(r2 + 2 * x), c2 = load16(r2 + 2 * x + 2)
                s6 += g * a2.evenHalf; s7 += g * a2.oddHalf; s8 += g * c2.evenHalf
                x += 8
            }
        }
        (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]) = (s0, s1, s2, s3, s4, s5, s6, s7, s8)
    }
}

/// The 9 taps of one 3×3 filter as broadcast vectors; `rotated` turns it by 180°, which
/// is the filter of the stride-1 input gradient.
struct Filter3x3 {
    let w0, w1, w2, w3, w4, w5, w6, w7, w8: SIMD8<Float>

    init(_ w: UnsafePointer<Float>, rotated: Bool = false) {
        func tap(_ i: Int) -> SIMD8<Float> { SIMD8(repeating: w[rotated ? 8 - i : i]) }
        w0 = tap(0); w1 = tap(1); w2 = tap(2)
        w3 = tap(3); w4 = tap(4); w5 = tap(5)
        w6 = tap(6); w7 = tap(7); w8 = tap(8)
    }

    /// Every tap `value` (zero: a placeholder until a channel's filter is known).
    init(repeating value: Float) {
        let v = SIMD8<Float>(repeating: value)
        (w0, w1, w2, w3, w4, w5, w6, w7, w8) = (v, v, v, v, v, v, v, v, v)
    }

    static let zero = Filter3x3(repeating: 0)
}

@inline(__always)
func interleave(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD16<Float> {
    SIMD16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
}

/// What a kernel does to each finished vector before storing it: nothing (training, where
/// batch norm and the activation are ops of their own) or the fused activation (inference).
/// A generic parameter rather than a closure, so each kernel is specialized and the epilogue
/// inlined into its loop.
protocol StoreEpilogue {
    func finish(_ value: SIMD8<Float>) -> SIMD8<Float>
}

struct NoEpilogue: StoreEpilogue {
    @inline(__always) func finish(_ value: SIMD8<Float>) -> SIMD8<Float> { value }
}

/// The activation's clamp (ReLU, ReLU6; NaN passes, as `clamp8`).
struct ClampEpilogue: StoreEpilogue {
    let lower: SIMD8<Float>, upper: SIMD8<Float>
    init(_ bounds: ActivationBounds) {
        lower = SIMD8(repeating: bounds.lower); upper = SIMD8(repeating: bounds.upper)
    }
    @inline(__always) func finish(_ value: SIMD8<Float>) -> SIMD8<Float> { clamp8(value, lower, upper) }
}
