/// A benchmark that could not measure what it was asked to (the loader stopped, no batch came).
public struct BenchmarkError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
