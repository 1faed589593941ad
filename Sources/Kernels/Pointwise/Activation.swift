import Foundation

public enum ActivationKind: String, CaseIterable, Sendable {
    case relu, relu6, sigmoid, silu

    /// Whether `Activation.backward` reads the forward input (otherwise it reads the output,
    /// so an in-place forward is safe).
    public var backwardNeedsInput: Bool { self == .silu }

    /// Whether batch norm's kernels apply this activation inside their own passes (forward and
    /// backward: `FusedActivationMask`); the others run as a separate op.
    public var fusesIntoBatchNorm: Bool { self == .relu || self == .relu6 }
}

/// Elementwise activations, 8 lanes at a time, split across workers for large arrays.
public enum Activation {
    /// Below this many elements a loop runs on the caller only.
    static let parallelGrain = 1 << 15

    /// `output = f(input)`; output may equal input.
    public static func forward(
        _ kind: ActivationKind, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int
    ) {
        forEachBlock(count) { range in
            let x = input + range.lowerBound, y = output + range.lowerBound, n = range.count
            switch kind {
            case .relu: clamp(x, y, n, lower: 0, upper: .infinity)
            case .relu6: clamp(x, y, n, lower: 0, upper: 6)
            case .sigmoid: for i in 0..<n { y[i] = sigmoid(x[i]) }
            case .silu: for i in 0..<n { y[i] = x[i] * sigmoid(x[i]) }
            }
        }
    }

    /// `gradInput = gradOutput · f′`. relu / relu6 / sigmoid read `output` (relu6's gradient is
    /// zero at exactly 0 and 6, as in PyTorch's hardtanh); silu reads `input`. gradInput may
    /// equal gradOutput.
    public static func backward(
        _ kind: ActivationKind, input: UnsafePointer<Float>?, output: UnsafePointer<Float>?,
        gradOutput: UnsafePointer<Float>, gradInput: UnsafeMutablePointer<Float>, count: Int
    ) {
        if kind.backwardNeedsInput {
            precondition(input != nil, "Activation.backward(\(kind)) needs the forward input")
        } else {
            precondition(output != nil, "Activation.backward(\(kind)) needs the forward output")
        }
        forEachBlock(count) { range in
            let o = range.lowerBound, n = range.count
            let g = gradOutput + o, gx = gradInput + o
            switch kind {
            case .relu: maskInside(output! + o, g, gx, n, lower: 0, upper: .infinity)
            case .relu6: maskInside(output! + o, g, gx, n, lower: 0, upper: 6)
            case .sigmoid:
                let y = output! + o
                for i in 0..<n { gx[i] = g[i] * y[i] * (1 - y[i]) }
            case .silu:
                let x = input! + o
                for i in 0..<n {
                    let s = sigmoid(x[i])
                    gx[i] = g[i] * s * (1 + x[i] * (1 - s))
                }
            }
        }
    }

    @inline(__always)
    static func sigmoid(_ x: Float) -> Float {
        // Two branches keep exp's argument ≤ 0, so it never overflows.
        if x >= 0 { return 1 / (1 + Foundation.exp(-x)) }
        let e = Foundation.exp(x)
        return e / (1 + e)
    }

    static func forEachBlock(_ count: Int, _ body: (Range<Int>) -> Void) {
        if count < parallelGrain {
            if count > 0 { body(0..<count) }
            return
        }
        let blocks = (count + 4095) / 4096
        Parallel.forEachChunk(blocks) { range, _ in
            body((range.lowerBound * 4096)..<min(count, range.upperBound * 4096))
        }
    }

    @inline(__always)
    static func clamp(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int, lower: Float, upper: Float) {
        let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
        var i = 0
        while i + 8 <= n {
            // pointwiseMin/Max would drop NaN; replace keeps NaN flowing like PyTorch.
            var v = load8(x + i)
            v.replace(with: lo, where: v .< lo)
            v.replace(with: hi, where: v .> hi)
            store8(v, y + i)
            i += 8
        }
        while i < n {
            let v = x[i]
            y[i] = v < lower ? lower : (v > upper ? upper : v)
            i += 1
        }
    }

    /// `gx = g` where lower < y < upper, else 0.
    @inline(__always)
    static func maskInside(
        _ y: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ gx: UnsafeMutablePointer<Float>, _ n: Int,
        lower: Float, upper: Float
    ) {
        let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper), zero = SIMD8<Float>()
        var i = 0
        while i + 8 <= n {
            let v = load8(y + i)
            var r = load8(g + i)
            r.replace(with: zero, where: .!((v .> lo) .& (v .< hi)))
            store8(r, gx + i)
            i += 8
        }
        while i < n {
            let v = y[i]
            gx[i] = v > lower && v < upper ? g[i] : 0
            i += 1
        }
    }
}
