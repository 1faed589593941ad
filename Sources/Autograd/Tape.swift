import Dispatch
import Kernels
import Tensor

/// Reverse-mode autograd on an explicit tape.
///
/// Each op appends one record holding a pullback closure that captures the tensors it needs
/// (never the tape or a variable), so the graph has no reference cycles: dropping the tape
/// frees everything. There is no global state — a non-recording tape is the no-grad mode.
public final class Tape {
    public let isRecording: Bool
    /// When set, forward and backward time is accumulated per layer role (see `profiled(as:)`),
    /// or per op kind for ops run outside any labelled layer (for `bench engine`).
    public var profile: OpProfile?

    /// Gradient of an op's output → gradients of its inputs (nil where `needed` is false).
    public typealias Pullback = (_ gradOutput: Tensor, _ needed: [Bool]) throws -> [Tensor?]

    struct Record {
        let kind: OpKind
        /// The layer role the op ran under when profiling (nil otherwise).
        let label: String?
        let output: Int
        let inputs: [Int]
        /// The inputs' value shapes, which the pullback's gradients must have.
        let inputShapes: [[Int]]
        let pullback: Pullback
    }

    private var records: [Record?] = []
    private var parameterLeaves: [(id: Int, parameter: Parameter)] = []
    private var slotCount = 0
    /// Set by the first `backward`, which consumes the records.
    private var isConsumed = false
    private var currentLabel: String?

    public init(recording: Bool = true) { isRecording = recording }

    /// A tape that records nothing: ops only compute values (inference, EMA evaluation).
    public static func noGradient() -> Tape { Tape(recording: false) }

    public func constant(_ value: Tensor) -> Variable { Variable(value: value, tape: self, id: -1) }

    /// A leaf whose gradient `backward` returns (inputs in gradient checks, adversarial inputs).
    public func leaf(_ value: Tensor) -> Variable {
        guard isRecording else { return constant(value) }
        return Variable(value: value, tape: self, id: newSlot())
    }

    /// A parameter enters the graph; its gradient accumulates into `parameter.gradient`.
    public func parameter(_ parameter: Parameter) -> Variable {
        guard isRecording, !parameter.isFrozen else { return constant(parameter.value) }
        let id = newSlot()
        parameterLeaves.append((id, parameter))
        return Variable(value: parameter.value, tape: self, id: id)
    }

    private func newSlot() -> Int {
        defer { slotCount += 1 }
        return slotCount
    }

    /// Records an op whose value is already computed. Constant-only inputs make a constant.
    public func record(_ kind: OpKind, inputs: [Variable], output: Tensor, pullback: @escaping Pullback) -> Variable {
        guard isRecording, inputs.contains(where: { $0.id >= 0 }) else { return constant(output) }
        let id = newSlot()
        records.append(Record(kind: kind, label: currentLabel, output: id, inputs: inputs.map(\.id), inputShapes: inputs.map(\.shape),
                              pullback: pullback))
        return Variable(value: output, tape: self, id: id)
    }

    /// Runs `body` with the ops it records charged to `label` in the profile, forward and
    /// backward (a layer's role, e.g. "pointwise 1×1"). A nil label keeps the enclosing one,
    /// so a block can label everything inside it that its layers do not label themselves.
    /// Without a profile this is just `body()`.
    @inline(__always)
    public func profiled<T>(as label: String?, _ body: () throws -> T) rethrows -> T {
        guard profile != nil, let label else { return try body() }
        let outer = currentLabel
        currentLabel = label
        defer { currentLabel = outer }
        return try body()
    }

