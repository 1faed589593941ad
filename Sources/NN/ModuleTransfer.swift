import Autograd
import Tensor

/// What `Module.load(transferringFrom:…)` did, name by name (model names, after renaming).
public struct TransferReport: Equatable, CustomStringConvertible {
    public struct ShapeMismatch: Equatable {
        public let name: String, modelShape: [Int], sourceShape: [Int]
    }

    public var loaded: [String] = []
    /// Model tensors (within the selection) the source has no tensor for: they keep their values.
    public var missing: [String] = []
    /// Source tensors (renamed, within the selection) the model lacks.
    public var unexpected: [String] = []
    /// Tensors both have, with different shapes (a head for another class count): not loaded.
    public var shapeMismatched: [ShapeMismatch] = []

    public var description: String {
        var lines = ["loaded \(loaded.count) tensors"]
        if !missing.isEmpty { lines.append("kept \(missing.count) the source lacks: \(missing.joined(separator: ", "))") }
        if !unexpected.isEmpty { lines.append("ignored \(unexpected.count) the model lacks: \(unexpected.joined(separator: ", "))") }
        if !shapeMismatched.isEmpty {
            lines.append("skipped \(shapeMismatched.count) of another shape: "
                         + shapeMismatched.map { "\($0.name) (model \($0.modelShape), source \($0.sourceShape))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

extension Module {
    /// Transfer learning: loads the tensors of another model's state that fit this one, by name,
    /// and reports the rest instead of refusing (`load(state:strict:)` stays the strict reader
    /// for this model's own weights files).
    ///
    /// - `renamingPrefixes`: source prefix → model prefix, on dotted-name boundaries
    ///   (`["model.backbone": "backbone"]` reads `model.backbone.stem.weight` as `backbone.stem.weight`;
    ///   `""` as a key adds a prefix to every name). The longest matching source prefix wins.
    /// - `only`: model prefixes to load (`["backbone"]` takes just the backbone); tensors
    ///   outside them are neither loaded nor reported. `[""]` takes everything.
    /// - `skipMismatched`: a tensor whose shape differs is skipped and reported; otherwise it
    ///   throws `ModuleError.shapeMismatch`.
    ///
    /// Throws, changing nothing, on a shape mismatch (unless skipped), two source tensors renamed
    /// to one name, or when nothing at all would load (the renaming is probably wrong).
    @discardableResult
    public final func load(transferringFrom source: [String: Tensor], renamingPrefixes: [String: String] = [:],
                           only prefixes: [String] = [""], skipMismatched: Bool = false) throws -> TransferReport {
        let selected = { (name: String) in prefixes.contains { Module.name(name, isUnder: $0) } }
        var renamed: [String: (sourceName: String, tensor: Tensor)] = [:]
        for (sourceName, tensor) in source.sorted(by: { $0.key < $1.key }) {
            let name = Module.rename(sourceName, prefixes: renamingPrefixes)
            guard selected(name) else { continue }
            if let other = renamed.updateValue((sourceName, tensor), forKey: name) {
                throw ModuleError.ambiguousRename(name: name, sources: [other.sourceName, sourceName])
            }
        }
        var report = TransferReport()
        var assignments: [(apply: (Tensor) -> Void, tensor: Tensor)] = []
        typealias Target = (name: String, shape: [Int], apply: (Tensor) -> Void)
        let targets: [Target] = namedParameters().map { entry in (entry.name, entry.parameter.shape, { entry.parameter.value = $0 }) }
            + namedBuffers().map { entry in (entry.name, entry.buffer.value.shape, { entry.buffer.value = $0 }) }
        for (name, shape, apply) in targets where selected(name) {
            guard let (_, tensor) = renamed.removeValue(forKey: name) else { report.missing.append(name); continue }
            guard tensor.shape == shape else {
                if !skipMismatched { throw ModuleError.shapeMismatch(name: name, expected: shape, found: tensor.shape) }
                report.shapeMismatched.append(.init(name: name, modelShape: shape, sourceShape: tensor.shape))
                continue
            }
            report.loaded.append(name)
            assignments.append((apply, tensor))
        }
        report.unexpected = renamed.keys.sorted()
        guard !assignments.isEmpty else {
            throw ModuleError.nothingTransferred(sourceExamples: Array(source.keys.sorted().prefix(3)),
                                                 modelExamples: Array(stateTensors().map(\.name).prefix(3)))
        }
        for (apply, tensor) in assignments { apply(tensor) }
        return report
    }

    /// `name` with its longest matching source prefix replaced (dotted-name boundaries).
    static func rename(_ name: String, prefixes: [String: String]) -> String {
        func trimmed(_ prefix: String) -> String { prefix.hasSuffix(".") ? String(prefix.dropLast()) : prefix }
        let matches = prefixes.filter { Module.name(name, isUnder: trimmed($0.key)) }
        guard let (from, to) = matches.max(by: { (trimmed($0.key).count, $0.key) < (trimmed($1.key).count, $1.key) }) else { return name }
        let source = trimmed(from)
        let rest = source.isEmpty ? name : String(name.dropFirst(source.count).drop { $0 == "." })
        return rest.isEmpty ? trimmed(to) : join(trimmed(to), rest)
    }
}
