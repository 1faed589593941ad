import Kernels
import Tensor

/// Batch statistics of one training-mode batch-norm call, for the running-average update.
public struct BatchStatistics {
    public let mean: Tensor
    /// Biased (divided by N·H·W), as used for normalising; the module converts to unbiased.
    public let variance: Tensor
    public let elementsPerChannel: Int
}

extension Variable {
    /// Training-mode batch normalisation over N, H, W with batch statistics, optionally fused
    /// with a following ReLU/ReLU6 (one pass over the tensor instead of two, one tensor fewer on the tape).
    public func batchNorm(gamma: Variable, beta: Variable, epsilon: Float = 1e-5,
                          activation: ActivationKind? = nil) throws -> (output: Variable, statistics: BatchStatistics) {
        try Variable.checkFusable(activation, op: "batchNorm")
        guard shape.count == 4, gamma.shape == [shape[1]], beta.shape == [shape[1]] else {
            throw TensorError.shapeMismatch(op: "batchNorm", shapes: [shape, gamma.shape, beta.shape], reason: "expected x [N,C,H,W], gamma [C], beta [C]")
        }
        let (n, c, spatial) = (shape[0], shape[1], shape[2] * shape[3])
        guard n * spatial > 1 else {
            throw TensorError.invalidArgument(op: "batchNorm", reason: "training mode needs more than one value per channel, got input \(shape)")
        }
        let input = value, g = gamma.value, b = beta.value
        var mean = Tensor(uninitialized: [c]), variance = Tensor(uninitialized: [c]), invStd = Tensor(uninitialized: [c])
        let out = tape.timed(.batchNorm) { () -> Tensor in
            var out = Tensor(uninitialized: input.shape)
            mean.withUnsafeMutableBufferPointer { m in
                variance.withUnsafeMutableBufferPointer { v in
                    invStd.withUnsafeMutableBufferPointer { s in
                        out.withUnsafeMutableBufferPointer { o in
                            BatchNormKernel.trainingForward(
                                input: input.pointer, batch: n, channels: c, spatial: spatial, epsilon: epsilon, gamma: g.pointer,
                                beta: b.pointer, activation: activation, mean: m.baseAddress!, variance: v.baseAddress!,
                                invStd: s.baseAddress!, output: o.baseAddress!)
                        }
                    }
                }
            }
            return out
        }
        let (meanValue, invStdValue) = (mean, invStd)
        let output = try sameTape(self, gamma, beta).record(.batchNorm, inputs: [self, gamma, beta], output: out) { gradOut, _ in
            var gi = Tensor(uninitialized: input.shape), gg = Tensor(uninitialized: [c]), gb = Tensor(uninitialized: [c])
            gi.withUnsafeMutableBufferPointer { i in
                gg.withUnsafeMutableBufferPointer { gp in
                    gb.withUnsafeMutableBufferPointer { bp in
                        BatchNormKernel.backward(gradOutput: gradOut.pointer, input: input.pointer, batch: n, channels: c, spatial: spatial,
                                                 mean: meanValue.pointer, invStd: invStdValue.pointer, gamma: g.pointer,
                                                 beta: b.pointer, activation: activation,
                                                 gradInput: i.baseAddress!, gradGamma: gp.baseAddress!, gradBeta: bp.baseAddress!)
                    }
                }
            }
            return [gi, gg, gb]
        }
        return (output, BatchStatistics(mean: mean, variance: variance, elementsPerChannel: n * spatial))
    }

    /// y = act(x·scale[c] + shift[c]): batch norm in eval or frozen mode, optionally fused with ReLU/ReLU6.
    public func channelAffine(scale: Variable, shift: Variable, activation: ActivationKind? = nil) throws -> Variable {
        try Variable.checkFusable(activation, op: "channelAffine")
        guard shape.count == 4, scale.shape == [shape[1]], shift.shape == [shape[1]] else {
            throw TensorError.shapeMismatch(op: "channelAffine", shapes: [shape, scale.shape, shift.shape], reason: "expected x [N,C,H,W], scale [C], shift [C]")
        }
        let (n, c, spatial) = (shape[0], shape[1], shape[2] * shape[3])
        let input = value, s = scale.value, t = shift.value
        let out = tape.timed(.channelAffine) { () -> Tensor in
            var out = Tensor(uninitialized: input.shape)
            out.withUnsafeMutableBufferPointer {
                BatchNormKernel.affine(input: input.pointer, batch: n, channels: c, spatial: spatial, scale: s.pointer, shift: t.pointer,
                                       activation: activation, output: $0.baseAddress!)
            }
            return out
        }
        return try sameTape(self, scale, shift).record(.channelAffine, inputs: [self, scale, shift], output: out) { g, needed in
            var gi = Tensor(uninitialized: input.shape), gs = Tensor(uninitialized: [c]), gt = Tensor(uninitialized: [c])
            let wantParams = needed[1] || needed[2]
            gi.withUnsafeMutableBufferPointer { i in
                gs.withUnsafeMutableBufferPointer { sp in
                    gt.withUnsafeMutableBufferPointer { tp in
                        BatchNormKernel.affineBackward(gradOutput: g.pointer, input: input.pointer, batch: n, channels: c, spatial: spatial, scale: s.pointer,
                                                       activation: activation, activationOutput: activation == nil ? nil : out.pointer,
                                                       gradInput: needed[0] ? i.baseAddress! : nil, gradScale: wantParams ? sp.baseAddress! : nil,
                                                       gradShift: wantParams ? tp.baseAddress! : nil)
                    }
                }
            }
            return [needed[0] ? gi : nil, needed[1] ? gs : nil, needed[2] ? gt : nil]
        }
    }

    static func checkFusable(_ activation: ActivationKind?, op: String) throws {
        guard activation?.fusesIntoBatchNorm ?? true else {
            throw TensorError.invalidArgument(op: op, reason: "only relu and relu6 can be fused, got \(activation!)")
        }
    }
}
