import Foundation

// Float64 references for the detection losses, written from each paper's formula term by term
// (no fusion, no shared intermediate terms), for the gradient checks to differentiate numerically.

func sigmoidReference(_ x: Double) -> Double { 1 / (1 + Foundation.exp(-x)) }

/// BCE on a logit, −(t·log σ + (1 − t)·log(1 − σ)), via log σ(x) = −log(1 + e^−x).
func logitCrossEntropyReference(_ x: Double, _ t: Double) -> Double {
    t * Foundation.log1p(Foundation.exp(-x)) + (1 - t) * Foundation.log1p(Foundation.exp(x))
}

func focalReference(_ x: Double, _ t: Double, alpha: Double, gamma: Double) -> Double {
    let p = sigmoidReference(x)
    let pt = p * t + (1 - p) * (1 - t)
    let alphaT = alpha < 0 ? 1 : alpha * t + (1 - alpha) * (1 - t)
    return alphaT * Foundation.pow(1 - pt, gamma) * logitCrossEntropyReference(x, t)
}

func qualityFocalReference(_ x: Double, _ y: Double, beta: Double) -> Double {
    Foundation.pow(abs(y - sigmoidReference(x)), beta) * logitCrossEntropyReference(x, y)
}

/// `weightLogit` is the logit the focal weight is computed from: the unperturbed one for a
/// detached weight, `x` itself for a differentiated one.
func varifocalReference(_ x: Double, _ q: Double, alpha: Double, gamma: Double, weightLogit: Double) -> Double {
    let weight = q > 0 ? q : alpha * Foundation.pow(sigmoidReference(weightLogit), gamma)
    return weight * logitCrossEntropyReference(x, q)
}

/// GFL's DFL for one row of R + 1 logits, as mmdetection writes it (y_l = ⌊y⌋, y_r = y_l + 1;
/// at y = R the right bin is past the end and has weight 0).
func distributionFocalReference(_ row: [Double], _ y: Double) -> Double {
    let m = row.max()!
    let logTotal = m + Foundation.log(row.map { Foundation.exp($0 - m) }.reduce(0, +))
    let left = Int(y.rounded(.down)), right = left + 1
    let leftWeight = Double(right) - y, rightWeight = y - Double(left)
    var loss = leftWeight * (logTotal - row[left])
    if rightWeight > 0 { loss += rightWeight * (logTotal - row[right]) }
    return loss
}

func distributionExpectationReference(_ row: [Double]) -> Double {
    let m = row.max()!
    let e = row.map { Foundation.exp($0 - m) }
    let total = e.reduce(0, +)
    return e.enumerated().map { Double($0.offset) * $0.element / total }.reduce(0, +)
}

/// 1 − GIoU with the predicted area from clamped widths, union and enclosing area ≥ 1e-7.
func generalizedIoULossReference(_ p: [Double], _ t: [Double]) -> Double {
    let epsilon = 1e-7
    let predictedArea = max(p[2] - p[0], 0) * max(p[3] - p[1], 0)
    let targetArea = max(t[2] - t[0], 0) * max(t[3] - t[1], 0)
    let overlap = max(min(p[2], t[2]) - max(p[0], t[0]), 0) * max(min(p[3], t[3]) - max(p[1], t[1]), 0)
    let union = max(predictedArea + targetArea - overlap, epsilon)
    let enclosing = max(max(max(p[2], t[2]) - min(p[0], t[0]), 0) * max(max(p[3], t[3]) - min(p[1], t[1]), 0), epsilon)
    return 1 - (overlap / union - (enclosing - union) / enclosing)
}

/// Applies `f` to aligned rows of `width` values of `a` and `b`.
func rowwise(_ a: [Double], _ b: [Double], width: Int, _ f: ([Double], [Double]) -> Double) -> [Double] {
    stride(from: 0, to: a.count, by: width).map { f(Array(a[$0..<($0 + width)]), Array(b[$0..<($0 + width)])) }
}

/// none / sum / mean of per-element losses, as `LossReduction` does.
func reducedReference(_ losses: [Double], _ reduction: String) -> [Double] {
    switch reduction {
    case "sum": return [losses.reduce(0, +)]
    case "mean": return [losses.reduce(0, +) / Double(losses.count)]
    default: return losses
    }
}
