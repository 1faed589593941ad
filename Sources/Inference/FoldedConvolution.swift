import Kernels
import NN
import Tensor

/// A convolution with its eval-mode batch norm folded into the weights and bias, and a clamp
/// activation (ReLU, ReLU6 or none) to apply in the output pass.
///
/// Eval-mode batch norm is `y·s + t` per output channel with s = γ/√(var + ε), t = β − mean·s
/// (`BatchNorm2d.affineCoefficients`), and `conv(x; W) + b` is linear in W and b, so
/// `(conv(x; W) + b)·s + t = conv(x; W·s) + (b·s + t)`: one convolution, no normalisation pass.
/// Values change only by rounding (the products are regrouped).
public struct FoldedConvolution {
    public let inputChannels: Int
    public let outputChannels: Int
    public let kernelSize: Int
    public let stride: Int
    public let padding: Int
    public let groups: Int
    /// [out, in/groups, k, k] and [out], contiguous.
    public let weight: [Float]
    public let bias: [Float]
    public let bounds: ActivationBounds

    /// Folds `batchNorm` (when given) into `conv`; throws for an activation that is not a clamp.
    public init(conv: Conv2d, batchNorm: BatchNorm2d?, activation: ActivationKind?, layer: String) throws {
        guard let bounds = ActivationBounds(activation) else {
            throw InferenceModelError(layer: layer, reason: "activation \(activation.map { "\($0)" } ?? "none") cannot be fused into a convolution (only ReLU and ReLU6)")
        }
        let shape = conv.weight.shape
        guard shape.count == 4, shape[2] == shape[3] else {
            throw InferenceModelError(layer: layer, reason: "weight shape \(shape) is not [out, in/groups, k, k]")
        }
        outputChannels = shape[0]
        inputChannels = shape[1] * conv.groups
        kernelSize = shape[2]
        stride = conv.stride
        padding = conv.padding
        groups = conv.groups
        self.bounds = bounds
        var weight = conv.weight.value.values
        var bias = conv.bias?.value.values ?? [Float](repeating: 0, count: outputChannels)
        if let batchNorm {
            let (scale, shift) = batchNorm.affineCoefficients()
            guard scale.count == outputChannels else {
                throw InferenceModelError(layer: layer, reason: "batch norm has \(scale.count) channels for \(outputChannels) convolution outputs")
            }
            let perOutput = weight.count / outputChannels
            for o in 0..<outputChannels {
                let s = scale[flat: o]
                for i in (o * perOutput)..<((o + 1) * perOutput) { weight[i] *= s }
                bias[o] = bias[o] * s + shift[flat: o]
            }
        }
        self.weight = weight
        self.bias = bias
    }

    /// The kernel geometry on a [batch, inputChannels, height, width] input.
    public func geometry(batch: Int, height: Int, width: Int) throws -> Conv2dGeometry {
        try Conv2dGeometry(batch: batch, inChannels: inputChannels, inHeight: height, inWidth: width, outChannels: outputChannels,
                           kernel: kernelSize, stride: stride, padding: padding, groups: groups)
    }
}
