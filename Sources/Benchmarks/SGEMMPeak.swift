import Foundation
import Kernels
import Support
import Tensor

/// The machine's practical single-precision GEMM peak: one large square product through
/// `GEMM.multiply` (split into column blocks across `Parallel.threadCount` workers, OpenBLAS
/// single-threaded in each), the fastest of a few runs. What a training step's GFLOP/s is a
/// fraction of: no convolution can beat the GEMM it is made of.
public enum SGEMMPeak {
    /// GFLOP/s of the fastest of `runs` products of two size × size matrices.
    public static func measure(size: Int = 1024, runs: Int = 5) -> Double {
        var random = SeededRandom(seed: 5)
        let count = size * size
        let a = (0..<count).map { _ in Float.random(in: -1...1, using: &random) }
        let b = (0..<count).map { _ in Float.random(in: -1...1, using: &random) }
        var c = [Float](repeating: 0, count: count)
        var fastest = Double.infinity
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in c.withUnsafeMutableBufferPointer { c in
            for run in 0...max(1, runs) {
                let clock = Stopwatch()
                GEMM.multiply(transposeA: false, transposeB: false, m: size, n: size, k: size,
                              a: a.baseAddress!, lda: size, b: b.baseAddress!, ldb: size, c: c.baseAddress!, ldc: size)
                if run > 0 { fastest = min(fastest, clock.seconds) }  // run 0 warms caches and OpenBLAS's buffers
            }
        } } }
        return 2 * Double(size) * Double(size) * Double(size) / fastest / 1e9
    }
}
