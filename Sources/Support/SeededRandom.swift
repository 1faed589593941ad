import Foundation

/// Deterministic random numbers: the same seed gives the same sequence on every machine,
/// which `SystemRandomNumberGenerator` does not. xoshiro256** seeded through SplitMix64.
public struct SeededRandom: RandomNumberGenerator {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    /// The generator's four words, to save with a checkpoint: `init(state:)` continues the
    /// stream exactly where this one is.
    public var state: [UInt64] { [s0, s1, s2, s3] }

    /// Resumes a stream saved from `state`. Throws on anything `state` cannot have produced:
    /// not four words, or all four zero (xoshiro's one fixed point, which would return 0 forever).
    public init(state: [UInt64]) throws {
        guard state.count == 4 else { throw SeededRandomStateError.wordCount(state.count) }
        guard state.contains(where: { $0 != 0 }) else { throw SeededRandomStateError.allZero }
        s0 = state[0]; s1 = state[1]; s2 = state[2]; s3 = state[3]
    }

    /// An independent stream for a sub-task (a worker, an image index) derived from this seed.
    public static func stream(seed: UInt64, index: UInt64) -> SeededRandom {
        SeededRandom(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03) &+ 0x632B_E59B_D9B4_E019)
    }

    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    public mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * uniform() }

    public mutating func uniformFloat() -> Float { Float(next() >> 40) * 0x1.0p-24 }

    /// Standard normal (Box–Muller; one value per call for simplicity of determinism).
    public mutating func normal() -> Double {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    public mutating func int(in range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func chance(_ probability: Double) -> Bool { uniform() < probability }
}

public enum SeededRandomStateError: Error, Equatable, CustomStringConvertible {
    case wordCount(Int)
    case allZero

    public var description: String {
        switch self {
        case let .wordCount(count):
            return "a saved random-generator state has 4 words (xoshiro256**), this one has \(count): the checkpoint is damaged or not ScreenLab's"
        case .allZero:
            return "a saved random-generator state is all zero, which no seeded generator reaches: the checkpoint is damaged"
        }
    }
}
