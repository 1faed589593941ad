import Dispatch

/// Seconds since creation (or since the last `lap()`), from the monotonic clock: the one
/// place benchmarks, progress lines and commands measure elapsed time.
public struct Stopwatch {
    private var start = DispatchTime.now().uptimeNanoseconds

    public init() {}

    /// Seconds since creation or the last `lap()`.
    public var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// Seconds since creation or the last lap, and starts the next lap.
    public mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { start = now }
        return Double(now - start) / 1e9
    }
}
