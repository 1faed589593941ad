import Autograd
import Kernels
import Tensor

public enum GradientClipping {
    /// Scales all gradients so their global L2 norm is at most `maxNorm`; returns the norm before
    /// clipping. A non-finite norm throws, naming the first parameter with a bad gradient.
    ///
    /// Each tensor's Σg² is taken whole, the tensors spread over the workers, and the totals added
    /// in parameter order; the scaling runs over pieces (`TensorPieces`): the same bits as one
    /// tensor after another.
    @discardableResult
    public static func clipGlobalNorm(_ parameters: [(name: String, parameter: Parameter)], maxNorm: Float) throws -> Float {
        // Pointers, not tensor copies: a copy would share the storage and make the scaling copy it.
        let gradients = parameters.compactMap { $0.parameter.gradient.map { (values: $0.pointer, count: $0.count) } }
        var squares = [Double](repeating: 0, count: gradients.count)
        squares.withUnsafeMutableBufferPointer { squares in
            Parallel.forEach(gradients.count) { squares[$0] = OptimizerKernels.sumOfSquares(gradients[$0].values, count: gradients[$0].count) }
        }
        let total = squares.reduce(0, +)
        let norm = Float(total.squareRoot())
        guard norm.isFinite else {
            try NonFiniteCheck.checkGradients(parameters)
            throw TensorError.nonFinite(what: "gradient norm", detail: "\(norm)")
        }
        if norm > maxNorm, norm > 0 {
            let factor = maxNorm / norm
            let targets = parameters.compactMap { $0.parameter.gradient == nil ? nil : $0.parameter.gradient!.uniqueMutablePointer() }
            precondition(targets.count == gradients.count)
            TensorPieces.forEach(counts: gradients.map(\.count)) { i, range in
                OptimizerKernels.scale(targets[i] + range.lowerBound, count: range.count, by: factor)
            }
        }
        return norm
    }
}
