/// A kernel was called with arguments it cannot honour. The message names the operation and
/// the offending numbers so the caller (usually a layer constructor) can say what to change.
public enum KernelError: Error, CustomStringConvertible, Equatable {
    case invalidArgument(op: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidArgument(op, reason): return "\(op): \(reason)"
        }
    }
}
