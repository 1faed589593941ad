import Foundation

/// Elementwise detection losses; the autograd layer reduces them (sum or mean).
public enum LossKernels {
    /// Binary cross-entropy on logits, the stable form max(x,0) − x·t + log(1 + e^−|x|),
    /// optionally weighted per element. Writes per-element losses.
    public static func binaryCrossEntropyWithLogits(logits: UnsafePointer<Float>, targets: UnsafePointer<Float>,
                                                    weights: UnsafePointer<Float>?, count: Int, losses: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let x = logits[i], t = targets[i]
            let l = max(x, 0) - x * t + log1pf(expf(-abs(x)))
            losses[i] = weights.map { l * $0[i] } ?? l
        }
    }

    /// d/dx = (σ(x) − t)·w, scaled by the upstream gradient of each element.
    public static func binaryCrossEntropyWithLogitsBackward(logits: UnsafePointer<Float>, targets: UnsafePointer<Float>,
                                                            weights: UnsafePointer<Float>?, gradOutput: UnsafePointer<Float>,
                                                            count: Int, gradLogits: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let s = 1 / (1 + expf(-logits[i]))
            let g = (s - targets[i]) * gradOutput[i]
            gradLogits[i] = weights.map { g * $0[i] } ?? g
        }
    }

    /// Smooth-L1 (Huber with threshold β): 0.5·d²/β for |d| < β, else |d| − 0.5·β; β = 0 is L1.
    public static func smoothL1(prediction: UnsafePointer<Float>, target: UnsafePointer<Float>, beta: Float, count: Int,
                                losses: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let d = abs(prediction[i] - target[i])
            losses[i] = d < beta ? 0.5 * d * d / beta : d - 0.5 * beta
        }
    }

    public static func smoothL1Backward(prediction: UnsafePointer<Float>, target: UnsafePointer<Float>, beta: Float,
                                        gradOutput: UnsafePointer<Float>, count: Int, gradPrediction: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let d = prediction[i] - target[i]
            let g: Float = abs(d) < beta ? d / beta : (d > 0 ? 1 : (d < 0 ? -1 : 0))
            gradPrediction[i] = g * gradOutput[i]
        }
    }
}
