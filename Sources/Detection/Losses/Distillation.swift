import Autograd
import Foundation
import Tensor

/// How much a teacher's outputs count when `DetectionLoss` is given them.
public struct DistillationWeights: Equatable, Sendable {
    /// The class-probability term, normalized as `cls` is (by the positives).
    public var classification: Float = 1
    /// The side-distribution term, normalized as `dfl` is (by four times the box-weight sum).
    public var localization: Float = 0.25
    /// τ: both side distributions are softened by it, the term scaled by τ² (LD's 10).
    public var temperature: Float = 10
    /// Per class, 1 where the student follows the teacher and 0 where it does not (a class the
    /// teacher never learnt): the class term on that class's scores, the side-distribution term
    /// at that class's positives. nil: every class.
    public var classMask: [Float]?

    public init() {}
}

// Knowledge distillation for the anchor-free head: the student learns the teacher's class
// scores on every prior (what the teacher thinks is there, including the near misses ground
// truth calls background) and, at the positives, the shape of its side distributions (where the
// teacher is unsure of an edge, so is the student: Zheng et al., "Localization Distillation for
// Dense Object Detection", CVPR 2022).
extension DetectionLoss {
    /// Quality focal loss of the student's class logits against the teacher's probabilities
    /// σ(t) on every prior and class: the teacher's confidence is the soft target, as the IoU
    /// quality is for ground truth. Summed; the caller normalizes.
    func classDistillation(_ logits: Variable, teacher: Tensor, weights: Tensor?) throws -> Variable {
        let k = configuration.classCount, rows = logits.shape[0], width = configuration.outputsPerPrior
        var targets = Tensor(uninitialized: [rows, k])
        targets.withUnsafeMutableBufferPointer { p in
            for r in 0..<rows {
                for c in 0..<k { p[r * k + c] = 1 / (1 + exp(-teacher.pointer[r * width + c])) }
            }
        }
        return try logits.qualityFocalLoss(targets: targets, beta: settings.qualityBeta,
                                           weights: try taughtClassWeights(weights, rows: rows), reduction: .sum)
    }

    /// The side-distribution term's weight per positive: its box weight, zero for a positive of
    /// a class outside `classMask` (the teacher never learnt where such boxes end).
    func taughtPositiveWeights(_ weights: [Float], classes: [Int]) -> [Float] {
        guard let mask = settings.distillation.classMask else { return weights }
        return zip(weights, classes).map { weight, c in weight * mask[c] }
    }

    /// The class term's element weights: the classification weights with the classes outside
    /// `classMask` zeroed (its length is checked when the loss is made).
    func taughtClassWeights(_ weights: Tensor?, rows: Int) throws -> Tensor? {
        guard let mask = settings.distillation.classMask else { return weights }
        let k = configuration.classCount
        var result = try weights ?? Tensor(repeating: 1, shape: [rows, k])
        result.withUnsafeMutableBufferPointer { p in
            for r in 0..<rows { for c in 0..<k { p[r * k + c] *= mask[c] } }
        }
        return result
    }

    /// Σ_i w_i·τ²·KL(softmax(t_i/τ) ‖ softmax(s_i/τ)) over the four side distributions of each
    /// positive `rows[i]`, weighted as DFL is (`weights`). Summed; the caller normalizes. Built
    /// from log-softmax, a product with a constant and a sum, whose gradients are checked op by
    /// op; the teacher's entropy enters as a constant so the value is the divergence itself
    /// (0 when the student matches the teacher) while the gradient is the cross-entropy's.
    func localizationDistillation(_ distributions: Variable, teacher: Tensor, rows: [Int], weights: [Float]) throws -> Variable {
        let k = configuration.classCount, bins = configuration.distributionBins, width = configuration.outputsPerPrior
        let tau = settings.distillation.temperature, m = rows.count
        var coefficients = Tensor(uninitialized: [m, 4, bins])
        var negativeEntropy = 0.0  // Σ w·τ²·p·log p
        coefficients.withUnsafeMutableBufferPointer { c in
            var softened = [Float](repeating: 0, count: bins)
            for (i, row) in rows.enumerated() {
                let scale = weights[i] * tau * tau
                for side in 0..<4 {
                    let logits = teacher.pointer + row * width + k + side * bins
                    var maximum = -Float.infinity
                    for b in 0..<bins { softened[b] = logits[b] / tau; maximum = max(maximum, softened[b]) }
                    var total: Float = 0
                    for b in 0..<bins { softened[b] = exp(softened[b] - maximum); total += softened[b] }
                    for b in 0..<bins {
                        let p = softened[b] / total
                        c[(i * 4 + side) * bins + b] = -scale * p
                        if p > 0 { negativeEntropy += Double(scale * p * log(p)) }
                    }
                }
            }
        }
        let logQ = try distributions.scaled(by: 1 / tau).logSoftmax(axis: -1)
        return try (logQ * distributions.tape.constant(coefficients)).sum().adding(Float(negativeEntropy))
    }
}
