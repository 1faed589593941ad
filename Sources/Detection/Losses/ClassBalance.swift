import Foundation

/// Per-class weights for the classification loss, from the training split's box count per
/// class (after the dataset's class mapping). Weights are normalized so their mean over the
/// classes is 1, which keeps the loss's scale — and so the learning rate — unchanged.
///
/// A class with no boxes gets weight 1, the mean. Its formula weight is infinite ((1 − β)/0,
/// 0^−p), and with no positives its weight would only scale the background (negative) term of
/// its channel: the mean leaves that term as in unweighted training, where the largest finite
/// weight would push an unseen class's scores down harder than any seen class's — a bias the
/// data gave no reason for. (vins-ui has six such classes.) The other classes are normalized
/// among themselves, so the overall mean stays 1.
public enum ClassBalance: Equatable, Sendable {
    /// All weights 1.
    case none
    /// Cui et al., CVPR 2019, "Class-Balanced Loss Based on Effective Number of Samples":
    /// w_c ∝ (1 − β) / (1 − β^n_c). β → 0 is no weighting, β → 1 inverse frequency; the default
    /// 0.999 (one of the paper's β ∈ {0.9, 0.99, 0.999, 0.9999}) saturates around a few thousand
    /// boxes (1/(1 − β)), the count of the common UI classes, so Text and Icon are not crushed.
    case effectiveNumber(beta: Double)
    /// w_c ∝ n_c^−p: p = 1 is inverse frequency, 0.5 its square-root softening.
    case inverseFrequency(power: Double)

    /// The names the experiment config uses.
    public static let configNames = ["none", "effective_number", "inverse_frequency"]

    /// From a config: `name` one of `configNames`; `beta` (default 0.999) for effective_number,
    /// `power` (default 1) for inverse_frequency.
    public init(configName name: String, beta: Double? = nil, power: Double? = nil) throws {
        switch name {
        case "none": self = .none
        case "effective_number": self = .effectiveNumber(beta: beta ?? 0.999)
        case "inverse_frequency": self = .inverseFrequency(power: power ?? 1)
        default:
            throw ClassBalanceError(description: "class balance '\(name)' is unknown; use one of \(Self.configNames.joined(separator: ", "))")
        }
        try validate()
    }

    public var configName: String {
        switch self {
        case .none: return "none"
        case .effectiveNumber: return "effective_number"
        case .inverseFrequency: return "inverse_frequency"
        }
    }

    public func validate() throws {
        switch self {
        case .none: break
        case .effectiveNumber(let beta):
            guard beta >= 0 && beta < 1 else {
                throw ClassBalanceError(description: "effective_number needs beta in [0, 1), got \(beta)")
            }
        case .inverseFrequency(let power):
            guard power.isFinite && power >= 0 else {
                throw ClassBalanceError(description: "inverse_frequency needs a finite power ≥ 0, got \(power)")
            }
        }
    }

    /// One weight per class, mean 1 (see the type's note for classes with 0 boxes).
    public func weights(classCounts: [Int]) -> [Double] {
        precondition(classCounts.allSatisfy { $0 >= 0 }, "ClassBalance: negative class count in \(classCounts)")
        let raw: [Double?] = classCounts.map { n in
            guard n > 0 else { return nil }
            switch self {
            case .none: return 1
            case .effectiveNumber(let beta): return (1 - beta) / (1 - pow(beta, Double(n)))
            case .inverseFrequency(let power): return pow(Double(n), -power)
            }
        }
        let present = raw.compactMap { $0 }
        guard !present.isEmpty else { return classCounts.map { _ in 1 } }
        let mean = present.reduce(0, +) / Double(present.count)
        return raw.map { $0.map { $0 / mean } ?? 1 }
    }
}

public struct ClassBalanceError: Error, Equatable, CustomStringConvertible {
    public let description: String
}
