import Foundation

/// Softmax and log-softmax over the last axis of a [rows, columns] view; max-subtracted so
/// large logits do not overflow.
public enum Softmax {
    public static func forward(_ input: UnsafePointer<Float>, rows: Int, columns: Int, output: UnsafeMutablePointer<Float>, logarithm: Bool) {
        for r in 0..<rows {
            let x = input + r * columns, y = output + r * columns
            var maximum = -Float.infinity
            for c in 0..<columns { maximum = max(maximum, x[c]) }
            var total: Float = 0
            for c in 0..<columns { let e = expf(x[c] - maximum); y[c] = e; total += e }
            if logarithm {
                let logTotal = logf(total) + maximum
                for c in 0..<columns { y[c] = x[c] - logTotal }
            } else {
                let inv = 1 / total
                for c in 0..<columns { y[c] *= inv }
            }
        }
    }

    /// dx = y ⊙ (dy − Σ dy⊙y) for softmax; dx = dy − softmax ⊙ Σ dy for log-softmax (y = log-probs).
    public static func backward(output: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>, rows: Int, columns: Int,
                                gradInput: UnsafeMutablePointer<Float>, logarithm: Bool) {
        for r in 0..<rows {
            let y = output + r * columns, dy = gradOutput + r * columns, dx = gradInput + r * columns
            if logarithm {
                var total: Float = 0
                for c in 0..<columns { total += dy[c] }
                for c in 0..<columns { dx[c] = dy[c] - expf(y[c]) * total }
            } else {
                var dot: Float = 0
                for c in 0..<columns { dot += dy[c] * y[c] }
                for c in 0..<columns { dx[c] = y[c] * (dy[c] - dot) }
            }
        }
    }
}
