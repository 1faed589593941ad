import Kernels
import Tensor

extension Variable {
    public func relu() -> Variable { activation(.relu, kind: .relu) }
    public func relu6() -> Variable { activation(.relu6, kind: .relu6) }
    public func sigmoid() -> Variable { activation(.sigmoid, kind: .sigmoid) }
    public func silu() -> Variable { activation(.silu, kind: .silu) }

    private func activation(_ function: ActivationKind, kind: OpKind) -> Variable {
        let input = value, n = value.count
        let out = tape.timed(kind) { () -> Tensor in
            var out = Tensor(uninitialized: input.shape)
            out.withUnsafeMutableBufferPointer { Activation.forward(function, input: input.pointer, output: $0.baseAddress!, count: n) }
            return out
        }
        // Keep only what the backward reads (the output for relu/relu6/sigmoid), so the tape
        // does not hold the pre-activation tensor alive.
        let saved = function.backwardNeedsInput ? input : out
        let readsInput = function.backwardNeedsInput
        return tape.record(kind, inputs: [self], output: out) { g, _ in
            var grad = Tensor(uninitialized: saved.shape)
            grad.withUnsafeMutableBufferPointer {
                Activation.backward(function, input: readsInput ? saved.pointer : nil, output: readsInput ? nil : saved.pointer,
                                    gradOutput: g.pointer, gradInput: $0.baseAddress!, count: n)
            }
            return [grad]
        }
    }
}
