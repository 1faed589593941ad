import Kernels
import Tensor

// Classification losses of anchor-free detectors, on logits against constant soft targets in
// [0, 1]; each is one fused op (see `fusedLoss`), optionally weighted per element.
extension Variable {
    /// RetinaNet's focal loss α_t·(1 − p_t)^γ·BCE (torchvision's sigmoid_focal_loss); α < 0
    /// turns the α weighting off.
    public func sigmoidFocalLoss(targets: Tensor, alpha: Float = 0.25, gamma: Float = 2, weights: Tensor? = nil,
                                 reduction: LossReduction = .mean) throws -> Variable {
        let op = "sigmoidFocalLoss"
        try checkSigmoidLoss(op, targets: targets, weights: weights)
        guard alpha.isFinite, alpha <= 1, gamma.isFinite, gamma >= 0 else {
            throw TensorError.invalidArgument(op: op, reason: "need alpha ≤ 1 (< 0 for no α weighting) and gamma ≥ 0, got alpha \(alpha), gamma \(gamma)")
        }
        let logits = value, n = value.count
        return try fusedLoss(.sigmoidFocalLoss, outputShape: shape) { losses, derivatives in
            LossKernels.sigmoidFocal(logits: logits.pointer, targets: targets.pointer, weights: weights?.pointer, count: n,
                                     alpha: alpha, gamma: gamma, losses: losses, derivatives: derivatives)
        }.reduced(reduction)
    }

    /// GFL's quality focal loss |y − σ(x)|^β·BCE(x, y) (Li et al. 2020): y is the IoU quality
    /// of the positive class and 0 elsewhere.
    public func qualityFocalLoss(targets: Tensor, beta: Float = 2, weights: Tensor? = nil, reduction: LossReduction = .mean) throws -> Variable {
        let op = "qualityFocalLoss"
        try checkSigmoidLoss(op, targets: targets, weights: weights)
        guard beta.isFinite, beta >= 0 else { throw TensorError.invalidArgument(op: op, reason: "beta must be ≥ 0, got \(beta)") }
        let logits = value, n = value.count
        return try fusedLoss(.qualityFocalLoss, outputShape: shape) { losses, derivatives in
            LossKernels.qualityFocal(logits: logits.pointer, targets: targets.pointer, weights: weights?.pointer, count: n,
                                     beta: beta, losses: losses, derivatives: derivatives)
        }.reduced(reduction)
    }

    /// VarifocalNet's loss w·BCE(x, q) (Zhang et al. 2021), w = q where q > 0, else α·σ(x)^γ.
    ///
    /// With `detachFocalWeight` (the default) w is a constant in the gradient: negatives get
    /// α·σ^γ·σ, a BCE gradient scaled by their weight. mmdetection's and PaddleDetection's
    /// varifocal_loss do not detach it, so autograd there also differentiates α·σ^γ; pass
    /// false to match them.
    public func varifocalLoss(targets: Tensor, alpha: Float = 0.75, gamma: Float = 2, weights: Tensor? = nil,
                              reduction: LossReduction = .mean, detachFocalWeight: Bool = true) throws -> Variable {
        let op = "varifocalLoss"
        try checkSigmoidLoss(op, targets: targets, weights: weights)
        guard alpha.isFinite, alpha >= 0, gamma.isFinite, gamma >= 0 else {
            throw TensorError.invalidArgument(op: op, reason: "need alpha ≥ 0 and gamma ≥ 0, got alpha \(alpha), gamma \(gamma)")
        }
        let logits = value, n = value.count
        return try fusedLoss(.varifocalLoss, outputShape: shape) { losses, derivatives in
            LossKernels.varifocal(logits: logits.pointer, targets: targets.pointer, weights: weights?.pointer, count: n,
                                  alpha: alpha, gamma: gamma, differentiateWeight: !detachFocalWeight, losses: losses, derivatives: derivatives)
        }.reduced(reduction)
    }

    private func checkSigmoidLoss(_ op: String, targets: Tensor, weights: Tensor?) throws {
        guard targets.shape == shape, weights.map({ $0.shape == shape }) ?? true else {
            throw TensorError.shapeMismatch(op: op, shapes: [shape, targets.shape] + (weights.map { [$0.shape] } ?? []),
                                            reason: "logits, targets and weights must have the same shape")
        }
        // A target outside [0, 1] gives a loss without a minimum (it grows without bound in x).
        try Variable.checkRange(targets, 0, 1, op: op, what: "target")
    }
}
