/// Sums over dimensions: `outputShape` has the input's rank with 1 where a dimension is summed.
/// Serves both `sum(axes:)` and the backward of broadcasting (summing a gradient back to an
/// operand's shape).
public enum Reduce {
    public static func sum(_ input: UnsafePointer<Float>, shape: [Int], into output: UnsafeMutablePointer<Float>, outputShape: [Int]) {
        let outCount = outputShape.reduce(1, *)
        output.initialize(repeating: 0, count: outCount)
        // Walk the input in order; the output is the broadcast "operand" with stride 0 on summed dims.
        let layout = StridedLayout(outputShape: shape, operandShapes: [outputShape])
        var inOffset = 0
        layout.forEachInnerRun { offsets, n, inner in
            let o = output + offsets[0]
            if inner[0] == 0 {
                o.pointee += Float(Vector.sum(input + inOffset, count: n))
            } else {
                Vector.accumulate(input + inOffset, into: o, count: n)
            }
            inOffset += n
        }
    }
}
