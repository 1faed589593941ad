import Tensor

/// A trainable (or frozen) tensor owned by a module. Gradients from `Tape.backward`
/// accumulate into `gradient`; optimizers read and clear it.
public final class Parameter {
    public var value: Tensor
    public var gradient: Tensor?
    /// Frozen parameters enter graphs as constants: no gradient, no optimizer update.
    public var isFrozen = false

    public init(_ value: Tensor) { self.value = value }

    public var shape: [Int] { value.shape }

    public func zeroGradient() { gradient = nil }
}
