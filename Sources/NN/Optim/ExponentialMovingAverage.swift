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

    public init(model: Module, decay: Float = 0.9999, rampUpdates: Float = 2000) {
        self.decay = decay
        self.rampUpdates = rampUpdates
        shadow = model.stateTensors()
    }

    public var currentDecay: Float { decay * (1 - exp(-Float(updates) / rampUpdates)) }

    public func update(from model: Module) {
        updates += 1
        let d = currentDecay
        let current = model.stateTensors()
        precondition(current.count == shadow.count, "EMA: the model's tensors changed since the average was created")
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
