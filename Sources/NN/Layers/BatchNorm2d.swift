import Autograd
import Kernels
import Tensor

/// Batch normalisation over N, H, W.
///
/// Training mode normalises with batch statistics and updates the running averages
/// (PyTorch's rule: running = (1 − momentum)·running + momentum·batch, variance unbiased).
/// Eval mode, or training with γ or β frozen (frozen-backbone transfer), is a fixed
/// per-channel affine from the running statistics, and the statistics stay untouched.
/// Freezing only one of γ, β counts as freezing the normalisation: the statistics are kept,
/// and the other parameter still trains through the affine, as in eval mode.
public final class BatchNorm2d: Module, Layer {
    public let gamma: Parameter
    public let beta: Parameter
    public let runningMean: Buffer
    public let runningVariance: Buffer
    public let epsilon: Float
    public let momentum: Float

    public init(channels: Int, epsilon: Float = 1e-5, momentum: Float = 0.1) throws {
        guard channels > 0, epsilon > 0, (0...1).contains(momentum) else {
            throw TensorError.invalidArgument(op: "BatchNorm2d", reason: "channels \(channels), epsilon \(epsilon), momentum \(momentum): need channels > 0, epsilon > 0, 0 ≤ momentum ≤ 1")
        }
        gamma = Parameter(try Tensor(repeating: 1, shape: [channels]))
        beta = Parameter(try Tensor(zeros: [channels]))
        runningMean = Buffer(try Tensor(zeros: [channels]))
        runningVariance = Buffer(try Tensor(repeating: 1, shape: [channels]))
        self.epsilon = epsilon
        self.momentum = momentum
    }

    public override var ownParameters: [(name: String, parameter: Parameter)] { [("weight", gamma), ("bias", beta)] }
    public override var ownBuffers: [(name: String, buffer: Buffer)] { [("running_mean", runningMean), ("running_var", runningVariance)] }

    /// True when this layer behaves as a fixed affine (eval mode, or γ or β frozen).
    public var usesRunningStatistics: Bool { !isTraining || gamma.isFrozen || beta.isFrozen }

    public func callAsFunction(_ x: Variable) throws -> Variable { try callAsFunction(x, activation: nil) }

    /// Normalises, then applies `activation` (relu or relu6) in the same pass.
    public func callAsFunction(_ x: Variable, activation: ActivationKind?) throws -> Variable {
        try profiled(on: x.tape) { try normalize(x, activation: activation) }
    }

    private func normalize(_ x: Variable, activation: ActivationKind?) throws -> Variable {
        let tape = x.tape
        if usesRunningStatistics {
            let (scale, shift) = affineCoefficients()
            if gamma.isFrozen && beta.isFrozen {
                return try x.channelAffine(scale: tape.constant(scale), shift: tape.constant(shift), activation: activation)
            }
            // A trainable γ or β stays differentiable through the affine (frozen ones enter as constants).
            let invStd = tape.constant(runningVariance.value.mappedInverseStd(epsilon: epsilon))
            let g = try tape.parameter(gamma) * invStd
            let b = try tape.parameter(beta) - g * tape.constant(runningMean.value)
            return try x.channelAffine(scale: g, shift: b, activation: activation)
        }
        let (output, statistics) = try x.batchNorm(gamma: tape.parameter(gamma), beta: tape.parameter(beta), epsilon: epsilon, activation: activation)
        // Train mode updates the running statistics even on a no-gradient tape, as PyTorch's
        // train-mode BN does under torch.no_grad(): the mode, not gradient recording, decides.
        updateRunningStatistics(statistics)
        return output
    }

