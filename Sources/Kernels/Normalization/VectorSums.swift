/// Sums over long float arrays: 8-lane float partial sums flushed into a Double every
/// `block` elements, so rounding error stays that of ~128-term float sums.
enum VectorSums {
    static let block = 1024

    /// Two blocked sums at once: `vector(i)` gives the 8-lane terms at i, `scalar(i)` the
    /// terms of one tail element; each block's float partials are flushed into Doubles.
    @inline(__always)
    static func blockedPairSums(
        count: Int, vector: (Int) -> (SIMD8<Float>, SIMD8<Float>), scalar: (Int) -> (Float, Float)
    ) -> (Double, Double) {
        var first = 0.0, second = 0.0
        var start = 0
        while start < count {
            let end = min(count, start + block)
            var acc = SIMD8<Float>(), acc2 = SIMD8<Float>()
            var i = start
            while i + 8 <= end {
                let (u, v) = vector(i)
                acc += u
                acc2 += v
                i += 8
            }
            var tail: Float = 0, tail2: Float = 0
            while i < end {
                let (u, v) = scalar(i)
                tail += u
                tail2 += v
                i += 1
            }
            first += Double(acc.sum()) + Double(tail)
            second += Double(acc2.sum()) + Double(tail2)
            start = end
        }
        return (first, second)
    }

    static func sum(_ x: UnsafePointer<Float>, count: Int) -> Double {
        var total = 0.0
        var start = 0
        while start < count {
            let end = min(count, start + block)
            var acc = SIMD8<Float>()
            var i = start
            while i + 8 <= end { acc += load8(x + i); i += 8 }
            var tail: Float = 0
            while i < end { tail += x[i]; i += 1 }
            total += Double(acc.sum()) + Double(tail)
            start = end
        }
        return total
    }

    static func dot(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, count: Int) -> Double {
        var total = 0.0
        var start = 0
        while start < count {
            let end = min(count, start + block)
            var acc = SIMD8<Float>()
            var i = start
            while i + 8 <= end { acc += load8(x + i) * load8(y + i); i += 8 }
            var tail: Float = 0
            while i < end { tail += x[i] * y[i]; i += 1 }
            total += Double(acc.sum()) + Double(tail)
            start = end
        }
        return total
    }

    /// `(Σ (x − shift), Σ (x − shift)²)`: shifting by a sample of the data keeps the
    /// one-pass variance free of cancellation when |mean| ≫ std.
    static func shiftedMoments(_ x: UnsafePointer<Float>, count: Int, shift: Float) -> (Double, Double) {
        let s = SIMD8<Float>(repeating: shift)
        return blockedPairSums(count: count) { i in
            let d = load8(x + i) - s
            return (d, d * d)
        } scalar: { i in
            let d = x[i] - shift
            return (d, d * d)
        }
    }

    /// `y = x · scale + shift` over one plane (y may equal x).
    static func affine(
        _ x: UnsafePointer<Float>, count: Int, scale: Float, shift: Float, output y: UnsafeMutablePointer<Float>
    ) {
        let a = SIMD8<Float>(repeating: scale), b = SIMD8<Float>(repeating: shift)
        var i = 0
        while i + 8 <= count { store8(load8(x + i) * a + b, y + i); i += 8 }
        while i < count { y[i] = x[i] * scale + shift; i += 1 }
    }

    /// `y = clamp(x · scale + shift, lower, upper)` over one plane (y may equal x): batch
    /// norm fused with ReLU (upper = ∞) or ReLU6. NaN passes through like PyTorch's clamp.
    static func affineClamped(
        _ x: UnsafePointer<Float>, count: Int, scale: Float, shift: Float, lower: Float, upper: Float,
        output y: UnsafeMutablePointer<Float>
    ) {
        let a = SIMD8<Float>(repeating: scale), b = SIMD8<Float>(repeating: shift)
        let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
        var i = 0
        while i + 8 <= count {
            var v = load8(x + i) * a + b
            v.replace(with: lo, where: v .< lo)
            v.replace(with: hi, where: v .> hi)
            store8(v, y + i)
            i += 8
        }
        while i < count {
            let v = x[i] * scale + shift
            y[i] = v < lower ? lower : (v > upper ? upper : v)
            i += 1
        }
    }

    /// Per-channel affine map of one plane followed by an optional activation, in one pass
    /// for relu / relu6.
    static func affine(
        _ x: UnsafePointer<Float>, count: Int, scale: Float, shift: Float, activation: ActivationKind?,
        output y: UnsafeMutablePointer<Float>
    ) {
        switch activation {
        case nil: affine(x, count: count, scale: scale, shift: shift, output: y)
        case .relu?: affineClamped(x, count: count, scale: scale, shift: shift, lower: 0, upper: .infinity, output: y)
        case .relu6?: affineClamped(x, count: count, scale: scale, shift: shift, lower: 0, upper: 6, output: y)
        case let kind?:
            affine(x, count: count, scale: scale, shift: shift, output: y)
            Activation.forward(kind, input: y, output: y, count: count)
        }
    }

