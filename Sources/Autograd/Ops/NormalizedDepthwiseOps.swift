import Kernels
import Tensor

/// A training-mode batch norm to run after the depthwise layer in `batchNormDepthwise(…, then:)`.
public struct FollowingBatchNorm {
    public var gamma: Variable, beta: Variable
    public var epsilon: Float
    public var activation: ActivationKind?

    public init(gamma: Variable, beta: Variable, epsilon: Float = 1e-5, activation: ActivationKind? = nil) {
        (self.gamma, self.beta, self.epsilon, self.activation) = (gamma, beta, epsilon, activation)
    }
}

extension Variable {
    /// `batchNorm(gamma:beta:epsilon:activation:)` followed by a depthwise 3×3 convolution
    /// (`weight` [C, 1, 3, 3], pad 1, stride 1 or 2, no bias) as one op that never stores the
    /// normalised tensor (`NormalizedDepthwise`). Same values and gradients, bit for bit, as the
    /// two ops; returns the convolution's output and the batch statistics for the running averages.
    public func batchNormDepthwise(
        gamma: Variable, beta: Variable, epsilon: Float = 1e-5, activation: ActivationKind? = nil,
        weight: Variable, stride: Int
    ) throws -> (output: Variable, statistics: BatchStatistics) {
        let result = try batchNormDepthwise(gamma: gamma, beta: beta, epsilon: epsilon, activation: activation, weight: weight,
                                            stride: stride, then: nil)
        return (result.output, result.statistics)
    }

    /// The same, then `following` (a training-mode batch norm + relu/relu6) on the convolution's
    /// output in the same op: its backward runs channel by channel inside the depthwise backward,
    /// so the gradient of the depthwise output never goes to memory. Same bits as the three ops;
    /// returns the normalised output and both layers' batch statistics.
    public func batchNormDepthwise(
        gamma: Variable, beta: Variable, epsilon: Float = 1e-5, activation: ActivationKind? = nil,
        weight: Variable, stride: Int, then following: FollowingBatchNorm?
    ) throws -> (output: Variable, statistics: BatchStatistics, followingStatistics: BatchStatistics?) {
        let opName = "batchNormDepthwise"
        try Variable.checkFusable(activation, op: opName)
        try Variable.checkFusable(following?.activation, op: opName)
        guard shape.count == 4, gamma.shape == [shape[1]], beta.shape == [shape[1]], weight.shape == [shape[1], 1, 3, 3] else {
            throw TensorError.shapeMismatch(
                op: opName, shapes: [shape, gamma.shape, beta.shape, weight.shape],
                reason: "expected x [N,C,H,W], gamma [C], beta [C] and a depthwise 3×3 weight [C,1,3,3]")
        }
        if let following, following.gamma.shape != [shape[1]] || following.beta.shape != [shape[1]] {
            throw TensorError.shapeMismatch(
                op: opName, shapes: [shape, following.gamma.shape, following.beta.shape],
                reason: "the following batch norm's gamma and beta need one value per channel")
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
        let outPlane = geometry.outHeight * geometry.outWidth
        if following != nil, n * outPlane <= 1 {
            throw TensorError.invalidArgument(op: opName, reason: "the following batch norm needs more than one value per channel, got output planes of \(outPlane)")
        }
        let outShape = [n, c, geometry.outHeight, geometry.outWidth]
        let input = value, g = gamma.value, b = beta.value, filters = weight.value
        let g2 = following?.gamma.value, b2 = following?.beta.value
        var mean = Tensor(uninitialized: [c]), variance = Tensor(uninitialized: [c]), invStd = Tensor(uninitialized: [c])
        // The following batch norm's statistics and input (the depthwise output), kept for the backward.
        var mean2 = Tensor(uninitialized: [following == nil ? 0 : c]), variance2 = mean2, invStd2 = mean2
        var convolved = Tensor(uninitialized: following == nil ? [0] : outShape)
        let out = tape.timed(.batchNormDepthwise) { () -> Tensor in
            var out = Tensor(uninitialized: outShape)
            let next = following.map { following in
                NormalizedDepthwise.FollowingNormalization(
                    epsilon: following.epsilon, gamma: g2!.pointer, beta: b2!.pointer, activation: following.activation,
                    mean: mean2.uniqueMutablePointer(), variance: variance2.uniqueMutablePointer(),
                    invStd: invStd2.uniqueMutablePointer(), convolved: convolved.uniqueMutablePointer())
            }
            NormalizedDepthwise.forward(
                geometry, input: input.pointer, epsilon: epsilon, gamma: g.pointer, beta: b.pointer, activation: activation,
                weight: filters.pointer, mean: mean.uniqueMutablePointer(), variance: variance.uniqueMutablePointer(),
                invStd: invStd.uniqueMutablePointer(), output: out.uniqueMutablePointer(), following: next)
            return out
        }
        let (meanValue, invStdValue, saved) = (mean, invStd, (mean: mean2, variance: variance2, invStd: invStd2, convolved: convolved))
        let inputs = [self, gamma, beta, weight] + (following.map { [$0.gamma, $0.beta] } ?? [])
        let output = try sameTape(inputs[0], inputs[1], inputs[2], inputs[3]).record(.batchNormDepthwise, inputs: inputs, output: out) { gradOut, _ in
            // All gradients are computed together (the filter's gradient reads the normalised
            // planes the input gradient makes anyway); the tape drops the ones nobody needs.
            var gi = Tensor(uninitialized: input.shape), gw = Tensor(uninitialized: filters.shape)
            var gg = Tensor(uninitialized: [c]), gb = Tensor(uninitialized: [c])
            var gg2 = Tensor(uninitialized: [following == nil ? 0 : c]), gb2 = gg2
            // The backward only reads the saved statistics and depthwise output.
            func read(_ t: Tensor) -> UnsafeMutablePointer<Float> { UnsafeMutablePointer(mutating: t.pointer) }
            let next = following.map { following in
                NormalizedDepthwise.FollowingNormalization(
                    epsilon: following.epsilon, gamma: g2!.pointer, beta: b2!.pointer, activation: following.activation,
                    mean: read(saved.mean), variance: read(saved.variance), invStd: read(saved.invStd),
                    convolved: read(saved.convolved), gradGamma: gg2.uniqueMutablePointer(), gradBeta: gb2.uniqueMutablePointer())
            }
            NormalizedDepthwise.backward(
                geometry, input: input.pointer, gradOutput: gradOut.pointer, mean: meanValue.pointer, invStd: invStdValue.pointer,
                gamma: g.pointer, beta: b.pointer, activation: activation, weight: filters.pointer,
                gradInput: gi.uniqueMutablePointer(), gradWeight: gw.uniqueMutablePointer(), gradGamma: gg.uniqueMutablePointer(),
                gradBeta: gb.uniqueMutablePointer(), following: next)
            return [gi, gg, gb, gw] + (following == nil ? [] : [gg2, gb2])
        }
        let statistics = BatchStatistics(mean: mean, variance: variance, elementsPerChannel: n * spatial)
        let followingStatistics = following.map { _ in BatchStatistics(mean: mean2, variance: variance2, elementsPerChannel: n * outPlane) }
        return (output, statistics, followingStatistics)
    }
}
