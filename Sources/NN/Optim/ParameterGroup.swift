import Autograd

/// Parameters trained at their own rate and weight decay, chosen by dotted-name prefix: e.g.
/// `ParameterGroup(prefixes: ["backbone"], learningRateMultiplier: 0.1)` fine-tunes a
/// pretrained backbone at a tenth of the rate a schedule sets for the new head.
public struct ParameterGroup: Equatable {
    /// Dotted-name prefixes, matched as `Module.freeze(prefixes:)` does (`backbone.stage4`
    /// covers `backbone.stage4.2.weight`, not `backbone.stage40.weight`).
    public var prefixes: [String]
    public var learningRateMultiplier: Float
    /// Nil: the optimizer's weight decay. The optimizer's `WeightDecayPolicy` applies inside
    /// every group, so biases and batch-norm weights stay exempt under `.exceptBiasesAndNormalization`.
    public var weightDecay: Float?

    public init(prefixes: [String], learningRateMultiplier: Float = 1, weightDecay: Float? = nil) {
        self.prefixes = prefixes
        self.learningRateMultiplier = learningRateMultiplier
        self.weightDecay = weightDecay
    }
}

/// Each parameter's name, rate multiplier and weight decay, resolved once when an optimizer is
/// made. Parameters in no group take multiplier 1 and the optimizer's weight decay.
struct ResolvedParameters {
    let entries: [(name: String, parameter: Parameter)]
    let learningRateMultipliers: [Float]
    let weightDecays: [Float]
    let indexByName: [String: Int]

    init(_ entries: [(name: String, parameter: Parameter)], groups: [ParameterGroup], weightDecay: Float,
         decayPolicy: WeightDecayPolicy, optimizer: String) throws {
        var indexByName: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            guard indexByName.updateValue(index, forKey: entry.name) == nil else {
                throw OptimizerError.duplicateParameterName(optimizer: optimizer, name: entry.name)
            }
        }
        for (index, group) in groups.enumerated() {
            guard group.learningRateMultiplier >= 0, group.learningRateMultiplier.isFinite, (group.weightDecay ?? 0) >= 0 else {
                throw OptimizerError.invalidGroup(optimizer: optimizer, group: index, prefixes: group.prefixes,
                                                  reason: "learningRateMultiplier \(group.learningRateMultiplier) and weightDecay \(group.weightDecay.map { "\($0)" } ?? "nil") must be ≥ 0")
            }
        }
        var multipliers: [Float] = [], decays: [Float] = []
        var membersPerGroup = [Int](repeating: 0, count: groups.count)
        for (name, parameter) in entries {
            let matching = groups.indices.filter { g in groups[g].prefixes.contains { Module.name(name, isUnder: $0) } }
            // Overlaps are refused rather than resolved by order: a silent first-match would
            // hide a typo'd or too-broad prefix, and PyTorch refuses them too.
            guard matching.count <= 1 else {
                throw OptimizerError.parameterInSeveralGroups(optimizer: optimizer, name: name, groups: matching)
            }
            let group = matching.first.map { groups[$0] }
            if let g = matching.first { membersPerGroup[g] += 1 }
            multipliers.append(group?.learningRateMultiplier ?? 1)
            decays.append(decayPolicy.applies(to: parameter) ? group?.weightDecay ?? weightDecay : 0)
        }
        if let empty = membersPerGroup.firstIndex(of: 0) {
            throw OptimizerError.groupMatchesNothing(optimizer: optimizer, group: empty, prefixes: groups[empty].prefixes)
        }
        self.entries = entries
        self.indexByName = indexByName
        learningRateMultipliers = multipliers
        weightDecays = decays
    }

    /// The rate and weight decay `name` is updated with at base rate `learningRate`.
    func hyperparameters(of name: String, learningRate: Float) -> (learningRate: Float, weightDecay: Float)? {
        indexByName[name].map { (learningRate * learningRateMultipliers[$0], weightDecays[$0]) }
    }
}

public enum OptimizerError: Error, Equatable, CustomStringConvertible {
    case duplicateParameterName(optimizer: String, name: String)
    case parameterInSeveralGroups(optimizer: String, name: String, groups: [Int])
    case groupMatchesNothing(optimizer: String, group: Int, prefixes: [String])
    case invalidGroup(optimizer: String, group: Int, prefixes: [String], reason: String)

    public var description: String {
        switch self {
        case let .duplicateParameterName(optimizer, name):
            return "\(optimizer): two parameters are named '\(name)'; optimizer state is kept by name, so names must be unique"
        case let .parameterInSeveralGroups(optimizer, name, groups):
            return "\(optimizer): parameter '\(name)' is in parameter groups \(groups.map(String.init).joined(separator: " and ")); make the prefixes disjoint"
        case let .groupMatchesNothing(optimizer, group, prefixes):
            return "\(optimizer): parameter group \(group) (prefixes \(prefixes)) matches no parameter; check the prefixes against the model's parameter names"
        case let .invalidGroup(optimizer, group, prefixes, reason):
            return "\(optimizer): parameter group \(group) (prefixes \(prefixes)): \(reason)"
        }
    }
}
