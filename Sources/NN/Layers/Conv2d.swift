import Autograd
import Support
import Tensor

/// 2-D convolution (NCHW). Weight [outC, inC/groups, k, k], optional bias [outC].
public final class Conv2d: Module, Layer {
    public let weight: Parameter
    public let bias: Parameter?
    public let stride: Int, padding: Int, groups: Int

    public init(inputChannels: Int, outputChannels: Int, kernelSize: Int, stride: Int = 1, padding: Int? = nil,
                groups: Int = 1, bias: Bool = true, rng: inout SeededRandom) {
        precondition(inputChannels % groups == 0 && outputChannels % groups == 0, "Conv2d: channels must divide by groups")
        let fanIn = inputChannels / groups * kernelSize * kernelSize
        weight = Parameter(Initialization.kaimingUniform(shape: [outputChannels, inputChannels / groups, kernelSize, kernelSize], fanIn: fanIn, rng: &rng))
        self.bias = bias ? Parameter(Initialization.kaimingUniform(shape: [outputChannels], fanIn: fanIn, rng: &rng)) : nil
        self.stride = stride
        self.padding = padding ?? kernelSize / 2
        self.groups = groups
    }

    public override var ownParameters: [(name: String, parameter: Parameter)] {
        [("weight", weight)] + (bias.map { [("bias", $0)] } ?? [])
    }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        try x.conv2d(weight: x.tape.parameter(weight), bias: bias.map { x.tape.parameter($0) },
                     stride: (stride, stride), padding: (padding, padding), groups: groups)
    }
}

/// Depthwise 3×3 (or k×k) convolution: one filter per channel (groups = channels).
public final class DepthwiseConv2d: Module, Layer {
    public let convolution: Conv2d

    public init(channels: Int, kernelSize: Int = 3, stride: Int = 1, bias: Bool = false, rng: inout SeededRandom) {
        convolution = Conv2d(inputChannels: channels, outputChannels: channels, kernelSize: kernelSize, stride: stride,
                             groups: channels, bias: bias, rng: &rng)
    }

    // Parameters appear directly as `weight`/`bias`, as a PyTorch grouped Conv2d would name them.
    public override var ownParameters: [(name: String, parameter: Parameter)] { convolution.ownParameters }

    public func callAsFunction(_ x: Variable) throws -> Variable { try convolution(x) }
}

/// Fully connected layer: y = x·Wᵀ + b.
public final class Linear: Module, Layer {
    public let weight: Parameter
    public let bias: Parameter?

    public init(inputFeatures: Int, outputFeatures: Int, bias: Bool = true, rng: inout SeededRandom) {
        weight = Parameter(Initialization.kaimingUniform(shape: [outputFeatures, inputFeatures], fanIn: inputFeatures, rng: &rng))
        self.bias = bias ? Parameter(Initialization.kaimingUniform(shape: [outputFeatures], fanIn: inputFeatures, rng: &rng)) : nil
    }

    public override var ownParameters: [(name: String, parameter: Parameter)] {
        [("weight", weight)] + (bias.map { [("bias", $0)] } ?? [])
    }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        try x.linear(weight: x.tape.parameter(weight), bias: bias.map { x.tape.parameter($0) })
    }
}
