import Foundation

/// e^x and ln x elementwise, as expf and logf give them: e^x overflows to +∞ above x ≈ 88.72,
/// ln 0 = −∞ and ln of a negative number (or NaN) is NaN.
public enum ExpLog {
    public static func exp(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int) {
        Activation.forEachBlock(count) { range in for i in range { output[i] = expf(input[i]) } }
    }

    public static func log(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int) {
        Activation.forEachBlock(count) { range in for i in range { output[i] = logf(input[i]) } }
    }

    /// d e^x = e^x: reads the forward output.
    public static func expBackward(output: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
                                   gradInput: UnsafeMutablePointer<Float>, count: Int) {
        Activation.forEachBlock(count) { range in for i in range { gradInput[i] = gradOutput[i] * output[i] } }
    }

    /// d ln x = 1/x: reads the forward input (±∞ at 0, NaN below, like the forward).
    public static func logBackward(input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
                                   gradInput: UnsafeMutablePointer<Float>, count: Int) {
        Activation.forEachBlock(count) { range in for i in range { gradInput[i] = gradOutput[i] / input[i] } }
    }
}
