/// Errors from tensor operations: each names the op and the shapes involved so a user can act on it.
public enum TensorError: Error, CustomStringConvertible, Equatable {
    case shapeMismatch(op: String, shapes: [[Int]], reason: String)
    case invalidArgument(op: String, reason: String)
    case nonFinite(what: String, detail: String)

    public var description: String {
        switch self {
        case let .shapeMismatch(op, shapes, reason):
            return "\(op): shape mismatch \(shapes.map { "\($0)" }.joined(separator: " vs ")): \(reason)"
        case let .invalidArgument(op, reason):
            return "\(op): invalid argument: \(reason)"
        case let .nonFinite(what, detail):
            return "non-finite value in \(what): \(detail)"
        }
    }
}
