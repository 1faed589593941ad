/// Unfolds one group of one image into the [C·kh·kw × OH·OW] matrix whose product with
/// the [Cout × C·kh·kw] weight is the convolution (`unfold`), and sums such a matrix back
/// onto the image (`fold`, the adjoint used by the input gradient).
struct Im2col {
    let channels: Int
    let height: Int, width: Int
    let outHeight: Int, outWidth: Int
    let kernelHeight: Int, kernelWidth: Int
    let strideHeight: Int, strideWidth: Int
    let padHeight: Int, padWidth: Int

    init(_ g: Conv2dGeometry) {
        channels = g.inChannelsPerGroup
        height = g.inHeight
        width = g.inWidth
        outHeight = g.outHeight
        outWidth = g.outWidth
        kernelHeight = g.kernelHeight
        kernelWidth = g.kernelWidth
        strideHeight = g.strideHeight
        strideWidth = g.strideWidth
        padHeight = g.padHeight
        padWidth = g.padWidth
    }

    var rows: Int { channels * kernelHeight * kernelWidth }

    /// The unfolded matrix equals the input itself (1×1, stride 1, no padding).
    var isIdentity: Bool {
        kernelHeight == 1 && kernelWidth == 1 && strideHeight == 1 && strideWidth == 1 && padHeight == 0
            && padWidth == 0
    }

    /// Output columns `ox` whose input column `ox·stride − pad + kx` lies inside the image.
    @inline(__always)
    func validColumns(kx: Int) -> Range<Int> {
        let lower = max(0, ceilDivide(padWidth - kx, strideWidth))
        let upper = min(outWidth, floorDivide(width - 1 + padWidth - kx, strideWidth) + 1)
        return lower < upper ? lower..<upper : 0..<0
    }

    func unfold(_ input: UnsafePointer<Float>, into col: UnsafeMutablePointer<Float>) {
        unfold(input, outputRows: 0..<outHeight, into: col)
    }

    /// The columns of output rows `outputRows` only: a [C·kh·kw × outputRows.count·OW] matrix,
    /// so inference can unfold a cache-sized panel and multiply it before unfolding the next.
    func unfold(_ input: UnsafePointer<Float>, outputRows: Range<Int>, into col: UnsafeMutablePointer<Float>) {
        let panelColumns = outputRows.count * outWidth
        var row = col
        for c in 0..<channels {
            let plane = input + c * height * width
            for ky in 0..<kernelHeight {
                for kx in 0..<kernelWidth {
                    let valid = validColumns(kx: kx)
                    for oy in outputRows {
                        let dst = row + (oy - outputRows.lowerBound) * outWidth
                        let iy = oy * strideHeight - padHeight + ky
                        if iy < 0 || iy >= height || valid.isEmpty {
                            dst.update(repeating: 0, count: outWidth)
                            continue
                        }
                        dst.update(repeating: 0, count: valid.lowerBound)
                        (dst + valid.upperBound).update(repeating: 0, count: outWidth - valid.upperBound)
                        let src = plane + iy * width + valid.lowerBound * strideWidth - padWidth + kx
                        if strideWidth == 1 {
                            (dst + valid.lowerBound).update(from: src, count: valid.count)
                        } else if strideWidth == 2 {
                            gatherEven(src, count: valid.count, into: dst + valid.lowerBound)
                        } else {
                            let out = dst + valid.lowerBound
                            for i in 0..<valid.count { out[i] = src[i * strideWidth] }
                        }
                    }
                    row += panelColumns
                }
            }
        }
    }

    /// `out[i] = source[2i]` for `i < count`, eight at a time from the even lanes of 16 loaded values
    /// (the stem's unfold, one value at a time, was a third of its sgemm weight gradient). A vector
    /// step reads up to source[2i + 15], so it runs only while that lies before the last value kept,
    /// source[2(count − 1)] — never past the input.
    @inline(__always)
    private func gatherEven(_ source: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        var i = 0
        while i + 8 < count {
            store8(load16(source + 2 * i).evenHalf, out + i)
            i += 8
        }
        while i < count {
            out[i] = source[2 * i]
            i += 1
        }
    }

    /// Overwrites `image` with the sum of the columns' contributions.
    func fold(_ col: UnsafePointer<Float>, into image: UnsafeMutablePointer<Float>) {
        image.update(repeating: 0, count: channels * height * width)
        var row = col
        for c in 0..<channels {
            let plane = image + c * height * width
            for ky in 0..<kernelHeight {
                for kx in 0..<kernelWidth {
                    let valid = validColumns(kx: kx)
                    if !valid.isEmpty {
                        for oy in 0..<outHeight {
                            let iy = oy * strideHeight - padHeight + ky
                            if iy < 0 || iy >= height { continue }
                            let src = row + oy * outWidth + valid.lowerBound
                            let dst = plane + iy * width + valid.lowerBound * strideWidth - padWidth + kx
                            if strideWidth == 1 {
                                for i in 0..<valid.count { dst[i] += src[i] }
                            } else {
                                for i in 0..<valid.count { dst[i * strideWidth] += src[i] }
                            }
                        }
                    }
                    row += outHeight * outWidth
                }
            }
        }
    }
}

@inline(__always)
func ceilDivide(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? (a + b - 1) / b : -((-a) / b)
}

@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? a / b : -((-a + b - 1) / b)
}
