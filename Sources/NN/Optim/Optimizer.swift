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
    private var velocity: [ObjectIdentifier: Tensor] = [:]

    public init(parameters: [(name: String, parameter: Parameter)], learningRate: Float, momentum: Float = 0, dampening: Float = 0,
                weightDecay: Float = 0, nesterov: Bool = false, decayPolicy: WeightDecayPolicy = .all) throws {
        guard learningRate >= 0, momentum >= 0, weightDecay >= 0, !(nesterov && (momentum <= 0 || dampening != 0)) else {
            throw TensorError.invalidArgument(op: "SGD", reason: "need learningRate, momentum, weightDecay ≥ 0; Nesterov needs momentum > 0 and no dampening")
        }
        self.parameters = parameters
        self.learningRate = learningRate
        self.momentum = momentum
        self.dampening = dampening
        self.weightDecay = weightDecay
        self.nesterov = nesterov
        self.decayPolicy = decayPolicy
    }

    public func step() throws {
        for (_, p) in parameters where !p.isFrozen {
            guard let gradient = p.gradient else { continue }
            let key = ObjectIdentifier(p)
            var buffer = velocity[key]
            let isFirst = buffer == nil
            if momentum > 0, buffer == nil { buffer = Tensor(zeros: p.shape) }
            let decay = decayPolicy.applies(to: p) ? weightDecay : 0
            let count = p.value.count
            p.value.withUnsafeMutableBufferPointer { w in
                if var v = buffer {
                    v.withUnsafeMutableBufferPointer { vb in
                        // PyTorch initialises the buffer with the first gradient (no dampening on step 1).
                        OptimizerKernels.sgd(parameters: w.baseAddress!, gradients: gradient.pointer, velocity: vb.baseAddress!, count: count,
                                             learningRate: learningRate, momentum: momentum, dampening: dampening,
                                             weightDecay: decay, nesterov: nesterov, firstStep: isFirst)
                    }
                    velocity[key] = v
                } else {
                    OptimizerKernels.sgd(parameters: w.baseAddress!, gradients: gradient.pointer, velocity: nil, count: count,
                                         learningRate: learningRate, momentum: 0, dampening: 0, weightDecay: decay, nesterov: false)
                }
            }
        }
    }
}

/// AdamW (Loshchilov & Hutter): Adam with weight decay applied to the weights, not the gradient.
public final class AdamW: Optimizer {
    public var learningRate: Float
    public let beta1: Float, beta2: Float, epsilon: Float, weightDecay: Float
    public let decayPolicy: WeightDecayPolicy
    public let parameters: [(name: String, parameter: Parameter)]
    private var moments: [ObjectIdentifier: (first: Tensor, second: Tensor, step: Int)] = [:]

    public init(parameters: [(name: String, parameter: Parameter)], learningRate: Float = 1e-3, beta1: Float = 0.9, beta2: Float = 0.999,
                epsilon: Float = 1e-8, weightDecay: Float = 0.01, decayPolicy: WeightDecayPolicy = .all) throws {
        guard learningRate >= 0, (0..<1).contains(beta1), (0..<1).contains(beta2), epsilon > 0, weightDecay >= 0 else {
            throw TensorError.invalidArgument(op: "AdamW", reason: "need learningRate ≥ 0, 0 ≤ beta1, beta2 < 1, epsilon > 0, weightDecay ≥ 0")
        }
        self.parameters = parameters
        self.learningRate = learningRate
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.weightDecay = weightDecay
        self.decayPolicy = decayPolicy
    }

    public func step() throws {
        for (_, p) in parameters where !p.isFrozen {
            guard let gradient = p.gradient else { continue }
            let key = ObjectIdentifier(p)
            var state = moments[key] ?? (Tensor(zeros: p.shape), Tensor(zeros: p.shape), 0)
            state.step += 1
            let decay = decayPolicy.applies(to: p) ? weightDecay : 0
            let count = p.value.count, step = state.step
            p.value.withUnsafeMutableBufferPointer { w in
                state.first.withUnsafeMutableBufferPointer { m in
                    state.second.withUnsafeMutableBufferPointer { v in
                        OptimizerKernels.adamW(parameters: w.baseAddress!, gradients: gradient.pointer, firstMoment: m.baseAddress!, secondMoment: v.baseAddress!,
                                               count: count, learningRate: learningRate, beta1: beta1, beta2: beta2, epsilon: epsilon,
                                               weightDecay: decay, step: step)
                    }
                }
            }
            moments[key] = state
        }
    }
}