    /// Runs `body` and charges its time to the current label (or `kind`) when profiling.
    @inline(__always)
    public func timed<T>(_ kind: OpKind, _ body: () throws -> T) rethrows -> T {
        guard let profile else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { profile.add(currentLabel ?? kind.rawValue, forward: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
        return try body()
    }

    /// Charges `body`'s time to `label` as forward time when profiling: work a step does on
    /// tensor values beside the recorded ops (target assignment), so a profile accounts for it.
    @inline(__always)
    public func timed<T>(as label: String, _ body: () throws -> T) rethrows -> T {
        guard let profile else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { profile.add(label, forward: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
        return try body()
    }

    /// Back-propagates from `output` (a scalar unless `seed`, shaped like `output`, is given),
    /// accumulates into parameters' gradients, and returns the gradients of leaves. Records
    /// are released as they are consumed, so activations are freed during the backward pass;
    /// a second `backward` on the same tape therefore throws (record the graph again on a new tape).
    @discardableResult
    public func backward(_ output: Variable, seed: Tensor? = nil) throws -> Gradients {
        guard output.tape === self else { throw TensorError.invalidArgument(op: "backward", reason: "variable belongs to another tape") }
        guard !isConsumed else {
            throw TensorError.invalidArgument(op: "backward", reason: "this tape was already differentiated and its records released; record the forward pass on a new Tape to differentiate again")
        }
        guard output.id >= 0 else { throw TensorError.invalidArgument(op: "backward", reason: "output does not depend on any parameter or leaf") }
        if let seed, seed.shape != output.shape {
            throw TensorError.shapeMismatch(op: "backward", shapes: [seed.shape, output.shape], reason: "the seed (first) must have the output's shape (second)")
        }
        if seed == nil, output.value.count != 1 {
            throw TensorError.shapeMismatch(op: "backward", shapes: [output.shape], reason: "backward without a seed needs a scalar output")
        }
        isConsumed = true
        var gradients = [Tensor?](repeating: nil, count: slotCount)
        gradients[output.id] = seed ?? Tensor(shape: output.shape, storage: TensorStorage(repeating: 1, count: 1))
        for index in stride(from: records.count - 1, through: 0, by: -1) {
            guard let record = records[index] else { continue }
            records[index] = nil
            guard let gradOutput = gradients[record.output] else { continue }
            gradients[record.output] = nil
            let needed = record.inputs.map { $0 >= 0 }
            let start = profile == nil ? 0 : DispatchTime.now().uptimeNanoseconds
            let inputGradients = try record.pullback(gradOutput, needed)
            if let profile { profile.add(record.label ?? record.kind.rawValue, forward: false, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
            try Tape.check(inputGradients, from: record)
            for (slot, gradient) in zip(record.inputs, inputGradients) where slot >= 0 {
                guard let gradient else { continue }
                Tape.accumulate(gradient, into: &gradients[slot])
            }
        }
        records.removeAll()
        for (id, parameter) in parameterLeaves {
            guard let gradient = gradients[id] else { continue }
            if parameter.gradient == nil { parameter.gradient = gradient } else { Tape.accumulate(gradient, into: &parameter.gradient) }
            gradients[id] = nil
        }
        parameterLeaves.removeAll()
        return Gradients(values: gradients)
    }

    /// A pullback returns one gradient per input, each nil or shaped like that input. A wrong
    /// one is an error naming the op here, not a precondition failure in `accumulate` (or a
    /// silently mis-shaped leaf gradient when nothing else accumulates into the slot).
    static func check(_ gradients: [Tensor?], from record: Record) throws {
        let op = "backward of \(record.kind.rawValue)"
        guard gradients.count == record.inputs.count else {
            throw TensorError.invalidArgument(op: op, reason: "the pullback returned \(gradients.count) gradients for the op's \(record.inputs.count) inputs")
        }
        for (index, (gradient, expected)) in zip(gradients, record.inputShapes).enumerated() {
            guard let gradient, gradient.shape != expected else { continue }
            throw TensorError.shapeMismatch(op: op, shapes: [gradient.shape, expected],
                                            reason: "the pullback's gradient for input \(index) (first) must have that input's shape (second)")
        }
    }

    static func accumulate(_ gradient: Tensor, into slot: inout Tensor?) {
        guard var existing = slot else { slot = gradient; return }
        precondition(existing.shape == gradient.shape, "gradient shape \(gradient.shape) for a value of shape \(existing.shape)")
        slot = nil // drop our reference so the write below does not copy needlessly
        existing.withUnsafeMutableBufferPointer { Vector.accumulateInParallel(gradient.pointer, into: $0.baseAddress!, count: $0.count) }
        slot = existing
    }
}

/// Gradients of leaf variables after `Tape.backward`.
public struct Gradients {
    let values: [Tensor?]
    public subscript(_ variable: Variable) -> Tensor? { variable.id >= 0 && variable.id < values.count ? values[variable.id] : nil }
}
