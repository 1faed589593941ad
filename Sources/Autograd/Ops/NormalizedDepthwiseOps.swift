import Kernels
import Tensor

extension Variable {
    /// `batchNorm(gamma:beta:epsilon:activation:)` followed by a depthwise 3×3 convolution
    /// (`weight` [C, 1, 3, 3], pad 1, stride 1 or 2, no bias) as one op that never stores the
    /// normalised tensor (`NormalizedDepthwise`). Same values and gradients, bit for bit, as the
    /// two ops; returns the convolution's output and the batch statistics for the running averages.
    public func batchNormDepthwise(
        gamma: Variable, beta: Variable, epsilon: Float = 1e-5, activation: ActivationKind? = nil,
        weight: Variable, stride: Int
    ) throws -> (output: Variable, statistics: BatchStatistics) {
        let opName = "batchNormDepthwise"
        try Variable.checkFusable(activation, op: opName)
        guard shape.count == 4, gamma.shape == [shape[1]], beta.shape == [shape[1]], weight.shape == [shape[1], 1, 3, 3] else {
            throw TensorError.shapeMismatch(
                op: opName, shapes: [shape, gamma.shape, beta.shape, weight.shape],
                reason: "expected x [N,C,H,W], gamma [C], beta [C] and a depthwise 3×3 weight [C,1,3,3]")
        }
        let (n, c, spatial) = (shape[0], shape[1], shape[2] * shape[3])
        guard n * spatial > 1 else {
            throw TensorError.invalidArgument(op: opName, reason: "training mode needs more than one value per channel, got input \(shape)")
        }
        let geometry: Conv2dGeometry
        do {
            geometry = try Conv2dGeometry(batch: n, inChannels: c, inHeight: shape[2], inWidth: shape[3], outChannels: c,
                                          kernel: 3, stride: stride, padding: 1, groups: c)
        } catch {
            throw TensorError.invalidArgument(op: opName, reason: "\(error) (input \(shape), stride \(stride))")
        }
        guard NormalizedDepthwise.isSupported(geometry) else {
            throw TensorError.invalidArgument(op: opName, reason: "stride \(stride): the fused op takes stride 1 or 2")
        }
        let input = value, g = gamma.value, b = beta.value, filters = weight.value
        var mean = Tensor(uninitialized: [c]), variance = Tensor(uninitialized: [c]), invStd = Tensor(uninitialized: [c])
        let out = tape.timed(.batchNormDepthwise) { () -> Tensor in
            var out = Tensor(uninitialized: [n, c, geometry.outHeight, geometry.outWidth])
            mean.withUnsafeMutableBufferPointer { m in
                variance.withUnsafeMutableBufferPointer { v in
                    invStd.withUnsafeMutableBufferPointer { s in
                        out.withUnsafeMutableBufferPointer { o in
                            NormalizedDepthwise.forward(
                                geometry, input: input.pointer, epsilon: epsilon, gamma: g.pointer, beta: b.pointer,
                                activation: activation, weight: filters.pointer, mean: m.baseAddress!, variance: v.baseAddress!,
                                invStd: s.baseAddress!, output: o.baseAddress!)
                        }
                    }
                }
            }
            return out
        }
        let (meanValue, invStdValue) = (mean, invStd)
        let inputs = [self, gamma, beta, weight]
        let output = try sameTape(self, gamma, beta, weight).record(.batchNormDepthwise, inputs: inputs, output: out) { gradOut, _ in
            // All four are computed together (the filter's gradient reads the normalised planes
            // the input gradient makes anyway); the tape drops the ones nobody needs.
            var gi = Tensor(uninitialized: input.shape), gw = Tensor(uninitialized: filters.shape)
            var gg = Tensor(uninitialized: [c]), gb = Tensor(uninitialized: [c])
            gi.withUnsafeMutableBufferPointer { i in
                gw.withUnsafeMutableBufferPointer { w in
                    gg.withUnsafeMutableBufferPointer { gp in
                        gb.withUnsafeMutableBufferPointer { bp in
                            NormalizedDepthwise.backward(
                                geometry, input: input.pointer, gradOutput: gradOut.pointer, mean: meanValue.pointer,
                                invStd: invStdValue.pointer, gamma: g.pointer, beta: b.pointer, activation: activation,
                                weight: filters.pointer, gradInput: i.baseAddress!, gradWeight: w.baseAddress!,
                                gradGamma: gp.baseAddress!, gradBeta: bp.baseAddress!)
                        }
                    }
                }
            }
            return [gi, gg, gb, gw]
        }
        return (output, BatchStatistics(mean: mean, variance: variance, elementsPerChannel: n * spatial))
    }
}
