/// Shapes of a 2-D convolution over NCHW tensors. Weight layout is
/// `[outChannels, inChannels / groups, kernelHeight, kernelWidth]`, output
/// `[batch, outChannels, outHeight, outWidth]`.
public struct Conv2dGeometry: Equatable, CustomStringConvertible {
    public var batch: Int
    public var inChannels: Int
    public var inHeight: Int
    public var inWidth: Int
    public var outChannels: Int
    public var kernelHeight: Int
    public var kernelWidth: Int
    public var strideHeight: Int
    public var strideWidth: Int
    public var padHeight: Int
    public var padWidth: Int
    public var groups: Int

    public var outHeight: Int { (inHeight + 2 * padHeight - kernelHeight) / strideHeight + 1 }
    public var outWidth: Int { (inWidth + 2 * padWidth - kernelWidth) / strideWidth + 1 }

    public var inChannelsPerGroup: Int { inChannels / groups }
    public var outChannelsPerGroup: Int { outChannels / groups }
    public var inputCount: Int { batch * inChannels * inHeight * inWidth }
    public var outputCount: Int { batch * outChannels * outHeight * outWidth }
    public var weightCount: Int { outChannels * inChannelsPerGroup * kernelHeight * kernelWidth }
    /// Multiply-adds of one forward pass over the whole batch.
    public var multiplyAdds: Int { outputCount * inChannelsPerGroup * kernelHeight * kernelWidth }

    /// A validated geometry; throws `KernelError.invalidArgument` naming the bad numbers.
    public init(
        batch: Int, inChannels: Int, inHeight: Int, inWidth: Int, outChannels: Int,
        kernelHeight: Int, kernelWidth: Int, strideHeight: Int = 1, strideWidth: Int = 1,
        padHeight: Int = 0, padWidth: Int = 0, groups: Int = 1
    ) throws {
        self.batch = batch
        self.inChannels = inChannels
        self.inHeight = inHeight
        self.inWidth = inWidth
        self.outChannels = outChannels
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.padHeight = padHeight
        self.padWidth = padWidth
        self.groups = groups
        try validate()
    }

    /// Square kernel, stride and padding.
    public init(
        batch: Int, inChannels: Int, inHeight: Int, inWidth: Int, outChannels: Int,
        kernel: Int, stride: Int = 1, padding: Int = 0, groups: Int = 1
    ) throws {
        try self.init(
            batch: batch, inChannels: inChannels, inHeight: inHeight, inWidth: inWidth, outChannels: outChannels,
            kernelHeight: kernel, kernelWidth: kernel, strideHeight: stride, strideWidth: stride,
            padHeight: padding, padWidth: padding, groups: groups)
    }

    public var description: String {
        "conv2d(N=\(batch), \(inChannels)→\(outChannels), in \(inHeight)×\(inWidth), kernel \(kernelHeight)×\(kernelWidth), "
            + "stride \(strideHeight)×\(strideWidth), pad \(padHeight)×\(padWidth), groups \(groups))"
    }

    public func validate() throws {
        func fail(_ reason: String) -> KernelError { .invalidArgument(op: "conv2d", reason: reason) }
        if batch < 0 { throw fail("batch is \(batch), must be ≥ 0") }
        if inChannels <= 0 || outChannels <= 0 {
            throw fail("channels \(inChannels)→\(outChannels) must both be ≥ 1")
        }
        if inHeight <= 0 || inWidth <= 0 { throw fail("input \(inHeight)×\(inWidth) must be at least 1×1") }
        if kernelHeight <= 0 || kernelWidth <= 0 {
            throw fail("kernel \(kernelHeight)×\(kernelWidth) must be at least 1×1")
        }
        if strideHeight <= 0 || strideWidth <= 0 {
            throw fail("stride \(strideHeight)×\(strideWidth) must be at least 1×1")
        }
        if padHeight < 0 || padWidth < 0 { throw fail("padding \(padHeight)×\(padWidth) must be ≥ 0") }
        if groups <= 0 { throw fail("groups is \(groups), must be ≥ 1") }
        if inChannels % groups != 0 || outChannels % groups != 0 {
            throw fail("channels \(inChannels)→\(outChannels) are not both divisible by groups \(groups)")
        }
        if kernelHeight > inHeight + 2 * padHeight || kernelWidth > inWidth + 2 * padWidth {
            throw fail(
                "kernel \(kernelHeight)×\(kernelWidth) is larger than the padded input "
                    + "\(inHeight + 2 * padHeight)×\(inWidth + 2 * padWidth) (input \(inHeight)×\(inWidth), pad \(padHeight)×\(padWidth))")
        }
    }

    /// 1×1, stride 1, no padding, one group: a plain GEMM per image.
    var isPointwise: Bool {
        kernelHeight == 1 && kernelWidth == 1 && strideHeight == 1 && strideWidth == 1
            && padHeight == 0 && padWidth == 0 && groups == 1
    }

    /// A stride-1 layer's input gradient as a convolution of its output gradient (with the filter
    /// rotated 180° and its channel axes swapped): channels swapped, the output's size as input,
    /// padded by kernel − 1 − pad.
    var inputGradientGeometry: Conv2dGeometry {
        var transposed = self
        (transposed.inChannels, transposed.outChannels) = (outChannels, inChannels)
        (transposed.inHeight, transposed.inWidth) = (outHeight, outWidth)
        (transposed.padHeight, transposed.padWidth) = (kernelHeight - 1 - padHeight, kernelWidth - 1 - padWidth)
        return transposed
    }

    /// One input channel per group and one output channel per group.
    var isDepthwise: Bool { groups > 1 && groups == inChannels && groups == outChannels }

    /// The depthwise shapes with a hand-written SIMD kernel: 3×3, pad 1, stride 1 or 2.
    var isDepthwise3x3: Bool {
        isDepthwise && kernelHeight == 3 && kernelWidth == 3 && padHeight == 1 && padWidth == 1
            && strideHeight == strideWidth && (strideHeight == 1 || strideHeight == 2)
    }
}
