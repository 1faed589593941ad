import Kernels
import Tensor

// GFL's box regression as a distribution over R + 1 bins per side: logits [M, 4, R + 1].
extension Variable {
    /// Distribution focal loss (GFL's DFL) against continuous distances [M, 4] in [0, R]; a
    /// target of exactly R is exact (all weight on the last bin). Weights are [M, 4] or [M]
    /// (one per box, shared by its sides). Elementwise output [M, 4].
    public func distributionFocalLoss(targets: Tensor, weights: Tensor? = nil, reduction: LossReduction = .mean) throws -> Variable {
        let op = "distributionFocalLoss"
        let bins = try checkedBins(op)
        let (boxes, rows) = (shape[0], shape[0] * 4)
        guard targets.shape == [boxes, 4] else {
            throw TensorError.shapeMismatch(op: op, shapes: [shape, targets.shape], reason: "targets must be [M, 4] for logits [M, 4, R + 1]")
        }
        if let weights, weights.shape != [boxes, 4], weights.shape != [boxes] {
            throw TensorError.shapeMismatch(op: op, shapes: [shape, weights.shape], reason: "weights must be [M, 4] or [M] for logits [M, 4, R + 1]")
        }
        try Variable.checkRange(targets, 0, Float(bins - 1), op: op, what: "target distance")
        let rowsPerWeight = weights?.shape == [boxes] ? 4 : 1
        let logits = value
        return try fusedLoss(.distributionFocalLoss, outputShape: [boxes, 4]) { losses, derivatives in
            LossKernels.distributionFocal(logits: logits.pointer, targets: targets.pointer, weights: weights?.pointer, rowsPerWeight: rowsPerWeight,
                                          rows: rows, bins: bins, losses: losses, derivatives: derivatives)
        }.reduced(reduction)
    }

    /// GFL's integral Σ_i i·softmax(logits)_i: [M, 4, R + 1] → expected distances [M, 4] in [0, R].
    public func distributionExpectation() throws -> Variable {
        let bins = try checkedBins("distributionExpectation")
        let logits = value, rows = shape[0] * 4
        return fusedLoss(.distributionExpectation, outputShape: [shape[0], 4]) { expectations, derivatives in
            LossKernels.distributionExpectation(logits: logits.pointer, rows: rows, bins: bins, expectations: expectations, derivatives: derivatives)
        }
    }

    private func checkedBins(_ op: String) throws -> Int {
        guard shape.count == 3, shape[1] == 4, shape[2] >= 2 else {
            throw TensorError.shapeMismatch(op: op, shapes: [shape], reason: "logits must be [M, 4, R + 1] with R ≥ 1")
        }
        return shape[2]
    }
}
