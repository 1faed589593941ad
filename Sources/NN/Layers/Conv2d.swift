import Autograd
import Kernels
import Support
import Tensor

/// 2-D convolution (NCHW). Weight [outC, inC/groups, k, k], optional bias [outC].
public final class Conv2d: Module, Layer {
    public let weight: Parameter
    public let bias: Parameter?
    public let stride: Int, padding: Int, groups: Int

    /// Throws, naming the values, when a size is not positive, padding is negative, or the
    /// channel counts are not multiples of `groups`. Padding defaults to `kernelSize / 2`.
    public init(inputChannels: Int, outputChannels: Int, kernelSize: Int, stride: Int = 1, padding: Int? = nil,
                groups: Int = 1, bias: Bool = true, rng: inout SeededRandom) throws {
        let padding = padding ?? kernelSize / 2
        let arguments = "inputChannels \(inputChannels), outputChannels \(outputChannels), kernelSize \(kernelSize), "
            + "stride \(stride), padding \(padding), groups \(groups)"
        guard inputChannels > 0, outputChannels > 0, kernelSize > 0, stride > 0, groups > 0, padding >= 0 else {
            throw TensorError.invalidArgument(op: "Conv2d", reason: "\(arguments): channels, kernel size, stride and groups must be positive, padding ≥ 0")
        }
        guard inputChannels % groups == 0, outputChannels % groups == 0 else {
            throw TensorError.invalidArgument(op: "Conv2d", reason: "\(arguments): both channel counts must be divisible by groups")
        }
        let fanIn = inputChannels / groups * kernelSize * kernelSize
        weight = Parameter(Initialization.kaimingUniform(shape: [outputChannels, inputChannels / groups, kernelSize, kernelSize], fanIn: fanIn, rng: &rng))
        self.bias = bias ? Parameter(Initialization.kaimingUniform(shape: [outputChannels], fanIn: fanIn, rng: &rng)) : nil
        self.stride = stride
        self.padding = padding
        self.groups = groups
        super.init()
        let depthwise = groups > 1 && groups == inputChannels && groups == outputChannels
        let stridePart = stride == 1 && kernelSize == 1 ? "" : " s\(stride)"
        profileLabel = (depthwise ? "depthwise" : kernelSize == 1 && groups == 1 ? "pointwise" : "conv")
            + " \(kernelSize)×\(kernelSize)\(stridePart)"
    }

    public override var ownParameters: [(name: String, parameter: Parameter)] {
        [("weight", weight)] + (bias.map { [("bias", $0)] } ?? [])
    }

    /// The kernel geometry this layer runs with on a [batch, in, height, width] input
    /// (throws when the kernel does not fit the padded input).
    public func geometry(batch: Int, height: Int, width: Int) throws -> Conv2dGeometry {
        let (outChannels, inPerGroup, kernel) = (weight.shape[0], weight.shape[1], weight.shape[2])
        return try Conv2dGeometry(batch: batch, inChannels: inPerGroup * groups, inHeight: height, inWidth: width, outChannels: outChannels,
                                  kernel: kernel, stride: stride, padding: padding, groups: groups)
    }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        try profiled(on: x.tape) {
            try x.conv2d(weight: x.tape.parameter(weight), bias: bias.map { x.tape.parameter($0) },
                         stride: (stride, stride), padding: (padding, padding), groups: groups)
        }
    }
}

/// Depthwise 3×3 (or k×k) convolution: one filter per channel (groups = channels).
public final class DepthwiseConv2d: Module, Layer {
    public let convolution: Conv2d

    public init(channels: Int, kernelSize: Int = 3, stride: Int = 1, bias: Bool = false, rng: inout SeededRandom) throws {
        convolution = try Conv2d(inputChannels: channels, outputChannels: channels, kernelSize: kernelSize, stride: stride,
                                 groups: channels, bias: bias, rng: &rng)
        super.init()
        profileLabel = convolution.profileLabel
    }

    public var weight: Parameter { convolution.weight }
    public var bias: Parameter? { convolution.bias }

    // Parameters appear directly as `weight`/`bias`, as a PyTorch grouped Conv2d would name them.
    public override var ownParameters: [(name: String, parameter: Parameter)] { convolution.ownParameters }

    public func callAsFunction(_ x: Variable) throws -> Variable { try profiled(on: x.tape) { try convolution(x) } }
}

/// Fully connected layer: y = x·Wᵀ + b.
public final class Linear: Module, Layer {
    public let weight: Parameter
    public let bias: Parameter?

    public init(inputFeatures: Int, outputFeatures: Int, bias: Bool = true, rng: inout SeededRandom) throws {
        guard inputFeatures > 0, outputFeatures > 0 else {
            throw TensorError.invalidArgument(op: "Linear", reason: "inputFeatures \(inputFeatures), outputFeatures \(outputFeatures): both must be positive")
        }
        weight = Parameter(Initialization.kaimingUniform(shape: [outputFeatures, inputFeatures], fanIn: inputFeatures, rng: &rng))
        self.bias = bias ? Parameter(Initialization.kaimingUniform(shape: [outputFeatures], fanIn: inputFeatures, rng: &rng)) : nil
    }

    public override var ownParameters: [(name: String, parameter: Parameter)] {
        [("weight", weight)] + (bias.map { [("bias", $0)] } ?? [])
    }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        try profiled(on: x.tape) { try x.linear(weight: x.tape.parameter(weight), bias: bias.map { x.tape.parameter($0) }) }
    }
}
