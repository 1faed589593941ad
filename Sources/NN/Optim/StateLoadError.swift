import Tensor

/// Why saved optimizer or moving-average state does not fit the object it is loaded into.
/// Each names the entry and says what to check; the target is left unchanged.
public enum StateLoadError: Error, Equatable, CustomStringConvertible {
    /// A name this owner does not store: another optimizer's state, or another kind of file.
    case unknownName(owner: String, name: String, stores: String)
    /// State for a parameter or tensor the owner does not hold (another model).
    case unknownParameter(owner: String, name: String)
    case shapeMismatch(owner: String, name: String, expected: [Int], found: [Int])
    case missing(owner: String, name: String, reason: String)
    case invalidCounter(owner: String, name: String, value: Int, reason: String)

    public var description: String {
        switch self {
        case let .unknownName(owner, name, stores):
            return "\(owner) state has an entry '\(name)', but this \(owner) stores \(stores); was it saved by another optimizer or configuration?"
        case let .unknownParameter(owner, name):
            return "\(owner) state has an entry '\(name)' for a tensor this \(owner) does not hold; was it saved for another model?"
        case let .shapeMismatch(owner, name, expected, found):
            return "\(owner) state '\(name)' has shape \(found), the parameter has \(expected); was it saved for another model?"
        case let .missing(owner, name, reason):
            return "\(owner) state lacks '\(name)': \(reason)"
        case let .invalidCounter(owner, name, value, reason):
            return "\(owner) state counter '\(name)' is \(value): \(reason)"
        }
    }
}

extension ResolvedParameters {
    /// The kind and parameter index of a state name `kind/parameter`, checked against `kinds`
    /// and these parameters.
    func locateState(_ name: String, kinds: [String], owner: String) throws -> (kind: String, index: Int) {
        let stores = kinds.isEmpty ? "nothing" : "only " + kinds.map { "'\($0)/<parameter>'" }.joined(separator: ", ")
        guard let slash = name.firstIndex(of: "/"), kinds.contains(String(name[..<slash])) else {
            throw StateLoadError.unknownName(owner: owner, name: name, stores: stores)
        }
        guard let index = indexByName[String(name[name.index(after: slash)...])] else {
            throw StateLoadError.unknownParameter(owner: owner, name: name)
        }
        return (String(name[..<slash]), index)
    }

    /// `locateState` plus a check that the tensor has its parameter's shape.
    func locateState(_ name: String, tensor: Tensor, kinds: [String], owner: String) throws -> (kind: String, index: Int) {
        let located = try locateState(name, kinds: kinds, owner: owner)
        let expected = entries[located.index].parameter.shape
        guard tensor.shape == expected else {
            throw StateLoadError.shapeMismatch(owner: owner, name: name, expected: expected, found: tensor.shape)
        }
        return located
    }
}
