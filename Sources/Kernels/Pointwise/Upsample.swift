/// Nearest-neighbour 2× upsampling of NCHW planes (the FPN top-down path).
public enum Upsample {
    /// `output[p, 2y+i, 2x+j] = input[p, y, x]`; height/width are the input's.
    public static func nearest2x(
        input: UnsafePointer<Float>, planes: Int, height: Int, width: Int, output: UnsafeMutablePointer<Float>
    ) {
        let outWidth = 2 * width
        Parallel.forEach(planes) { p in
            let plane = input + p * height * width, out = output + p * 4 * height * width
            for y in 0..<height {
                let src = plane + y * width, dst = out + 2 * y * outWidth
                var x = 0
                while x + 8 <= width {
                    let v = load8(src + x)
                    store16(interleave(v, v), dst + 2 * x)
                    x += 8
                }
                while x < width {
                    dst[2 * x] = src[x]
                    dst[2 * x + 1] = src[x]
                    x += 1
                }
                (dst + outWidth).update(from: dst, count: outWidth)
            }
        }
    }

    /// `gradInput[p, y, x] = Σ` of the four output gradients it was copied to.
    public static func nearest2xBackward(
        gradOutput: UnsafePointer<Float>, planes: Int, height: Int, width: Int, gradInput: UnsafeMutablePointer<Float>
    ) {
        let outWidth = 2 * width
        Parallel.forEach(planes) { p in
            let g = gradOutput + p * 4 * height * width, gx = gradInput + p * height * width
            for y in 0..<height {
                let top = g + 2 * y * outWidth, bottom = top + outWidth, dst = gx + y * width
                var x = 0
                while x + 8 <= width {
                    let s = load16(top + 2 * x) + load16(bottom + 2 * x)
                    store8(s.evenHalf + s.oddHalf, dst + x)
                    x += 8
                }
                while x < width {
                    dst[x] = (top[2 * x] + bottom[2 * x]) + (top[2 * x + 1] + bottom[2 * x + 1])
                    x += 1
                }
            }
        }
    }
}
