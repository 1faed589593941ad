import Kernels
import Tensor

/// How a per-element loss is reduced.
public enum LossReduction { case none, sum, mean }

extension Variable {
    /// Binary cross-entropy on logits against constant targets (and optional per-element weights).
    public func binaryCrossEntropyWithLogits(targets: Tensor, weights: Tensor? = nil, reduction: LossReduction = .mean) throws -> Variable {
        guard targets.shape == shape, weights.map({ $0.shape == shape }) ?? true else {
            throw TensorError.shapeMismatch(op: "binaryCrossEntropyWithLogits", shapes: [shape, targets.shape] + (weights.map { [$0.shape] } ?? []),
                                            reason: "logits, targets and weights must have the same shape")
        }
        let logits = value, n = value.count
        let losses = tape.timed(.binaryCrossEntropyWithLogits) { () -> Tensor in
            var out = Tensor(uninitialized: shape)
            out.withUnsafeMutableBufferPointer {
                LossKernels.binaryCrossEntropyWithLogits(logits: logits.pointer, targets: targets.pointer, weights: weights?.pointer, count: n, losses: $0.baseAddress!)
            }
            return out
        }
        let elementwise = tape.record(.binaryCrossEntropyWithLogits, inputs: [self], output: losses) { g, _ in
            var grad = Tensor(uninitialized: logits.shape)
            grad.withUnsafeMutableBufferPointer {
                LossKernels.binaryCrossEntropyWithLogitsBackward(logits: logits.pointer, targets: targets.pointer, weights: weights?.pointer,
                                                                 gradOutput: g.pointer, count: n, gradLogits: $0.baseAddress!)
            }
            return [grad]
        }
        return try elementwise.reduced(reduction)
    }

    /// Smooth-L1 against constant targets; `beta` = 0 gives L1.
    public func smoothL1(targets: Tensor, beta: Float = 1, reduction: LossReduction = .mean) throws -> Variable {
        guard targets.shape == shape else {
            throw TensorError.shapeMismatch(op: "smoothL1", shapes: [shape, targets.shape], reason: "prediction and target shapes differ")
        }
        guard beta >= 0 else { throw TensorError.invalidArgument(op: "smoothL1", reason: "beta must be ≥ 0, got \(beta)") }
        let prediction = value, n = value.count
        let losses = tape.timed(.smoothL1) { () -> Tensor in
            var out = Tensor(uninitialized: shape)
            out.withUnsafeMutableBufferPointer {
                LossKernels.smoothL1(prediction: prediction.pointer, target: targets.pointer, beta: beta, count: n, losses: $0.baseAddress!)
            }
            return out
        }
        let elementwise = tape.record(.smoothL1, inputs: [self], output: losses) { g, _ in
            var grad = Tensor(uninitialized: prediction.shape)
            grad.withUnsafeMutableBufferPointer {
                LossKernels.smoothL1Backward(prediction: prediction.pointer, target: targets.pointer, beta: beta, gradOutput: g.pointer, count: n, gradPrediction: $0.baseAddress!)
            }
            return [grad]
        }
        return try elementwise.reduced(reduction)
    }

    /// Σ x² as a scalar (the benchmark's training loss, as in the PyTorch peer).
    public func sumOfSquares() -> Variable {
        let input = value
        let out = tape.timed(.sumOfSquares) { () -> Tensor in
            var total = 0.0
            let p = input.pointer
            for i in 0..<input.count { total += Double(p[i]) * Double(p[i]) }
            return Tensor.scalar(Float(total))
        }
        return tape.record(.sumOfSquares, inputs: [self], output: out) { g, _ in [input.scaled(by: 2 * g.scalarValue)] }
    }

    func reduced(_ reduction: LossReduction) throws -> Variable {
        switch reduction {
        case .none: return self
        case .sum: return try sum()
        case .mean: return try mean()
        }
    }
}
