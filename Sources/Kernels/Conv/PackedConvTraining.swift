/// The training graph's dense layers on `PackedConv2d`, whose weights change every step: packing
/// them costs one pass over the weights (~1 M floats for the whole detector) per call.
extension PackedConv2d {
    /// `output = conv(input, weight) + bias`. The packed kernel ran the dense forward passes faster
    /// than OpenBLAS per image (weights repacked by every sgemm call, an im2col panel written and
    /// read back).
    static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>
    ) {
        let depth = g.inChannels * g.kernelHeight * g.kernelWidth
        run(g, input: input, filters: PackedFilters(weight: weight, bias: bias, outChannels: g.outChannels, depth: depth), output: output)
    }

    /// The input gradients `backwardInput` computes: stride 1, one group, padding below the
    /// kernel's size (every dense layer of the detector but the stem, whose input is the image).
    static func supportsBackwardInput(_ g: Conv2dGeometry) -> Bool {
        g.groups == 1 && g.strideHeight == 1 && g.strideWidth == 1
            && g.padHeight < g.kernelHeight && g.padWidth < g.kernelWidth
    }

    /// `gradInput = ∂L/∂input`: at stride 1 the input gradient is itself a convolution — of the
    /// output gradient with the filter rotated 180° and its two channel axes swapped, padded by
    /// kernel − 1 − pad — so it runs on the same kernel as the forward, output channels = the
    /// layer's input channels, depth = its output channels × kh × kw.
    static func backwardInput(
        _ g: Conv2dGeometry, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>
    ) {
        precondition(supportsBackwardInput(g), "PackedConv2d.backwardInput: \(g)")
        let filters = PackedFilters(rotatedTransposeOf: weight, layerOutChannels: g.outChannels, layerInChannels: g.inChannels,
                                    taps: g.kernelHeight * g.kernelWidth)
        run(g.inputGradientGeometry, input: gradOutput, filters: filters, output: gradInput)
    }

    private static func run(_ g: Conv2dGeometry, input: UnsafePointer<Float>, filters: PackedFilters, output: UnsafeMutablePointer<Float>) {
        let workers = Parallel.threadCount
        let scratch = Workspace(count: scratchCount(g, workers: workers))
        defer { scratch.free() }
        forward(g, input: input, filters: filters, bounds: .identity, output: output, workers: workers, scratch: scratch.pointer)
    }
}
