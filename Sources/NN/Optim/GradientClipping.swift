import Autograd
import Kernels
import Tensor

public enum GradientClipping {
    /// Scales all gradients so their global L2 norm is at most `maxNorm`; returns the norm before
    /// clipping. A non-finite norm throws, naming the first parameter with a bad gradient.
    @discardableResult
    public static func clipGlobalNorm(_ parameters: [(name: String, parameter: Parameter)], maxNorm: Float) throws -> Float {
        var total = 0.0
        for (_, p) in parameters { if let g = p.gradient { total += OptimizerKernels.sumOfSquares(g.pointer, count: g.count) } }
        let norm = Float(total.squareRoot())
        guard norm.isFinite else {
            try NonFiniteCheck.checkGradients(parameters)
            throw TensorError.nonFinite(what: "gradient norm", detail: "\(norm)")
        }
        if norm > maxNorm, norm > 0 {
            let factor = maxNorm / norm
            for (_, p) in parameters where p.gradient != nil {
                p.gradient!.withUnsafeMutableBufferPointer { OptimizerKernels.scale($0.baseAddress!, count: $0.count, by: factor) }
            }
        }
        return norm
    }
}