    /// `y = a·g + b·x + c` over one plane (the batch-norm input gradient).
    static func combine(
        _ g: UnsafePointer<Float>, _ x: UnsafePointer<Float>, count: Int, a: Float, b: Float, c: Float,
        output y: UnsafeMutablePointer<Float>
    ) {
        let va = SIMD8<Float>(repeating: a), vb = SIMD8<Float>(repeating: b), vc = SIMD8<Float>(repeating: c)
        var i = 0
        while i + 8 <= count { store8(va * load8(g + i) + vb * load8(x + i) + vc, y + i); i += 8 }
        while i < count { y[i] = a * g[i] + b * x[i] + c; i += 1 }
    }

    // MARK: Gradients through a fused relu / relu6 (mask: lower < activated output < upper)

    @inline(__always)
    static func masked(_ g: SIMD8<Float>, _ y: SIMD8<Float>, _ lo: SIMD8<Float>, _ hi: SIMD8<Float>) -> SIMD8<Float> {
        var r = g
        r.replace(with: SIMD8<Float>(), where: .!((y .> lo) .& (y .< hi)))
        return r
    }

    /// `(Σ g·m, Σ g·m·x)` with m the activation's derivative read from its output `y`.
    static func maskedSumAndDot(
        _ g: UnsafePointer<Float>, _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, count: Int,
        lower: Float, upper: Float
    ) -> (Double, Double) {
        let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
        return blockedPairSums(count: count) { i in
            let m = masked(load8(g + i), load8(y + i), lo, hi)
            return (m, m * load8(x + i))
        } scalar: { i in
            y[i] > lower && y[i] < upper ? (g[i], g[i] * x[i]) : (0, 0)
        }
    }

    /// `out = a·g·m + b·x + c` with m read from the activation output `y`.
    static func combineMasked(
        _ g: UnsafePointer<Float>, _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, count: Int,
        lower: Float, upper: Float, a: Float, b: Float, c: Float, output: UnsafeMutablePointer<Float>
    ) {
        let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
        let va = SIMD8<Float>(repeating: a), vb = SIMD8<Float>(repeating: b), vc = SIMD8<Float>(repeating: c)
        var i = 0
        while i + 8 <= count {
            store8(va * masked(load8(g + i), load8(y + i), lo, hi) + vb * load8(x + i) + vc, output + i)
            i += 8
        }
        while i < count {
            let gm: Float = y[i] > lower && y[i] < upper ? g[i] : 0
            output[i] = a * gm + b * x[i] + c
            i += 1
        }
    }
}

extension VectorSums {
    // MARK: Gradients through a fused relu / relu6, mask from the pre-activation
    // (lower < x · scale + shift < upper, the same product and sum as `affineClamped`)

    @inline(__always)
    static func maskedByPreActivation(
        _ g: SIMD8<Float>, _ x: SIMD8<Float>, _ scale: SIMD8<Float>, _ shift: SIMD8<Float>,
        _ lo: SIMD8<Float>, _ hi: SIMD8<Float>
    ) -> SIMD8<Float> {
        masked(g, x * scale + shift, lo, hi)
    }

    /// `(Σ g·m, Σ g·m·x)` with m the activation's derivative at `x · scale + shift`.
    static func preActivationMaskedSumAndDot(
        _ g: UnsafePointer<Float>, _ x: UnsafePointer<Float>, count: Int, scale: Float, shift: Float,
        lower: Float, upper: Float
    ) -> (Double, Double) {
        let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
        let va = SIMD8<Float>(repeating: scale), vb = SIMD8<Float>(repeating: shift)
        return blockedPairSums(count: count) { i in
            let xv = load8(x + i)
            let m = maskedByPreActivation(load8(g + i), xv, va, vb, lo, hi)
            return (m, m * xv)
        } scalar: { i in
            let v = x[i] * scale + shift
            return v > lower && v < upper ? (g[i], g[i] * x[i]) : (0, 0)
        }
    }

    /// `out = a·g·m + b·x + c` with m the activation's derivative at `x · scale + shift`.
    static func preActivationCombineMasked(
        _ g: UnsafePointer<Float>, _ x: UnsafePointer<Float>, count: Int, scale: Float, shift: Float,
        lower: Float, upper: Float, a: Float, b: Float, c: Float, output: UnsafeMutablePointer<Float>
    ) {
        let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
        let vs = SIMD8<Float>(repeating: scale), vt = SIMD8<Float>(repeating: shift)
        let va = SIMD8<Float>(repeating: a), vb = SIMD8<Float>(repeating: b), vc = SIMD8<Float>(repeating: c)
        var i = 0
        while i + 8 <= count {
            let xv = load8(x + i)
            store8(va * maskedByPreActivation(load8(g + i), xv, vs, vt, lo, hi) + vb * xv + vc, output + i)
            i += 8
        }
        while i < count {
            let v = x[i] * scale + shift
            let gm: Float = v > lower && v < upper ? g[i] : 0
            output[i] = a * gm + b * x[i] + c
            i += 1
        }
    }
}

/// The derivative mask of an activation that can be fused into a batch-norm backward.
struct FusedActivationMask {
    let lower: Float, upper: Float

    init?(_ kind: ActivationKind?) {
        switch kind {
        case nil: return nil
        case .relu?: (lower, upper) = (0, .infinity)
        case .relu6?: (lower, upper) = (0, 6)
        case let other?: preconditionFailure("batch-norm backward fuses only relu and relu6, not \(other)")
        }
    }
}
