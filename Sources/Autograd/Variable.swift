import Tensor

/// A value in a computation recorded on a `Tape`. Variables are cheap handles: the tape owns
/// the backward rules, a variable only knows its value and its slot on the tape.
public struct Variable {
    public let value: Tensor
    public let tape: Tape
    /// Slot on the tape, or -1 for a constant (no gradient flows into it).
    let id: Int

    init(value: Tensor, tape: Tape, id: Int) {
        self.value = value
        self.tape = tape
        self.id = id
    }

    public var shape: [Int] { value.shape }
    public var requiresGradient: Bool { id >= 0 }
}
