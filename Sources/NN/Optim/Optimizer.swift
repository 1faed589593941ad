import Autograd
import Kernels
import Tensor

/// Updates parameters from their gradients. Frozen parameters and parameters without a
/// gradient are skipped; `step` leaves gradients in place, `zeroGradients` clears them.
public protocol Optimizer: AnyObject {
    var learningRate: Float { get set }
    var parameters: [(name: String, parameter: Parameter)] { get }
    func step() throws
}

extension Optimizer {
    public func zeroGradients() { parameters.forEach { $0.parameter.gradient = nil } }
}

/// Which parameters get weight decay. YOLO-style trainers exempt biases and batch-norm
/// weights (rank ≤ 1): decaying them only hurts.
public enum WeightDecayPolicy {
    case all
    case exceptBiasesAndNormalization

    func applies(to parameter: Parameter) -> Bool {
        switch self {
        case .all: return true
        case .exceptBiasesAndNormalization: return parameter.shape.count > 1
        }
    }
}

/// SGD with momentum (PyTorch semantics: v = μ·v + (1 − dampening)·g; Nesterov uses g + μ·v).
public final class SGD: Optimizer {
    public var learningRate: Float
    public let momentum: Float, dampening: Float, weightDecay: Float, nesterov: Bool
    public let decayPolicy: WeightDecayPolicy
    public let parameters: [(name: String, parameter: Parameter)]
    /// Momentum buffer per entry of `parameters`, created on its first step. Updated in place
    /// through the array: a copy taken out of the container would share the storage, and the
    /// write would then copy the whole buffer every step.
    private var velocity: [Tensor?]

    public init(parameters: [(name: String, parameter: Parameter)], learningRate: Float, momentum: Float = 0, dampening: Float = 0,
                weightDecay: Float = 0, nesterov: Bool = false, decayPolicy: WeightDecayPolicy = .all) throws {
        guard learningRate >= 0, momentum >= 0, weightDecay >= 0, !(nesterov && (momentum <= 0 || dampening != 0)) else {
            throw TensorError.invalidArgument(op: "SGD", reason: "learningRate \(learningRate), momentum \(momentum), dampening \(dampening), weightDecay \(weightDecay), nesterov \(nesterov): need learningRate, momentum, weightDecay ≥ 0; Nesterov needs momentum > 0 and no dampening")
        }
        self.parameters = parameters
        self.learningRate = learningRate
        self.momentum = momentum
        self.dampening = dampening
        self.weightDecay = weightDecay
        self.nesterov = nesterov
        self.decayPolicy = decayPolicy
        velocity = Array(repeating: nil, count: parameters.count)
    }

    public func step() throws {
        for (index, (name, p)) in parameters.enumerated() where !p.isFrozen {
            guard let gradient = p.gradient else { continue }
            try checkGradientShape(gradient, of: p, named: name, op: "SGD.step")
            let decay = decayPolicy.applies(to: p) ? weightDecay : 0
            let count = p.value.count
            guard momentum > 0 else {
                p.value.withUnsafeMutableBufferPointer { w in
                    OptimizerKernels.sgd(parameters: w.baseAddress!, gradients: gradient.pointer, velocity: nil, count: count,
                                         learningRate: learningRate, momentum: 0, dampening: 0, weightDecay: decay, nesterov: false)
                }
                continue
            }
            // PyTorch initialises the buffer with the first gradient (no dampening on step 1),
            // so the new buffer need not be zeroed: the kernel overwrites it.
            let isFirst = velocity[index] == nil
            if isFirst { velocity[index] = Tensor(uninitialized: p.shape) }
            p.value.withUnsafeMutableBufferPointer { w in
                velocity[index]!.withUnsafeMutableBufferPointer { v in
                    OptimizerKernels.sgd(parameters: w.baseAddress!, gradients: gradient.pointer, velocity: v.baseAddress!, count: count,
                                         learningRate: learningRate, momentum: momentum, dampening: dampening,
                                         weightDecay: decay, nesterov: nesterov, firstStep: isFirst)
                }
            }
        }
    }

    /// Storage address of a parameter's momentum buffer (tests check that steps update it in place).
    func velocityAddress(at index: Int) -> UnsafeMutablePointer<Float>? { velocity[index]?.storage.pointer }
}

/// AdamW (Loshchilov & Hutter): Adam with weight decay applied to the weights, not the gradient.
public final class AdamW: Optimizer {
    public var learningRate: Float
    public let beta1: Float, beta2: Float, epsilon: Float, weightDecay: Float
    public let decayPolicy: WeightDecayPolicy
    public let parameters: [(name: String, parameter: Parameter)]
    /// First and second moments per entry of `parameters`, updated in place (see `SGD.velocity`).
    private var firstMoments: [Tensor?], secondMoments: [Tensor?]
    private var steps: [Int]

    public init(parameters: [(name: String, parameter: Parameter)], learningRate: Float = 1e-3, beta1: Float = 0.9, beta2: Float = 0.999,
                epsilon: Float = 1e-8, weightDecay: Float = 0.01, decayPolicy: WeightDecayPolicy = .all) throws {
        guard learningRate >= 0, (0..<1).contains(beta1), (0..<1).contains(beta2), epsilon > 0, weightDecay >= 0 else {
            throw TensorError.invalidArgument(op: "AdamW", reason: "learningRate \(learningRate), beta1 \(beta1), beta2 \(beta2), epsilon \(epsilon), weightDecay \(weightDecay): need learningRate ≥ 0, 0 ≤ beta1, beta2 < 1, epsilon > 0, weightDecay ≥ 0")
        }
        self.parameters = parameters
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

    public func step() throws {
        for (index, (name, p)) in parameters.enumerated() where !p.isFrozen {
            guard let gradient = p.gradient else { continue }
            try checkGradientShape(gradient, of: p, named: name, op: "AdamW.step")
            if firstMoments[index] == nil {
                firstMoments[index] = try Tensor(zeros: p.shape)
                secondMoments[index] = try Tensor(zeros: p.shape)
            }
            steps[index] += 1
            let decay = decayPolicy.applies(to: p) ? weightDecay : 0
            let count = p.value.count, step = steps[index]
            p.value.withUnsafeMutableBufferPointer { w in
                firstMoments[index]!.withUnsafeMutableBufferPointer { m in
                    secondMoments[index]!.withUnsafeMutableBufferPointer { v in
                        OptimizerKernels.adamW(parameters: w.baseAddress!, gradients: gradient.pointer, firstMoment: m.baseAddress!, secondMoment: v.baseAddress!,
                                               count: count, learningRate: learningRate, beta1: beta1, beta2: beta2, epsilon: epsilon,
                                               weightDecay: decay, step: step)
                    }
                }
            }
        }
    }

    /// Storage addresses of a parameter's moments (tests check that steps update them in place).
    func momentAddresses(at index: Int) -> (first: UnsafeMutablePointer<Float>, second: UnsafeMutablePointer<Float>)? {
        guard let first = firstMoments[index], let second = secondMoments[index] else { return nil }
        return (first.storage.pointer, second.storage.pointer)
    }
}

/// A gradient of the wrong shape would make the update kernels read out of bounds.
private func checkGradientShape(_ gradient: Tensor, of parameter: Parameter, named name: String, op: String) throws {
    guard gradient.shape == parameter.shape else {
        throw TensorError.shapeMismatch(op: op, shapes: [gradient.shape, parameter.shape], reason: "the gradient of '\(name)' (first) must have the parameter's shape (second)")
    }
}
