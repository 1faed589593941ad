import Autograd
import Tensor

/// Updates parameters from their gradients. Frozen parameters and parameters without a
/// gradient are skipped; `step` leaves gradients in place, `zeroGradients` clears them.
///
/// Build an optimizer over all of a model's `namedParameters()`, frozen ones included: they are
/// skipped while frozen, and a parameter unfrozen later (staged transfer learning) is then
/// updated and gets its state on its first step, as it would in PyTorch.
///
/// State for an exact resume comes in two parts, so that nothing passes through a Float that
/// cannot hold it: tensors named `kind/parameter` (`momentum/backbone.stem.weight`,
/// `adam.m/…`, `adam.v/…`), and integer counters (`adam.step/…`), which a checkpoint stores as
/// integers — a step count passes 2^24 in a long run, where Float stops counting exactly.
/// Only parameters that have taken a step have state.
public protocol Optimizer: AnyObject {
    /// The base rate, as a schedule sets it; each parameter group scales it (`ParameterGroup`).
    var learningRate: Float { get set }
    var parameters: [(name: String, parameter: Parameter)] { get }
    func step() throws
    func stateTensors() -> [(name: String, tensor: Tensor)]
    func stateCounters() -> [String: Int]
    /// Replaces the whole state with a saved one (a parameter absent from it starts afresh).
    /// Throws `StateLoadError`, changing nothing, on a name this optimizer does not store, a
    /// parameter it does not hold, a wrong shape or a partial entry.
    func loadState(tensors: [String: Tensor], counters: [String: Int]) throws
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

/// A gradient of the wrong shape would make the update kernels read out of bounds.
func checkGradientShape(_ gradient: Tensor, of parameter: Parameter, named name: String, op: String) throws {
    guard gradient.shape == parameter.shape else {
        throw TensorError.shapeMismatch(op: op, shapes: [gradient.shape, parameter.shape], reason: "the gradient of '\(name)' (first) must have the parameter's shape (second)")
    }
}

/// Every unfrozen parameter's gradient checked before the first update, so a refused step
/// changes no tensor and no counter.
func checkGradientShapes(_ parameters: [(name: String, parameter: Parameter)], op: String) throws {
    for (name, p) in parameters where !p.isFrozen {
        if let gradient = p.gradient { try checkGradientShape(gradient, of: p, named: name, op: op) }
    }
}
