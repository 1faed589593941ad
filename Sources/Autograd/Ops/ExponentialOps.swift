import Kernels
import Tensor

extension Variable {
    /// e^x elementwise; overflows to +∞ above x ≈ 88.72 (float32), as expf does.
    public func exp() -> Variable {
        let input = value, n = value.count
        let out = tape.timed(.exp) { () -> Tensor in
            var out = Tensor(uninitialized: input.shape)
            out.withUnsafeMutableBufferPointer { ExpLog.exp(input.pointer, into: $0.baseAddress!, count: n) }
            return out
        }
        // The derivative is the output itself: keep it, not the input.
        return tape.record(.exp, inputs: [self], output: out) { g, _ in
            var grad = Tensor(uninitialized: out.shape)
            grad.withUnsafeMutableBufferPointer { ExpLog.expBackward(output: out.pointer, gradOutput: g.pointer, gradInput: $0.baseAddress!, count: n) }
            return [grad]
        }
    }

    /// Natural logarithm elementwise. Not guarded: ln 0 = −∞ and a negative (or NaN) input gives
    /// NaN, as logf does, and so does the gradient 1/x; `NonFiniteCheck` names such elements.
    /// For log-probabilities work from logits (`logSoftmax`, the losses' log-sigmoid forms).
    public func log() -> Variable {
        let input = value, n = value.count
        let out = tape.timed(.log) { () -> Tensor in
            var out = Tensor(uninitialized: input.shape)
            out.withUnsafeMutableBufferPointer { ExpLog.log(input.pointer, into: $0.baseAddress!, count: n) }
            return out
        }
        return tape.record(.log, inputs: [self], output: out) { g, _ in
            var grad = Tensor(uninitialized: input.shape)
            grad.withUnsafeMutableBufferPointer { ExpLog.logBackward(input: input.pointer, gradOutput: g.pointer, gradInput: $0.baseAddress!, count: n) }
            return [grad]
        }
    }
}
