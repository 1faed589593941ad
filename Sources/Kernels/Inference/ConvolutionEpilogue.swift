/// The activation an inference convolution applies in its output pass, as clamp bounds:
/// identity is (−∞, ∞), ReLU (0, ∞), ReLU6 (0, 6). Only these fold into a clamp; sigmoid and
/// SiLU are not piecewise-linear and stay separate ops.
public struct ActivationBounds: Equatable, Sendable {
    public let lower: Float
    public let upper: Float

    public static let identity = ActivationBounds(lower: -.infinity, upper: .infinity)

    init(lower: Float, upper: Float) {
        self.lower = lower
        self.upper = upper
    }

    /// nil for an activation that is not a clamp (sigmoid, SiLU).
    public init?(_ kind: ActivationKind?) {
        switch kind {
        case .none: self = .identity
        case .relu: self.init(lower: 0, upper: .infinity)
        case .relu6: self.init(lower: 0, upper: 6)
        case .sigmoid, .silu: return nil
        }
    }
}

/// Bias + activation over a block a GEMM has just written, while it is still in cache: the
/// training graph's separate bias fill, batch-norm affine and activation passes become one.
public enum ConvolutionEpilogue {
    /// `c[i][j] = clamp(c[i][j] + bias[i])` over `rows × columns` (row stride `ldc`): output
    /// channels in rows (NCHW).
    public static func addRowBias(
        _ c: UnsafeMutablePointer<Float>, rows: Int, columns: Int, ldc: Int, bias: UnsafePointer<Float>, bounds: ActivationBounds
    ) {
        let lo = SIMD8<Float>(repeating: bounds.lower), hi = SIMD8<Float>(repeating: bounds.upper)
        for i in 0..<rows {
            let row = c + i * ldc
            let b = SIMD8<Float>(repeating: bias[i])
            var j = 0
            while j + 8 <= columns {
                store8(clamp8(load8(row + j) + b, lo, hi), row + j)
                j += 8
            }
            while j < columns {
                row[j] = clamp1(row[j] + bias[i], bounds)
                j += 1
            }
        }
    }

    /// `c[i][j] = clamp(c[i][j] + bias[j])`: output channels in columns (positions-first
    /// output, the layout the detector's flat head matrix wants).
    public static func addColumnBias(
        _ c: UnsafeMutablePointer<Float>, rows: Int, columns: Int, ldc: Int, bias: UnsafePointer<Float>, bounds: ActivationBounds
    ) {
        let lo = SIMD8<Float>(repeating: bounds.lower), hi = SIMD8<Float>(repeating: bounds.upper)
        for i in 0..<rows {
            let row = c + i * ldc
            var j = 0
            while j + 8 <= columns {
                store8(clamp8(load8(row + j) + load8(bias + j), lo, hi), row + j)
                j += 8
            }
            while j < columns {
                row[j] = clamp1(row[j] + bias[j], bounds)
                j += 1
            }
        }
    }
}

/// Clamp that lets NaN through (as `Activation.forward`): `replace` only where the comparison
/// holds, never via min/max, which would turn NaN into a bound.
@inline(__always)
func clamp8(_ value: SIMD8<Float>, _ lo: SIMD8<Float>, _ hi: SIMD8<Float>) -> SIMD8<Float> {
    var v = value
    v.replace(with: lo, where: v .< lo)
    v.replace(with: hi, where: v .> hi)
    return v
}

@inline(__always)
func clamp1(_ v: Float, _ bounds: ActivationBounds) -> Float {
    v < bounds.lower ? bounds.lower : (v > bounds.upper ? bounds.upper : v)
}

/// The FPN's top-down sum in place: `fine[p, 2y+i, 2x+j] += coarse[p, y, x]` (nearest 2×
/// upsampling and the add in one pass, without the upsampled tensor).
public enum UpsampleAdd {
    public static func addNearest2x(
        coarse: UnsafePointer<Float>, planes: Int, height: Int, width: Int, into fine: UnsafeMutablePointer<Float>, workers: Int
    ) {
        let outWidth = 2 * width
        Parallel.forEachChunk(planes, workers: workers) { range, _ in
            for p in range {
                let plane = coarse + p * height * width, out = fine + p * 4 * height * width
                for y in 0..<height {
                    let src = plane + y * width
                    for half in 0..<2 {
                        let dst = out + (2 * y + half) * outWidth
                        var x = 0
                        while x + 8 <= width {
                            let v = load8(src + x)
                            store16(load16(dst + 2 * x) + interleave(v, v), dst + 2 * x)
                            x += 8
                        }
                        while x < width {
                            dst[2 * x] += src[x]
                            dst[2 * x + 1] += src[x]
                            x += 1
                        }
                    }
                }
            }
        }
    }
}
