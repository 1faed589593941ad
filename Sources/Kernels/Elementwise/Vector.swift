/// Flat vector helpers used by autograd for gradient accumulation and scaling.
public enum Vector {
    /// y += x
    @inline(__always)
    public static func accumulate(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count n: Int) {
        var i = 0
        let rx = UnsafeRawPointer(x), ry = UnsafeMutableRawPointer(y)
        while i + 8 <= n {
            let v = rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) + ry.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            ry.storeBytes(of: v, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < n { y[i] += x[i]; i += 1 }
    }

    /// Below this many floats an elementwise sum stays on the calling thread: waking a worker
    /// costs more than it saves.
    static let parallelCount = 1 << 16

    /// y += x, split across workers when large: the tape's gradient sums (a backbone feature
    /// read by both its FPN lateral and the next stage, the head's matrix read by two loss
    /// branches) are tens of MB a step, which one thread adds at the speed of memory. Elementwise,
    /// so any split gives the same values.
    public static func accumulateInParallel(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count n: Int) {
        guard n >= parallelCount else { return accumulate(x, into: y, count: n) }
        let vectors = n / 8
        Parallel.forEachChunk(vectors) { range, _ in
            let start = range.lowerBound * 8, end = range.upperBound == vectors ? n : range.upperBound * 8
            accumulate(x + start, into: y + start, count: end - start)
        }
    }

    /// y += parts[0] + parts[1] + … (`partCount` runs of `count` floats, back to back), added to y
    /// in that order and split across workers by elements when large: a kernel's per-segment (or per-worker)
    /// partials summed after the first wrote straight into y — bit-identical whoever ran them.
    public static func addInOrder(
        _ parts: UnsafePointer<Float>, partCount: Int, count n: Int, to y: UnsafeMutablePointer<Float>
    ) {
        guard partCount > 0 else { return }
        Parallel.forEachChunk(n, workers: n >= parallelCount ? Parallel.workerCount(for: n) : 1) { range, _ in
            for part in 0..<partCount {
                accumulate(parts + part * n + range.lowerBound, into: y + range.lowerBound, count: range.count)
            }
        }
    }

    /// y = a·x (y may alias x)
    public static func scale(_ x: UnsafePointer<Float>, by a: Float, into y: UnsafeMutablePointer<Float>, count n: Int) {
        var i = 0
        let va = SIMD8<Float>(repeating: a)
        let rx = UnsafeRawPointer(x), ry = UnsafeMutableRawPointer(y)
        while i + 8 <= n {
            ry.storeBytes(of: rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) * va, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < n { y[i] = x[i] * a; i += 1 }
    }

    /// Sum in Double so long reductions (a loss over a batch) do not lose small terms.
    public static func sum(_ x: UnsafePointer<Float>, count n: Int) -> Double {
        var total = 0.0
        var i = 0
        let rx = UnsafeRawPointer(x)
        while i + 8 <= n {
            let v = rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            total += Double(v.sum())
            i += 8
        }
        while i < n { total += Double(x[i]); i += 1 }
        return total
    }

    /// First index holding NaN or ±Inf, or nil.
    public static func firstNonFinite(_ x: UnsafePointer<Float>, count n: Int) -> Int? {
        for i in 0..<n where !x[i].isFinite { return i }
        return nil
    }
}
