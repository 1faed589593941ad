import Kernels
import Tensor

extension Variable {
    public func softmax(axis: Int = -1) throws -> Variable { try softmaxFamily(axis: axis, logarithm: false) }
    public func logSoftmax(axis: Int = -1) throws -> Variable { try softmaxFamily(axis: axis, logarithm: true) }

    /// Computed over the last axis; another axis is moved last and back (two permutes).
    private func softmaxFamily(axis: Int, logarithm: Bool) throws -> Variable {
        let a = try normalizedAxis(axis, rank: shape.count, op: logarithm ? "logSoftmax" : "softmax")
        if a != shape.count - 1 {
            var permutation = Array(0..<shape.count)
            permutation.swapAt(a, shape.count - 1)
            return try permuted(permutation).softmaxFamily(axis: -1, logarithm: logarithm).permuted(permutation)
        }
        let columns = shape.last ?? 1, rows = value.count / max(columns, 1)
        let kind: OpKind = logarithm ? .logSoftmax : .softmax
        let input = value
        let out = tape.timed(kind) { () -> Tensor in
            var out = Tensor(uninitialized: input.shape)
            out.withUnsafeMutableBufferPointer { Softmax.forward(input.pointer, rows: rows, columns: columns, output: $0.baseAddress!, logarithm: logarithm) }
            return out
        }
        return tape.record(kind, inputs: [self], output: out) { g, _ in
            var grad = Tensor(uninitialized: g.shape)
            grad.withUnsafeMutableBufferPointer {
                Softmax.backward(output: out.pointer, gradOutput: g.pointer, rows: rows, columns: columns, gradInput: $0.baseAddress!, logarithm: logarithm)
            }
            return [grad]
        }
    }
}
