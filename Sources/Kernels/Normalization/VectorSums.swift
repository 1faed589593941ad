/// Sums over long float arrays: 8-lane float partial sums flushed into a Double every
/// `block` elements, so rounding error stays that of ~128-term float sums.
enum VectorSums {
    static let block = 1024

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
        var sum = 0.0, squares = 0.0
        let s = SIMD8<Float>(repeating: shift)
        var start = 0
        while start < count {
            let end = min(count, start + block)
            var acc = SIMD8<Float>(), acc2 = SIMD8<Float>()
            var i = start
            while i + 8 <= end {
                let d = load8(x + i) - s
                acc += d
                acc2 += d * d
                i += 8
            }
            var tail: Float = 0, tail2: Float = 0
            while i < end {
                let d = x[i] - shift
                tail += d
                tail2 += d * d
                i += 1
            }
            sum += Double(acc.sum()) + Double(tail)
            squares += Double(acc2.sum()) + Double(tail2)
            start = end
        }
        return (sum, squares)
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
}