    /// Training-mode normalisation and `activation` followed by `depthwise`'s convolution, as one
    /// op that never stores the normalised tensor (`Variable.batchNormDepthwise`, the same bits),
    /// and then `following` (a batch norm and its activation) on the convolution's output when it
    /// too normalises with batch statistics; updates the running statistics like `callAsFunction`.
    /// Returns the output and whether `following` was applied; nil when this layer uses running
    /// statistics, `activation` is not relu, relu6 or none, or `depthwise` is not a 3×3 depthwise
    /// convolution with padding 1, stride 1 or 2 and no bias: the caller then runs the layers.
    public func normalizeThenDepthwise(
        _ x: Variable, activation: ActivationKind?, depthwise: Conv2d,
        then following: (norm: BatchNorm2d, activation: ActivationKind?)? = nil
    ) throws -> (output: Variable, followed: Bool)? {
        let channels = gamma.value.count
        guard !usesRunningStatistics, activation?.fusesIntoBatchNorm ?? true,
              depthwise.weight.shape == [channels, 1, 3, 3], depthwise.groups == channels, depthwise.padding == 1,
              depthwise.stride == 1 || depthwise.stride == 2, depthwise.bias == nil,
              x.shape.count == 4, x.shape[1] == channels else { return nil }
        let fusedFollowing = following.flatMap { following -> (norm: BatchNorm2d, activation: ActivationKind?)? in
            let fusable = following.activation?.fusesIntoBatchNorm ?? true
            return fusable && !following.norm.usesRunningStatistics && following.norm.gamma.value.count == channels ? following : nil
        }
        let tape = x.tape
        let label = ([profileLabel, depthwise.profileLabel] + (fusedFollowing.map { [$0.norm.profileLabel] } ?? []))
            .compactMap { $0 }.joined(separator: " → ")
        return try tape.profiled(as: label) {
            let (output, statistics, followingStatistics) = try x.batchNormDepthwise(
                gamma: tape.parameter(gamma), beta: tape.parameter(beta), epsilon: epsilon, activation: activation,
                weight: tape.parameter(depthwise.weight), stride: depthwise.stride,
                then: fusedFollowing.map {
                    FollowingBatchNorm(gamma: tape.parameter($0.norm.gamma), beta: tape.parameter($0.norm.beta),
                                       epsilon: $0.norm.epsilon, activation: $0.activation)
                })
            updateRunningStatistics(statistics)
            if let fusedFollowing, let followingStatistics { fusedFollowing.norm.updateRunningStatistics(followingStatistics) }
            return (output, fusedFollowing != nil)
        }
    }

    /// scale = γ/√(var+ε), shift = β − mean·scale.
    public func affineCoefficients() -> (scale: Tensor, shift: Tensor) {
        let c = gamma.value.count
        var scale = Tensor(uninitialized: [c]), shift = Tensor(uninitialized: [c])
        scale.withUnsafeMutableBufferPointer { s in
            shift.withUnsafeMutableBufferPointer { t in
                for i in 0..<c {
                    s[i] = gamma.value[flat: i] / (runningVariance.value[flat: i] + epsilon).squareRoot()
                    t[i] = beta.value[flat: i] - runningMean.value[flat: i] * s[i]
                }
            }
        }
        return (scale, shift)
    }

    private func updateRunningStatistics(_ statistics: BatchStatistics) {
        let n = Float(statistics.elementsPerChannel)
        let unbiased = n / max(n - 1, 1)
        runningMean.value.withUnsafeMutableBufferPointer { m in
            for i in 0..<m.count { m[i] = (1 - momentum) * m[i] + momentum * statistics.mean[flat: i] }
        }
        runningVariance.value.withUnsafeMutableBufferPointer { v in
            for i in 0..<v.count { v[i] = (1 - momentum) * v[i] + momentum * statistics.variance[flat: i] * unbiased }
        }
    }
}

extension Tensor {
    func mappedInverseStd(epsilon: Float) -> Tensor {
        var out = Tensor(uninitialized: shape)
        out.withUnsafeMutableBufferPointer { o in for i in 0..<count { o[i] = 1 / (self[flat: i] + epsilon).squareRoot() } }
        return out
    }
}
