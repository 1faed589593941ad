import NN
import Support
import Tensor

/// Random batch-norm statistics and affine parameters (and livelier head outputs) for a model
/// whose inference must be compared with another path: with initial statistics (mean 0, var 1,
/// γ 1, β 0) folding batch norm is nearly the identity, and the head's 0.01-std output weights
/// would shrink every difference 100×, so such a comparison would prove little.
public enum RandomizedStatistics {
    /// Loads the randomized state into `model` and puts it in eval mode. `headPrefixes` name the
    /// output convolutions (e.g. "head.outputs"); with `spreadHeadBiases` their biases leave the
    /// class prior (−4.6, every score ≈ 0.01) for (−2, 2), so scores spread over (0.1, 0.9).
    public static func apply(to model: Module, seed: UInt64, headPrefixes: [String], spreadHeadBiases: Bool = false) throws {
        var random = SeededRandom(seed: seed)
        var state: [String: Tensor] = [:]
        for (name, tensor) in model.stateTensors() {
            let isHead = headPrefixes.contains { name.hasPrefix($0) }
            let range: (Double, Double)?
            if name.hasSuffix("running_mean") { range = (-0.3, 0.3) }
            else if name.hasSuffix("running_var") { range = (0.3, 2) }
            else if name.hasSuffix("bn.weight") { range = (0.5, 1.5) }
            else if name.hasSuffix("bn.bias") { range = (-0.3, 0.3) }
            else if isHead, name.hasSuffix("weight") { range = (-0.2, 0.2) }
            else if isHead, spreadHeadBiases, name.hasSuffix("bias") { range = (-2, 2) }
            else { range = nil }
            var t = tensor
            if let range {
                t.withUnsafeMutableBufferPointer { for i in 0..<$0.count { $0[i] = Float(random.uniform(range.0, range.1)) } }
            }
            state[name] = t
        }
        try model.load(state: state)
        model.eval()
    }
}
