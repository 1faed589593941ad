import Tensor

/// How far two tensors' values are apart. Compiled optimized like the engine (Package.swift): the
/// tests compare whole detector outputs, hundreds of thousands of values per call, which a -Onone
/// loop through Tensor's subscript makes the slowest part of a test.
public enum Closeness {
    /// The largest |a − b| over all values, and the largest |b| (to say how strong the comparison is).
    public static func worstDifference(_ actual: Tensor, _ expected: Tensor) -> (worst: Float, largest: Float) {
        precondition(actual.count == expected.count, "compared tensors of \(actual.count) and \(expected.count) values")
        let a = actual.values, e = expected.values
        var worst: Float = 0, largest: Float = 0
        for i in 0..<e.count {
            worst = max(worst, abs(a[i] - e[i]))
            largest = max(largest, abs(e[i]))
        }
        return (worst, largest)
    }
}
