import Autograd
import Kernels
import Tensor

/// SGD with momentum (PyTorch semantics: v = μ·v + (1 − dampening)·g; Nesterov uses g + μ·v).
/// State: `momentum/<parameter>`, the velocity buffer, once the parameter has taken a step.
public final class SGD: Optimizer {
    public var learningRate: Float
    public let momentum: Float, dampening: Float, weightDecay: Float, nesterov: Bool
    public let decayPolicy: WeightDecayPolicy
    public let groups: [ParameterGroup]
    private let resolved: ResolvedParameters
    public var parameters: [(name: String, parameter: Parameter)] { resolved.entries }
    /// Momentum buffer per entry of `parameters`, created on its first step. Updated in place
    /// through the array: a copy taken out of the container would share the storage, and the
    /// write would then copy the whole buffer every step.
    private var velocity: [Tensor?]

    static let momentumKind = "momentum"

    public init(parameters: [(name: String, parameter: Parameter)], groups: [ParameterGroup] = [], learningRate: Float,
                momentum: Float = 0, dampening: Float = 0, weightDecay: Float = 0, nesterov: Bool = false,
                decayPolicy: WeightDecayPolicy = .all) throws {
        guard learningRate >= 0, momentum >= 0, weightDecay >= 0, !(nesterov && (momentum <= 0 || dampening != 0)) else {
            throw TensorError.invalidArgument(op: "SGD", reason: "learningRate \(learningRate), momentum \(momentum), dampening \(dampening), weightDecay \(weightDecay), nesterov \(nesterov): need learningRate, momentum, weightDecay ≥ 0; Nesterov needs momentum > 0 and no dampening")
        }
        resolved = try ResolvedParameters(parameters, groups: groups, weightDecay: weightDecay, decayPolicy: decayPolicy, optimizer: "SGD")
        self.groups = groups
        self.learningRate = learningRate
        self.momentum = momentum
        self.dampening = dampening
        self.weightDecay = weightDecay
        self.nesterov = nesterov
        self.decayPolicy = decayPolicy
        velocity = Array(repeating: nil, count: parameters.count)
    }

    /// The rate and weight decay the parameter `name` is updated with now; nil for a name this optimizer does not hold.
    public func hyperparameters(of name: String) -> (learningRate: Float, weightDecay: Float)? {
        resolved.hyperparameters(of: name, learningRate: learningRate)
    }

    /// All tensors' updates run as one parallel loop over pieces (`TensorPieces`): the same bits
    /// as a loop per tensor. Every shape is checked first, so a refused step changes nothing.
    public func step() throws {
        try checkGradientShapes(parameters, op: "SGD.step")
        struct Update {
            let weights: UnsafeMutablePointer<Float>, gradients: UnsafePointer<Float>, velocity: UnsafeMutablePointer<Float>?
            let count: Int, rate: Float, decay: Float, firstStep: Bool
        }
        var updates: [Update] = []
        for (index, (_, p)) in parameters.enumerated() where !p.isFrozen {
            guard let gradient = p.gradient else { continue }
            var buffer: UnsafeMutablePointer<Float>?, isFirst = false
            if momentum > 0 {
                // PyTorch initialises the buffer with the first gradient (no dampening on step 1),
                // so the new buffer need not be zeroed: the kernel overwrites it.
                isFirst = velocity[index] == nil
                if isFirst { velocity[index] = Tensor(uninitialized: p.shape) }
                buffer = velocity[index]!.uniqueMutablePointer()
            }
            updates.append(Update(weights: p.value.uniqueMutablePointer(), gradients: gradient.pointer, velocity: buffer, count: p.value.count,
                                  rate: learningRate * resolved.learningRateMultipliers[index], decay: resolved.weightDecays[index],
                                  firstStep: isFirst))
        }
        TensorPieces.forEach(counts: updates.map(\.count)) { tensor, range in
            let u = updates[tensor], start = range.lowerBound
            OptimizerKernels.sgd(parameters: u.weights + start, gradients: u.gradients + start, velocity: u.velocity.map { $0 + start },
                                 count: range.count, learningRate: u.rate, momentum: u.velocity == nil ? 0 : momentum,
                                 dampening: u.velocity == nil ? 0 : dampening, weightDecay: u.decay,
                                 nesterov: u.velocity == nil ? false : nesterov, firstStep: u.firstStep)
        }
    }

    public func stateTensors() -> [(name: String, tensor: Tensor)] {
        zip(parameters, velocity).compactMap { entry, buffer in buffer.map { ("\(SGD.momentumKind)/\(entry.name)", $0) } }
    }

    /// SGD keeps no counters: a velocity buffer exists exactly when a parameter has stepped.
    public func stateCounters() -> [String: Int] { [:] }

    public func loadState(tensors: [String: Tensor], counters: [String: Int]) throws {
        let kinds = momentum > 0 ? [SGD.momentumKind] : []
        var loaded = [Tensor?](repeating: nil, count: parameters.count)
        for (name, tensor) in tensors.sorted(by: { $0.key < $1.key }) {
            loaded[try resolved.locateState(name, tensor: tensor, kinds: kinds, owner: "SGD").index] = tensor
        }
        if let name = counters.keys.sorted().first {
            throw StateLoadError.unknownName(owner: "SGD", name: name, stores: "no counters")
        }
        velocity = loaded
    }

    /// Storage address of a parameter's momentum buffer (tests check that steps update it in place).
    func velocityAddress(at index: Int) -> UnsafeMutablePointer<Float>? { velocity[index]?.storage.pointer }
}
