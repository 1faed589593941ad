import Autograd
import Tensor

/// A non-trainable tensor a module keeps (batch-norm running statistics).
public final class Buffer {
    public var value: Tensor
    public init(_ value: Tensor) { self.value = value }
}

/// Base class of every layer and model. Subclasses list their own parameters, buffers and
/// children; everything else (dotted names, train/eval, freezing, state loading) is here.
open class Module {
    public private(set) var isTraining = true

    /// The layer role this module's ops are charged to when a tape is profiled (the per-layer
    /// table of `bench engine`), e.g. "pointwise 1×1". Nil keeps the enclosing module's label
    /// (or, outside any, the op kind). Layers that record ops honour it via `profiled(on:)`.
    public var profileLabel: String?

    public init() {}

    /// Runs a forward body with its ops charged to `profileLabel` when `tape` is profiled.
    @inline(__always)
    public final func profiled<T>(on tape: Tape, _ body: () throws -> T) rethrows -> T {
        try tape.profiled(as: profileLabel, body)
    }

    /// This module's own parameters, in a stable order (children's are added by `namedParameters`).
    open var ownParameters: [(name: String, parameter: Parameter)] { [] }
    open var ownBuffers: [(name: String, buffer: Buffer)] { [] }
    open var children: [(name: String, module: Module)] { [] }

    /// Every module below (and including) this one with its dotted path ("" for self).
    public final func namedModules(prefix: String = "") -> [(name: String, module: Module)] {
        var result = [(prefix, self)]
        for (name, child) in children { result += child.namedModules(prefix: Module.join(prefix, name)) }
        return result
    }

    /// Parameters with PyTorch-style dotted names, e.g. `backbone.stage4.2.pointwise.weight`.
    public final func namedParameters() -> [(name: String, parameter: Parameter)] {
        namedModules().flatMap { path, module in module.ownParameters.map { (Module.join(path, $0.name), $0.parameter) } }
    }

    public final func namedBuffers() -> [(name: String, buffer: Buffer)] {
        namedModules().flatMap { path, module in module.ownBuffers.map { (Module.join(path, $0.name), $0.buffer) } }
    }

    /// Parameters an optimizer should update (not frozen).
    public final func trainableParameters() -> [(name: String, parameter: Parameter)] {
        namedParameters().filter { !$0.parameter.isFrozen }
    }

    public final func parameterCount() -> Int { namedParameters().reduce(0) { $0 + $1.parameter.value.count } }

    /// Training mode: batch norm uses batch statistics and updates its running averages.
    public final func train() { namedModules().forEach { $0.module.isTraining = true } }
    /// Eval mode: batch norm is a fixed per-channel affine from its running statistics.
    public final func eval() { namedModules().forEach { $0.module.isTraining = false } }

    /// Freezes every parameter whose dotted name starts with one of `prefixes` ("" freezes all).
    /// Frozen parameters get no gradient and no update; a batch norm with γ or β frozen also
    /// stops using and updating batch statistics (see `BatchNorm2d`).
    @discardableResult
    public final func freeze(prefixes: [String]) -> Int {
        setFrozen(true, prefixes: prefixes)
    }

    @discardableResult
    public final func unfreeze(prefixes: [String]) -> Int {
        setFrozen(false, prefixes: prefixes)
    }

    private func setFrozen(_ frozen: Bool, prefixes: [String]) -> Int {
        var changed = 0
        for (name, parameter) in namedParameters() where prefixes.contains(where: { Module.name(name, isUnder: $0) }) {
            parameter.isFrozen = frozen
            changed += 1
        }
        return changed
    }

    /// `backbone.stage4.2.weight` is under `backbone.stage4` and `backbone.stage4.2`, not `backbone.stage4.20`.
    public static func name(_ name: String, isUnder prefix: String) -> Bool {
        prefix.isEmpty || name == prefix || name.hasPrefix(prefix.hasSuffix(".") ? prefix : prefix + ".")
    }

    /// Parameters and buffers by dotted name (what a weights file stores).
    public final func stateTensors() -> [(name: String, tensor: Tensor)] {
        namedParameters().map { ($0.name, $0.parameter.value) } + namedBuffers().map { ($0.name, $0.buffer.value) }
    }

    /// Loads parameters and buffers by name. Throws on the first missing, unexpected (when
    /// `strict`) or wrongly shaped tensor, naming it; nothing is changed unless all check out.
    public final func load(state: [String: Tensor], strict: Bool = true) throws {
        let parameters = namedParameters(), buffers = namedBuffers()
        var expected: [String: [Int]] = [:]
        for (name, p) in parameters { expected[name] = p.shape }
        for (name, b) in buffers { expected[name] = b.value.shape }
        for (name, shape) in expected.sorted(by: { $0.key < $1.key }) {
            guard let tensor = state[name] else {
                if strict { throw ModuleError.missingTensor(name) } else { continue }
            }
            guard tensor.shape == shape else { throw ModuleError.shapeMismatch(name: name, expected: shape, found: tensor.shape) }
        }
        if strict, let extra = state.keys.sorted().first(where: { expected[$0] == nil }) { throw ModuleError.unexpectedTensor(extra) }
        for (name, p) in parameters { if let t = state[name] { p.value = t } }
        for (name, b) in buffers { if let t = state[name] { b.value = t } }
    }

    /// Expected name → shape of every parameter and buffer (for validating weights files).
    public final func stateShapes() -> [(name: String, shape: [Int])] {
        stateTensors().map { ($0.name, $0.tensor.shape) }
    }

    static func join(_ prefix: String, _ name: String) -> String { prefix.isEmpty ? name : "\(prefix).\(name)" }
}

/// A module with one input and one output.
public protocol Layer: Module {
    func callAsFunction(_ x: Variable) throws -> Variable
}

public enum ModuleError: Error, CustomStringConvertible, Equatable {
    case missingTensor(String)
    case unexpectedTensor(String)
    case shapeMismatch(name: String, expected: [Int], found: [Int])
    /// Transfer: two source tensors renamed to the same model name.
    case ambiguousRename(name: String, sources: [String])
    /// Transfer: no source tensor fits the model under the renaming and selection given.
    case nothingTransferred(sourceExamples: [String], modelExamples: [String])

    public var description: String {
        switch self {
        case let .missingTensor(name): return "the weights have no tensor '\(name)', which the model needs (wrong architecture or class count?)"
        case let .unexpectedTensor(name): return "the weights hold a tensor '\(name)' the model does not have (wrong architecture?)"
        case let .shapeMismatch(name, expected, found): return "shape of '\(name)' does not match the model: expected \(expected), found \(found)"
        case let .ambiguousRename(name, sources):
            return "the renaming maps \(sources.map { "'\($0)'" }.joined(separator: " and ")) both to '\(name)'; make the prefixes distinct"
        case let .nothingTransferred(sourceExamples, modelExamples):
            return "no tensor of the source fits the model: source names look like \(sourceExamples), the model's like \(modelExamples); rename prefixes (renamingPrefixes) or check the selection (only)"
        }
    }
}
