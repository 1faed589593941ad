import Foundation
import Kernels
import Tensor

/// An exponential moving average of a model's parameters and buffers, as YOLO trainers keep
/// for evaluation: decay ramps up as d·(1 − e^(−updates/ramp)) so early, noisy weights fade fast.
public final class ExponentialMovingAverage {
    public let decay: Float
    public let rampUpdates: Float
    public private(set) var updates = 0
    private var shadow: [(name: String, tensor: Tensor)]

    public init(model: Module, decay: Float = 0.9999, rampUpdates: Float = 2000) throws {
        guard (0...1).contains(decay), rampUpdates > 0 else {
            throw TensorError.invalidArgument(op: "ExponentialMovingAverage", reason: "decay \(decay), rampUpdates \(rampUpdates): need 0 ≤ decay ≤ 1 and rampUpdates > 0")
        }
        self.decay = decay
        self.rampUpdates = rampUpdates
        shadow = model.stateTensors()
    }

    public var currentDecay: Float { decay * (1 - exp(-Float(updates) / rampUpdates)) }

    /// Moves the average towards the model's current tensors. Throws, changing nothing, when
    /// the model's tensors no longer match the ones the average was made from (another model).
    public func update(from model: Module) throws {
        let current = model.stateTensors()
        guard current.count == shadow.count else {
            throw TensorError.invalidArgument(op: "ExponentialMovingAverage.update", reason: "the model has \(current.count) tensors, the average was made from \(shadow.count); create the average from this model")
        }
        for (average, now) in zip(shadow, current) where average.name != now.name || average.tensor.shape != now.tensor.shape {
            throw TensorError.invalidArgument(op: "ExponentialMovingAverage.update", reason: "the model's tensor '\(now.name)' \(now.tensor.shape) does not match the average's '\(average.name)' \(average.tensor.shape); create the average from this model")
        }
        updates += 1
        let d = currentDecay
        // One parallel loop over pieces of every tensor (`TensorPieces`): the same bits as a loop per tensor.
        let averages = shadow.indices.map { shadow[$0].tensor.uniqueMutablePointer() }
        TensorPieces.forEach(counts: current.map(\.tensor.count)) { i, range in
            OptimizerKernels.emaUpdate(average: averages[i] + range.lowerBound, current: current[i].tensor.pointer + range.lowerBound,
                                       count: range.count, decay: d)
        }
    }

    /// The averaged tensors by name (load them into a copy of the model to evaluate).
    public var averagedState: [String: Tensor] { Dictionary(uniqueKeysWithValues: shadow.map { ($0.name, $0.tensor) }) }

    /// The averaged tensors under the model's own names, so a checkpoint can store them as a
    /// weights file of the model; with `updates` they are the whole state (the decay ramp
    /// depends on the count, so a resume needs it exactly: it is an Int, not a tensor).
    public func stateTensors() -> [(name: String, tensor: Tensor)] { shadow }

    /// Resumes a saved average. Throws `StateLoadError`, changing nothing, unless `tensors` has
    /// exactly this average's names and shapes and `updates` ≥ 0.
    public func loadState(tensors: [String: Tensor], updates: Int) throws {
        let owner = "ExponentialMovingAverage"
        guard updates >= 0 else {
            throw StateLoadError.invalidCounter(owner: owner, name: "updates", value: updates, reason: "an update count is never negative")
        }
        var loaded = shadow
        for index in loaded.indices {
            let name = loaded[index].name
            guard let tensor = tensors[name] else {
                throw StateLoadError.missing(owner: owner, name: name, reason: "the average holds every tensor of its model; was it saved for another model?")
            }
            guard tensor.shape == loaded[index].tensor.shape else {
                throw StateLoadError.shapeMismatch(owner: owner, name: name, expected: loaded[index].tensor.shape, found: tensor.shape)
            }
            loaded[index].tensor = tensor
        }
        if tensors.count != loaded.count {
            let known = Set(loaded.map(\.name))
            throw StateLoadError.unknownParameter(owner: owner, name: tensors.keys.sorted().first { !known.contains($0) }!)
        }
        shadow = loaded
        self.updates = updates
    }

    /// Puts the averaged tensors into `model` (to evaluate it) and returns the tensors they
    /// replaced; `model.load(state:)` with them restores the training weights. Throws, changing
    /// nothing, when the model is not the one the average was made from.
    @discardableResult
    public func applyAverage(to model: Module) throws -> [String: Tensor] {
        let replaced = Dictionary(uniqueKeysWithValues: model.stateTensors().map { ($0.name, $0.tensor) })
        try model.load(state: averagedState)
        return replaced
    }

    /// Runs `body` with the averaged tensors in `model` and puts the training ones back
    /// afterwards, also when `body` throws.
    public func withAverage<Result>(appliedTo model: Module, _ body: () throws -> Result) throws -> Result {
        let training = try applyAverage(to: model)
        defer { try! model.load(state: training) }  // the model's own tensors: names and shapes fit by construction
        return try body()
    }
}
