import Foundation

/// The sigmoid-family detection losses (focal, quality focal, varifocal), each fused: one pass
/// writes the per-element loss and, when `derivatives` is given, d loss / d logit (weights
/// folded in), so the backward is one multiply by the upstream gradient.
///
/// Everything comes from one e = exp(−|x|): σ(x), σ(−x) and log(1 + e) without ever forming
/// log(σ(x)), so logits of ±80 stay finite. Residuals σ − t are written p·(1 − t) − q·t (q =
/// σ(−x)), which does not cancel to 0 when t = 1 and σ rounds to 1.
extension LossKernels {
   
    struct Logistic {
        /// σ(x), σ(−x), and BCE(x, t) = max(x, 0) − x·t + log(1 + e^−|x|).
        let p: Float, q: Float, crossEntropy: Float
        /// σ(x) − t, computed without cancellation.
        let residual: Float

        @inline(__always)
        init(_ x: Float, target t: Float) {
            let e = expf(-abs(x)), inverse = 1 / (1 + e)
            p = x >= 0 ? inverse : e * inverse
            q = x >= 0 ? e * inverse : inverse
            crossEntropy = max(x, 0) - x * t + log1pf(e)
            residual = p * (1 - t) - q * t
        }
    }

    /// Workers for an elementwise loss over `count` logits: a batch's 280k class logits cost
    /// ~6 ms of scalar exp and log1p on one core; tests' few hundred are not worth a thread.
    static func elementwiseWorkers(_ count: Int) -> Int { count >= 16_384 ? Parallel.workerCount(for: count) : 1 }

    /// base^exponent, exact and fast for the usual γ = 2.
    @inline(__always)
    static func power(_ base: Float, _ exponent: Float) -> Float {
        exponent == 2 ? base * base : (exponent == 1 ? base : powf(base, exponent))
    }

    /// γ·m^(γ−1), taken as 0 at m = 0 so γ < 1 does not give 0·∞ there.
    @inline(__always)
    static func powerDerivative(_ m: Float, _ exponent: Float) -> Float {
        m > 0 ? exponent * power(m, exponent - 1) : 0
    }

    /// RetinaNet's focal loss (Lin et al. 2017, as torchvision's sigmoid_focal_loss):
    /// α_t·(1 − p_t)^γ·BCE(x, t), α_t = α·t + (1 − α)·(1 − t), no α weighting when α < 0.
    public static func sigmoidFocal(logits: UnsafePointer<Float>, targets: UnsafePointer<Float>, weights: UnsafePointer<Float>?,
                                    count: Int, alpha: Float, gamma: Float,
                                    losses: UnsafeMutablePointer<Float>, derivatives: UnsafeMutablePointer<Float>?) {
        Parallel.forEachChunk(count, workers: elementwiseWorkers(count)) { range, _ in
            for i in range {
                let t = targets[i], s = Logistic(logits[i], target: t)
                let scale = (weights?[i] ?? 1) * (alpha < 0 ? 1 : alpha * t + (1 - alpha) * (1 - t))
                // 1 − p_t = p·(1 − t) + q·t: for hard targets this is q or p, never 1 − (a number near 1).
                let m = s.p * (1 - t) + s.q * t
                let modulation = power(m, gamma)
                losses[i] = scale * modulation * s.crossEntropy
                guard let derivatives else { continue }
                let dm = s.p * s.q * (1 - 2 * t)
                derivatives[i] = scale * (powerDerivative(m, gamma) * dm * s.crossEntropy + modulation * s.residual)
            }
        }
    }

    /// GFL's quality focal loss (Li et al. 2020): |y − σ|^β·BCE(x, y). The modulating factor is
    /// differentiated, as in mmdetection's quality_focal_loss.
    public static func qualityFocal(logits: UnsafePointer<Float>, targets: UnsafePointer<Float>, weights: UnsafePointer<Float>?,
                                    count: Int, beta: Float,
                                    losses: UnsafeMutablePointer<Float>, derivatives: UnsafeMutablePointer<Float>?) {
        Parallel.forEachChunk(count, workers: elementwiseWorkers(count)) { range, _ in
            for i in range {
                let s = Logistic(logits[i], target: targets[i])
                let w = weights?[i] ?? 1
                let distance = abs(s.residual), modulation = power(distance, beta)
                losses[i] = w * modulation * s.crossEntropy
                guard let derivatives else { continue }
                // d|σ − y|/dx = sign(σ − y)·σ·(1 − σ)
                let dDistance = (s.residual < 0 ? -1 : 1) * s.p * s.q
                derivatives[i] = w * (powerDerivative(distance, beta) * dDistance * s.crossEntropy + modulation * s.residual)
            }
        }
    }

    /// VarifocalNet's loss (Zhang et al. 2021): w·BCE(x, q) with w = q where q > 0, else α·σ^γ.
    /// With `differentiateWeight` false, w is a constant in the derivative; true adds
    /// d(α·σ^γ)/dx = α·γ·σ^γ·(1 − σ) for negatives, as autograd does through mmdetection's
    /// and PaddleDetection's varifocal_loss (neither detaches the weight).
    public static func varifocal(logits: UnsafePointer<Float>, targets: UnsafePointer<Float>, weights: UnsafePointer<Float>?,
                                 count: Int, alpha: Float, gamma: Float, differentiateWeight: Bool,
                                 losses: UnsafeMutablePointer<Float>, derivatives: UnsafeMutablePointer<Float>?) {
        Parallel.forEachChunk(count, workers: elementwiseWorkers(count)) { range, _ in
            for i in range {
                let t = targets[i], s = Logistic(logits[i], target: t)
                let w = weights?[i] ?? 1
                let negativeWeight = alpha * power(s.p, gamma)
                let focalWeight = t > 0 ? t : negativeWeight
                losses[i] = w * focalWeight * s.crossEntropy
                guard let derivatives else { continue }
                var d = focalWeight * s.residual
                if differentiateWeight, t <= 0 { d += gamma * negativeWeight * s.q * s.crossEntropy }
                derivatives[i] = w * d
            }
        }
    }

    /// The first index whose value is outside [lower, upper] (NaN included), or nil.
    public static func firstOutside(_ values: UnsafePointer<Float>, count: Int, lower: Float, upper: Float) -> Int? {
        for i in 0..<count where !(values[i] >= lower && values[i] <= upper) { return i }
        return nil
    }

    /// out[r, c] = derivatives[r, c]·rowScale[r]: the backward of a fused loss (columns = 1
    /// for elementwise losses, the bins of a row for distribution losses).
    public static func scaleRows(_ derivatives: UnsafePointer<Float>, by rowScale: UnsafePointer<Float>, rows: Int, columns: Int,
                                 into output: UnsafeMutablePointer<Float>) {
        for r in 0..<rows {
            let g = rowScale[r], d = derivatives + r * columns, o = output + r * columns
            for c in 0..<columns { o[c] = d[c] * g }
        }
    }
}
