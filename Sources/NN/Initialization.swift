import Support
import Tensor

/// Weight initialisers (seeded, so the same seed builds the same model).
public enum Initialization {
    /// PyTorch's default for conv/linear: kaiming_uniform with a = √5, i.e. U(−1/√fanIn, 1/√fanIn).
    public static func kaimingUniform(shape: [Int], fanIn: Int, rng: inout SeededRandom) -> Tensor {
        let bound = 1 / Float(max(fanIn, 1)).squareRoot()
        return uniform(shape: shape, bound: bound, rng: &rng)
    }

    public static func uniform(shape: [Int], bound: Float, rng: inout SeededRandom) -> Tensor {
        var t = Tensor(uninitialized: shape)
        t.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count { p[i] = (2 * rng.uniformFloat() - 1) * bound }
        }
        return t
    }

    public static func normal(shape: [Int], standardDeviation: Float, rng: inout SeededRandom) -> Tensor {
        var t = Tensor(uninitialized: shape)
        t.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count { p[i] = Float(rng.normal()) * standardDeviation }
        }
        return t
    }
}
