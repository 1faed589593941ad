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
        for i in shadow.indices {
            let source = current[i].tensor
            shadow[i].tensor.withUnsafeMutableBufferPointer {
                OptimizerKernels.emaUpdate(average: $0.baseAddress!, current: source.pointer, count: source.count, decay: d)
            }
        }
    }

    /// The averaged tensors by name (load them into a copy of the model to evaluate).
    public var averagedState: [String: Tensor] { Dictionary(uniqueKeysWithValues: shadow.map { ($0.name, $0.tensor) }) }
}
