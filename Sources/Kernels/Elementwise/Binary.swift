/// Elementwise arithmetic with broadcasting, over merged strided runs (see `StridedLayout`).
public enum BinaryOperation { case add, subtract, multiply, divide }

public enum Binary {
    public static func apply(_ op: BinaryOperation, a: UnsafePointer<Float>, shapeA: [Int],
                             b: UnsafePointer<Float>, shapeB: [Int],
                             output: UnsafeMutablePointer<Float>, outputShape: [Int]) {
        let layout = StridedLayout(outputShape: outputShape, operandShapes: [shapeA, shapeB])
        // Output is contiguous and visited in order, so a running output offset suffices.
        var outOffset = 0
        layout.forEachInnerRun { offsets, n, inner in
            run(op, a + offsets[0], inner[0], b + offsets[1], inner[1], output + outOffset, n)
            outOffset += n
        }
    }

    @inline(__always)
    static func run(_ op: BinaryOperation, _ a: UnsafePointer<Float>, _ sa: Int, _ b: UnsafePointer<Float>, _ sb: Int,
                    _ out: UnsafeMutablePointer<Float>, _ n: Int) {
        switch (sa, sb) {
        case (1, 1):
            switch op {
            case .add: vectorLoop(a, b, out, n) { $0 + $1 } scalar: { $0 + $1 }
            case .subtract: vectorLoop(a, b, out, n) { $0 - $1 } scalar: { $0 - $1 }
            case .multiply: vectorLoop(a, b, out, n) { $0 * $1 } scalar: { $0 * $1 }
            case .divide: vectorLoop(a, b, out, n) { $0 / $1 } scalar: { $0 / $1 }
            }
        case (1, 0):
            let s = b.pointee
            switch op {
            case .add: scalarRight(a, s, out, n) { $0 + $1 } scalar: { $0 + $1 }
            case .subtract: scalarRight(a, s, out, n) { $0 - $1 } scalar: { $0 - $1 }
            case .multiply: scalarRight(a, s, out, n) { $0 * $1 } scalar: { $0 * $1 }
            case .divide: scalarRight(a, s, out, n) { $0 / $1 } scalar: { $0 / $1 }
            }
        default:
            for i in 0..<n {
                let x = a[i * sa], y = b[i * sb]
                switch op {
                case .add: out[i] = x + y
                case .subtract: out[i] = x - y
                case .multiply: out[i] = x * y
                case .divide: out[i] = x / y
                }
            }
        }
    }

    @inline(__always)
    static func vectorLoop(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n: Int,
                           _ f: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>, scalar g: (Float, Float) -> Float) {
        var i = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), ro = UnsafeMutableRawPointer(out)
        while i + 8 <= n {
            let v = f(ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self),
                      rb.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self))
            ro.storeBytes(of: v, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < n { out[i] = g(a[i], b[i]); i += 1 }
    }

    @inline(__always)
    static func scalarRight(_ a: UnsafePointer<Float>, _ s: Float, _ out: UnsafeMutablePointer<Float>, _ n: Int,
                            _ f: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>, scalar g: (Float, Float) -> Float) {
        var i = 0
        let vs = SIMD8<Float>(repeating: s)
        let ra = UnsafeRawPointer(a), ro = UnsafeMutableRawPointer(out)
        while i + 8 <= n {
            ro.storeBytes(of: f(ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self), vs), toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < n { out[i] = g(a[i], s); i += 1 }
    }
}
