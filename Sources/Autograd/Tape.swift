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
    /// When set, forward and backward time is accumulated per op kind (for `bench engine`).
    public var profile: OpProfile?

    /// Gradient of an op's output → gradients of its inputs (nil where `needed` is false).
    public typealias Pullback = (_ gradOutput: Tensor, _ needed: [Bool]) throws -> [Tensor?]

    struct Record {
        let kind: OpKind
        let output: Int
        let inputs: [Int]
        let pullback: Pullback
    }

    private var records: [Record?] = []
    private var parameterLeaves: [(id: Int, parameter: Parameter)] = []
    private var slotCount = 0

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
        records.append(Record(kind: kind, output: id, inputs: inputs.map(\.id), pullback: pullback))
        return Variable(value: output, tape: self, id: id)
    }

    /// Runs `body` and charges its time to `kind` when profiling.
    @inline(__always)
    public func timed<T>(_ kind: OpKind, _ body: () throws -> T) rethrows -> T {
        guard let profile else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { profile.add(kind, forward: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
        return try body()
    }

    /// Back-propagates from `output` (a scalar unless `seed` is given), accumulates into
    /// parameters' gradients, and returns the gradients of leaves. Records are released as
    /// they are consumed, so activations are freed during the backward pass; the tape cannot
    /// be differentiated twice.
    @discardableResult
    public func backward(_ output: Variable, seed: Tensor? = nil) throws -> Gradients {
        guard output.tape === self else { throw TensorError.invalidArgument(op: "backward", reason: "variable belongs to another tape") }
        guard output.id >= 0 else { throw TensorError.invalidArgument(op: "backward", reason: "output does not depend on any parameter or leaf") }
        if seed == nil, output.value.count != 1 {
            throw TensorError.shapeMismatch(op: "backward", shapes: [output.shape], reason: "backward without a seed needs a scalar output")
        }
        var gradients = [Tensor?](repeating: nil, count: slotCount)
        gradients[output.id] = seed ?? Tensor(repeating: 1, shape: output.shape)
        for index in stride(from: records.count - 1, through: 0, by: -1) {
            guard let record = records[index] else { continue }
            records[index] = nil
            guard let gradOutput = gradients[record.output] else { continue }
            gradients[record.output] = nil
            let needed = record.inputs.map { $0 >= 0 }
            let start = profile == nil ? 0 : DispatchTime.now().uptimeNanoseconds
            let inputGradients = try record.pullback(gradOutput, needed)
            if let profile { profile.add(record.kind, forward: false, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
            for (slot, gradient) in zip(record.inputs, inputGradients) where slot >= 0 {
                guard let gradient else { continue }
                Tape.accumulate(gradient, into: &gradients[slot])
            }
        }
        for (id, parameter) in parameterLeaves {
            guard let gradient = gradients[id] else { continue }
            if parameter.gradient == nil { parameter.gradient = gradient } else { Tape.accumulate(gradient, into: &parameter.gradient) }
            gradients[id] = nil
        }
        parameterLeaves.removeAll()
        return Gradients(values: gradients)
    }

    static func accumulate(_ gradient: Tensor, into slot: inout Tensor?) {
        guard var existing = slot else { slot = gradient; return }
        precondition(existing.shape == gradient.shape, "gradient shape \(gradient.shape) for a value of shape \(existing.shape)")
        slot = nil // drop our reference so the write below does not copy needlessly
        existing.withUnsafeMutableBufferPointer { Vector.accumulate(gradient.pointer, into: $0.baseAddress!, count: $0.count) }
        slot = existing
    }
}

/// Gradients of leaf variables after `Tape.backward`.
public struct Gradients {
    let values: [Tensor?]
    public subscript(_ variable: Variable) -> Tensor? { variable.id >= 0 && variable.id < values.count ? values[variable.id] : nil }
}

/// Time per op kind, forward and backward, accumulated over a profiled run.
public final class OpProfile {
    public private(set) var forwardNanoseconds: [OpKind: UInt64] = [:]
    public private(set) var backwardNanoseconds: [OpKind: UInt64] = [:]
    public private(set) var calls: [OpKind: Int] = [:]
    public init() {}

    func add(_ kind: OpKind, forward: Bool, nanoseconds: UInt64) {
        if forward {
            forwardNanoseconds[kind, default: 0] += nanoseconds
            calls[kind, default: 0] += 1
        } else {
            backwardNanoseconds[kind, default: 0] += nanoseconds
        }
    }

    public func reset() { forwardNanoseconds = [:]; backwardNanoseconds = [:]; calls = [:] }
}
