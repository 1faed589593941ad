import XCTest
@testable import Kernels

/// A small deterministic generator for test data (the Kernels target has no Support dependency).
struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt64 {
        // SplitMix64.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    mutating func float() -> Float { Float(next() >> 40) / Float(1 << 24) * 2 - 1 }

    mutating func floats(_ count: Int, scale: Float = 1, offset: Float = 0) -> [Float] {
        (0..<count).map { _ in float() * scale + offset }
    }
}

/// Runs `body` with `Parallel.threadCount` set to `count`, restoring it afterwards.
func withThreads<R>(_ count: Int, _ body: () throws -> R) rethrows -> R {
    let saved = Parallel.threadCount
    Parallel.threadCount = count
    defer { Parallel.threadCount = saved }
    return try body()
}

func assertClose(
    _ actual: [Float], _ expected: [Double], tolerance: Double = 1e-4, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual.count, expected.count, "count \(message)", file: file, line: line)
    var worst = 0.0, worstIndex = 0
    for i in 0..<min(actual.count, expected.count) {
        let error = abs(Double(actual[i]) - expected[i]) / max(1, abs(expected[i]))
        if !(error <= worst) { worst = error; worstIndex = i }
    }
    XCTAssertLessThanOrEqual(
        worst, tolerance,
        "\(message): element \(worstIndex) is \(actual.isEmpty ? 0 : actual[worstIndex]), expected \(expected.isEmpty ? 0 : expected[worstIndex])",
        file: file, line: line)
}

extension Array where Element == Float {
    /// Calls body with a mutable pointer to the elements (nil base address never happens for non-empty arrays).
    mutating func withPointer<R>(_ body: (UnsafeMutablePointer<Float>) throws -> R) rethrows -> R {
        try withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}

/// Pointer buffers for tests that pass many arrays to one kernel; freed with the object.
final class Scratch {
    private var buffers: [UnsafeMutablePointer<Float>] = []

    func zeros(_ count: Int) -> UnsafeMutablePointer<Float> { copy([Float](repeating: 0, count: count)) }

    func copy(_ values: [Float]) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: max(values.count, 1))
        p.initialize(from: values, count: values.count)
        buffers.append(p)
        return p
    }

    func array(_ p: UnsafeMutablePointer<Float>, _ count: Int) -> [Float] { Array(UnsafeBufferPointer(start: p, count: count)) }

    deinit { for p in buffers { p.deallocate() } }
}
