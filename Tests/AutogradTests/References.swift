import Foundation

// Independent float64 forward passes the gradient checks differentiate numerically.

/// Direct float64 convolution: the reference every conv path (GEMM, im2col, depthwise) is checked against.
func convolutionReference(_ x: [Double], _ xs: [Int], _ w: [Double], _ ws: [Int], bias: [Double]?,
                          stride: (Int, Int), padding: (Int, Int), groups: Int) -> [Double] {
    let (n, c, h, wd) = (xs[0], xs[1], xs[2], xs[3])
    let (oc, cpg, kh, kw) = (ws[0], ws[1], ws[2], ws[3])
    let oh = (h + 2 * padding.0 - kh) / stride.0 + 1, ow = (wd + 2 * padding.1 - kw) / stride.1 + 1
    let ocpg = oc / groups
    var out = [Double](repeating: 0, count: n * oc * oh * ow)
    for b in 0..<n {
        for o in 0..<oc {
            let g = o / ocpg
            for y in 0..<oh {
                for xo in 0..<ow {
                    var s = bias?[o] ?? 0
                    for ci in 0..<cpg {
                        for ky in 0..<kh {
                            for kx in 0..<kw {
                                let iy = y * stride.0 - padding.0 + ky, ix = xo * stride.1 - padding.1 + kx
                                guard iy >= 0, ix >= 0, iy < h, ix < wd else { continue }
                                s += x[((b * c + g * cpg + ci) * h + iy) * wd + ix] * w[((o * cpg + ci) * kh + ky) * kw + kx]
                            }
                        }
                    }
                    out[((b * oc + o) * oh + y) * ow + xo] = s
                }
            }
        }
    }
    return out
}

/// Train-mode batch norm (biased batch variance), NCHW.
func batchNormReference(_ x: [Double], _ shape: [Int], gamma: [Double], beta: [Double], epsilon: Double = 1e-5) -> [Double] {
    let (n, c, s) = (shape[0], shape[1], shape[2] * shape[3])
    var out = x
    for ch in 0..<c {
        let values = (0..<n).flatMap { b in (0..<s).map { x[(b * c + ch) * s + $0] } }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
        for b in 0..<n {
            for i in 0..<s {
                let k = (b * c + ch) * s + i
                out[k] = (x[k] - mean) / (variance + epsilon).squareRoot() * gamma[ch] + beta[ch]
            }
        }
    }
    return out
}

/// Sum (or mean) over `axes`, keeping them as size 1.
func reduceReference(_ x: [Double], _ shape: [Int], axes: [Int], mean: Bool) -> [Double] {
    var kept = shape
    for a in axes { kept[a] = 1 }
    var out = [Double](repeating: 0, count: kept.reduce(1, *))
    for k in 0..<x.count {
        let idx = unflatten(k, shape)
        let o = zip(idx, kept).map { $1 == 1 ? 0 : $0 }
        out[flatIndex(o, kept)] += x[k]
    }
    let n = Double(axes.map { shape[$0] }.reduce(1, *))
    return mean ? out.map { $0 / n } : out
}

/// Max pooling over k×k windows with −∞ padding, NCHW.
func maxPoolReference(_ input: [Double], _ shape: [Int], kernel: Int, stride: Int, padding: Int) -> [Double] {
    let (planes, h, w) = (shape[0] * shape[1], shape[2], shape[3])
    let oh = (h + 2 * padding - kernel) / stride + 1, ow = (w + 2 * padding - kernel) / stride + 1
    return (0..<(planes * oh * ow)).map { k in
        let (p, oy, ox) = (k / (oh * ow), (k / ow) % oh, k % ow)
        var best = -Double.infinity
        for ky in 0..<kernel {
            for kx in 0..<kernel {
                let y = oy * stride - padding + ky, x = ox * stride - padding + kx
                if y >= 0, x >= 0, y < h, x < w { best = max(best, input[(p * h + y) * w + x]) }
            }
        }
        return best
    }
}

/// Nearest-neighbour 2× upsampling, NCHW.
func upsampleReference(_ x: [Double], _ shape: [Int]) -> [Double] {
    let out = [shape[0], shape[1], 2 * shape[2], 2 * shape[3]]
    return (0..<out.reduce(1, *)).map { k in
        let i = unflatten(k, out)
        return x[flatIndex([i[0], i[1], i[2] / 2, i[3] / 2], shape)]
    }
}

/// Softmax (or log-softmax) along `axis`, max-shifted for stability.
func softmaxReference(_ x: [Double], _ shape: [Int], axis: Int, log useLog: Bool) -> [Double] {
    let size = shape[axis], inner = shape[(axis + 1)...].reduce(1, *), outer = x.count / max(size * inner, 1)
    var out = x
    for o in 0..<outer {
        for i in 0..<inner {
            let indices = (0..<size).map { (o * size + $0) * inner + i }
            let m = indices.map { x[$0] }.max()!
            let z = indices.map { Foundation.exp(x[$0] - m) }.reduce(0, +)
            for k in indices { out[k] = useLog ? x[k] - m - Foundation.log(z) : Foundation.exp(x[k] - m) / z }
        }
    }
    return out
}

/// Index-select along `axis`.
func gatherReference(_ x: [Double], _ shape: [Int], axis: Int, indices: [Int]) -> [Double] {
    let inner = shape[(axis + 1)...].reduce(1, *), outer = shape[..<axis].reduce(1, *)
    var out: [Double] = []
    for o in 0..<outer {
        for j in indices {
            let start = (o * shape[axis] + j) * inner
            out += x[start..<(start + inner)]
        }
    }
    return out
}
