import Autograd
import Kernels
import Tensor

/// AdamW (Loshchilov & Hutter): Adam with weight decay applied to the weights, not the gradient.
/// State per parameter that has stepped: `adam.m/<parameter>` and `adam.v/<parameter>` (first
/// and second moments) and the counter `adam.step/<parameter>`, its own step count (a
/// parameter unfrozen later starts its bias correction at 1, as in PyTorch).
public final class AdamW: Optimizer {
    public var learningRate: Float
    public let beta1: Float, beta2: Float, epsilon: Float, weightDecay: Float
    public let decayPolicy: WeightDecayPolicy
    public let groups: [ParameterGroup]
    private let resolved: ResolvedParameters
    public var parameters: [(name: String, parameter: Parameter)] { resolved.entries }
    /// First and second moments per entry of `parameters`, updated in place (see `SGD.velocity`).
    private var firstMoments: [Tensor?], secondMoments: [Tensor?]
    private var steps: [Int]

    static let firstMomentKind = "adam.m", secondMomentKind = "adam.v", stepKind = "adam.step"

    public init(parameters: [(name: String, parameter: Parameter)], groups: [ParameterGroup] = [], learningRate: Float = 1e-3,
                beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8, weightDecay: Float = 0.01,
                decayPolicy: WeightDecayPolicy = .all) throws {
        guard learningRate >= 0, (0..<1).contains(beta1), (0..<1).contains(beta2), epsilon > 0, weightDecay >= 0 else {
            throw TensorError.invalidArgument(op: "AdamW", reason: "learningRate \(learningRate), beta1 \(beta1), beta2 \(beta2), epsilon \(epsilon), weightDecay \(weightDecay): need learningRate ≥ 0, 0 ≤ beta1, beta2 < 1, epsilon > 0, weightDecay ≥ 0")
        }
        resolved = try ResolvedParameters(parameters, groups: groups, weightDecay: weightDecay, decayPolicy: decayPolicy, optimizer: "AdamW")
        self.groups = groups
        self.learningRate = learningRate
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.weightDecay = weightDecay
        self.decayPolicy = decayPolicy
        firstMoments = Array(repeating: nil, count: parameters.count)
        secondMoments = firstMoments
        steps = Array(repeating: 0, count: parameters.count)
    }

    /// The rate and weight decay the parameter `name` is updated with now; nil for a name this optimizer does not hold.
    public func hyperparameters(of name: String) -> (learningRate: Float, weightDecay: Float)? {
        resolved.hyperparameters(of: name, learningRate: learningRate)
    }

    /// All tensors' updates run as one parallel loop over pieces (`TensorPieces`): the same bits
    /// as a loop per tensor.
    public func step() throws {
        struct Update {
            let weights: UnsafeMutablePointer<Float>, gradients: UnsafePointer<Float>
            let first: UnsafeMutablePointer<Float>, second: UnsafeMutablePointer<Float>
            let count: Int, rate: Float, decay: Float, step: Int
        }
        try checkGradientShapes(parameters, op: "AdamW.step")
        var updates: [Update] = []
        for (index, (_, p)) in parameters.enumerated() where !p.isFrozen {
            guard let gradient = p.gradient else { continue }
            if firstMoments[index] == nil {
                firstMoments[index] = try Tensor(zeros: p.shape)
                secondMoments[index] = try Tensor(zeros: p.shape)
            }
            steps[index] += 1
            updates.append(Update(weights: p.value.uniqueMutablePointer(), gradients: gradient.pointer,
                                  first: firstMoments[index]!.uniqueMutablePointer(), second: secondMoments[index]!.uniqueMutablePointer(),
                                  count: p.value.count, rate: learningRate * resolved.learningRateMultipliers[index],
                                  decay: resolved.weightDecays[index], step: steps[index]))
        }
        TensorPieces.forEach(counts: updates.map(\.count)) { tensor, range in
            let u = updates[tensor], start = range.lowerBound
            OptimizerKernels.adamW(parameters: u.weights + start, gradients: u.gradients + start, firstMoment: u.first + start,
                                   secondMoment: u.second + start, count: range.count, learningRate: u.rate, beta1: beta1, beta2: beta2,
                                   epsilon: epsilon, weightDecay: u.decay, step: u.step)
        }
    }

    public func stateTensors() -> [(name: String, tensor: Tensor)] {
        parameters.indices.flatMap { index -> [(name: String, tensor: Tensor)] in
            guard let m = firstMoments[index], let v = secondMoments[index] else { return [] }
            let name = parameters[index].name
            return [("\(AdamW.firstMomentKind)/\(name)", m), ("\(AdamW.secondMomentKind)/\(name)", v)]
        }
    }

    public func stateCounters() -> [String: Int] {
        Dictionary(uniqueKeysWithValues: parameters.indices.filter { steps[$0] > 0 }.map { ("\(AdamW.stepKind)/\(parameters[$0].name)", steps[$0]) })
    }

    public func loadState(tensors: [String: Tensor], counters: [String: Int]) throws {
        var first = [Tensor?](repeating: nil, count: parameters.count), second = first
        var loadedSteps = [Int](repeating: 0, count: parameters.count)
        for (name, tensor) in tensors.sorted(by: { $0.key < $1.key }) {
            let (kind, index) = try resolved.locateState(name, tensor: tensor, kinds: [AdamW.firstMomentKind, AdamW.secondMomentKind], owner: "AdamW")
            if kind == AdamW.firstMomentKind { first[index] = tensor } else { second[index] = tensor }
        }
        for (name, value) in counters.sorted(by: { $0.key < $1.key }) {
            let index = try resolved.locateState(name, kinds: [AdamW.stepKind], owner: "AdamW").index
            guard value >= 1 else {
                throw StateLoadError.invalidCounter(owner: "AdamW", name: name, value: value, reason: "a parameter with moments has taken at least one step")
            }
            loadedSteps[index] = value
        }
        // The moments and the step count of a parameter are saved together; any one alone
        // would resume with a wrong bias correction or moments restarted from zero.
        for index in parameters.indices {
            let present = [first[index] != nil, second[index] != nil, loadedSteps[index] > 0]
            guard present.contains(true), let absent = present.firstIndex(of: false) else { continue }
            let name = "\([AdamW.firstMomentKind, AdamW.secondMomentKind, AdamW.stepKind][absent])/\(parameters[index].name)"
            throw StateLoadError.missing(owner: "AdamW", name: name, reason: "the parameter has other AdamW state; moments and step count are saved together")
        }
        firstMoments = first
        secondMoments = second
        steps = loadedSteps
    }

    /// Storage addresses of a parameter's moments (tests check that steps update them in place).
    func momentAddresses(at index: Int) -> (first: UnsafeMutablePointer<Float>, second: UnsafeMutablePointer<Float>)? {
        guard let first = firstMoments[index], let second = secondMoments[index] else { return nil }
        return (first.storage.pointer, second.storage.pointer)
    }
}
