import Foundation
import Support

/// MixUp for detection (Zhang et al. 2017; as in YOLOv5): pixel = ratio·a + (1 − ratio)·b, and
/// the boxes of both images are kept (the detector learns to find both faded elements).
public enum MixUp {
    public static func blend(_ first: AnnotatedImage, _ second: AnnotatedImage, ratio: Double) -> AnnotatedImage {
        precondition(first.width == second.width && first.height == second.height, "mixup needs equal sizes")
        var result = first
        // Fixed point: weights in 1/256 steps, rounded to nearest.
        let a = UInt32((ratio * 256).rounded()), b = 256 - a
        result.image.pixels.withUnsafeMutableBufferPointer { out in
            second.image.pixels.withUnsafeBufferPointer { other in
                for i in 0..<out.count {
                    out[i] = UInt8((UInt32(out[i]) * a + UInt32(other[i]) * b + 128) >> 8)
                }
            }
        }
        result.merge(boxesAndRegionsOf: second)
        return result
    }
}

extension SeededRandom {
    /// Beta(alpha, beta) as X / (X + Y) with X ~ Gamma(alpha), Y ~ Gamma(beta).
    public mutating func beta(_ alpha: Double, _ beta: Double) -> Double {
        let x = gamma(alpha), y = gamma(beta)
        return x + y > 0 ? x / (x + y) : 0.5
    }

    /// Gamma(shape, 1) by Marsaglia and Tsang (2000); shape < 1 via Gamma(shape + 1)·U^(1/shape).
    public mutating func gamma(_ shape: Double) -> Double {
        if shape < 1 { return gamma(shape + 1) * Foundation.pow(max(uniform(), 1e-300), 1 / shape) }
        let d = shape - 1.0 / 3, c = 1 / (9 * d).squareRoot()
        while true {
            let z = normal(), v0 = 1 + c * z
            guard v0 > 0 else { continue }
            let v = v0 * v0 * v0, u = uniform()
            if Foundation.log(max(u, 1e-300)) < 0.5 * z * z + d - d * v + d * Foundation.log(v) { return d * v }
        }
    }
}
