import Foundation

/// GFL's general distribution over R + 1 bins per box side (Li et al. 2020): rows of `bins`
/// logits, one row per (box, side). Log-sum-exp is max-shifted, so logits of ±80 are finite.
extension LossKernels {
    /// Distribution focal loss: −((y_r − y)·log S_l + (y − y_l)·log S_r), S = softmax(row),
    /// y_l = ⌊y⌋, y_r = y_l + 1. y = R takes y_l = R − 1 (weight 0) and y_r = R (weight 1),
    /// which is exact, where GFL clamps targets to R − 0.01 instead. Targets must be in
    /// [0, bins − 1] (the caller checks). Each row's weight is weights[row / rowsPerWeight].
    /// `derivatives` (same layout as logits) gets w·(S − the two-hot target).
    public static func distributionFocal(logits: UnsafePointer<Float>, targets: UnsafePointer<Float>, weights: UnsafePointer<Float>?,
                                         rowsPerWeight: Int, rows: Int, bins: Int,
                                         losses: UnsafeMutablePointer<Float>, derivatives: UnsafeMutablePointer<Float>?) {
        for r in 0..<rows {
            let x = logits + r * bins, y = targets[r]
            let w = weights?[r / rowsPerWeight] ?? 1
            let left = min(Int(y), bins - 2), right = left + 1
            let leftWeight = Float(right) - y, rightWeight = y - Float(left)
            var maximum = -Float.infinity
            for j in 0..<bins { maximum = max(maximum, x[j]) }
            var total: Float = 0
            for j in 0..<bins {
                let e = expf(x[j] - maximum)
                total += e
                derivatives?[r * bins + j] = e
            }
            let logTotal = logf(total)
            // −log S_j = log Σ + (max − x_j): no large lse − x_j cancellation when S_j ≈ 1.
            let leftLoss = logTotal + (maximum - x[left]), rightLoss = logTotal + (maximum - x[right])
            losses[r] = w * (leftWeight * leftLoss + rightWeight * rightLoss)
            guard let derivatives else { continue }
            let d = derivatives + r * bins, scale = w / total
            for j in 0..<bins { d[j] *= scale }
            d[left] -= w * leftWeight
            d[right] -= w * rightWeight
        }
    }

    /// GFL's integral: E = Σ_j j·S_j per row. `derivatives` gets dE/dx_j = S_j·(j − E).
    public static func distributionExpectation(logits: UnsafePointer<Float>, rows: Int, bins: Int,
                                               expectations: UnsafeMutablePointer<Float>, derivatives: UnsafeMutablePointer<Float>?) {
        for r in 0..<rows {
            let x = logits + r * bins
            var maximum = -Float.infinity
            for j in 0..<bins { maximum = max(maximum, x[j]) }
            var total: Float = 0, moment: Float = 0
            for j in 0..<bins {
                let e = expf(x[j] - maximum)
                total += e
                moment += Float(j) * e
                derivatives?[r * bins + j] = e
            }
            let expectation = moment / total
            expectations[r] = expectation
            guard let derivatives else { continue }
            let d = derivatives + r * bins, inverse = 1 / total
            for j in 0..<bins { d[j] *= inverse * (Float(j) - expectation) }
        }
    }
}
