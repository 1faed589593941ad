/// 2-D max pooling over NCHW planes (square kernel, stride and padding; floor output size).
public enum MaxPool {
    /// Output height or width for an input of `size`; throws for impossible settings.
    public static func outputSize(_ size: Int, kernel: Int, stride: Int, padding: Int) throws -> Int {
        func fail(_ reason: String) -> KernelError { .invalidArgument(op: "maxPool2d", reason: reason) }
        if kernel <= 0 || stride <= 0 { throw fail("kernel \(kernel) and stride \(stride) must be ≥ 1") }
        if padding < 0 || 2 * padding > kernel {
            throw fail("padding \(padding) must be between 0 and half the kernel \(kernel)")
        }
        if size + 2 * padding < kernel {
            throw fail("kernel \(kernel) is larger than the padded input \(size + 2 * padding)")
        }
        return (size + 2 * padding - kernel) / stride + 1
    }

    /// `argmax` receives, per output, the flat index `y·width + x` inside its input plane of
    /// the first maximum in row-major window order (ties keep the first, NaN wins, as in PyTorch).
    public static func forward(
        input: UnsafePointer<Float>, planes: Int, height: Int, width: Int, kernel: Int, stride: Int, padding: Int,
        output: UnsafeMutablePointer<Float>, argmax: UnsafeMutablePointer<Int32>
    ) throws {
        let outHeight = try outputSize(height, kernel: kernel, stride: stride, padding: padding)
        let outWidth = try outputSize(width, kernel: kernel, stride: stride, padding: padding)
        Parallel.forEach(planes) { p in
            let plane = input + p * height * width
            let out = output + p * outHeight * outWidth, arg = argmax + p * outHeight * outWidth
            for oy in 0..<outHeight {
                let y0 = max(0, oy * stride - padding), y1 = min(height, oy * stride - padding + kernel)
                for ox in 0..<outWidth {
                    let x0 = max(0, ox * stride - padding), x1 = min(width, ox * stride - padding + kernel)
                    var best = -Float.infinity, bestIndex = y0 * width + x0
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let v = plane[y * width + x]
                            if v > best || v.isNaN {
                                best = v
                                bestIndex = y * width + x
                                if v.isNaN { break }
                            }
                        }
                        if best.isNaN { break }
                    }
                    out[oy * outWidth + ox] = best
                    arg[oy * outWidth + ox] = Int32(bestIndex)
                }
            }
        }
    }

    /// Routes each output gradient to its argmax input; gradInput is overwritten.
    public static func backward(
        gradOutput: UnsafePointer<Float>, argmax: UnsafePointer<Int32>, planes: Int, inputSpatial: Int,
        outputSpatial: Int, gradInput: UnsafeMutablePointer<Float>
    ) {
        Parallel.forEach(planes) { p in
            let gx = gradInput + p * inputSpatial
            gx.update(repeating: 0, count: inputSpatial)
            let g = gradOutput + p * outputSpatial, arg = argmax + p * outputSpatial
            for i in 0..<outputSpatial { gx[Int(arg[i])] += g[i] }
        }
    }
}
