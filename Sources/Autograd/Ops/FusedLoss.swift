import Kernels
import Tensor

extension Variable {
    /// Records an op (a loss, GFL's integral) whose kernel writes its outputs (`outputShape`)
    /// and, in the same pass, their derivatives with respect to self (self's shape) when the tape
    /// will differentiate: the terms (σ, exp, powers) are computed once, not again in backward.
    /// The pullback only scales each output's block of derivatives (`value.count / outputs` of
    /// them) by its upstream gradient, so the tape keeps one tensor the size of self and no
    /// logits or targets.
    func fusedLoss(_ kind: OpKind, outputShape: [Int],
                   _ compute: (_ losses: UnsafeMutablePointer<Float>, _ derivatives: UnsafeMutablePointer<Float>?) -> Void) -> Variable {
        let differentiating = tape.isRecording && requiresGradient
        var derivatives = differentiating ? Tensor(uninitialized: shape) : nil
        let losses = tape.timed(kind) { () -> Tensor in
            var out = Tensor(uninitialized: outputShape)
            out.withUnsafeMutableBufferPointer { o in
                if derivatives == nil {
                    compute(o.baseAddress!, nil)
                } else {
                    derivatives!.withUnsafeMutableBufferPointer { compute(o.baseAddress!, $0.baseAddress!) }
                }
            }
            return out
        }
        guard let local = derivatives else { return tape.constant(losses) }
        let rows = losses.count, columns = rows == 0 ? 0 : local.count / rows
        return tape.record(kind, inputs: [self], output: losses) { g, _ in
            var grad = Tensor(uninitialized: local.shape)
            grad.withUnsafeMutableBufferPointer { LossKernels.scaleRows(local.pointer, by: g.pointer, rows: rows, columns: columns, into: $0.baseAddress!) }
            return [grad]
        }
    }

    /// Throws, naming `op`, the flat index and the value, when an element is outside [lower, upper] or NaN.
    static func checkRange(_ tensor: Tensor, _ lower: Float, _ upper: Float, op: String, what: String) throws {
        guard let i = LossKernels.firstOutside(tensor.pointer, count: tensor.count, lower: lower, upper: upper) else { return }
        throw TensorError.invalidArgument(op: op, reason: "\(what) \(tensor[flat: i]) at flat index \(i) of shape \(tensor.shape) is outside [\(lower), \(upper)]")
    }
}
