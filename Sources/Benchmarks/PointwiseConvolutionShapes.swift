import Detection
import Kernels
import NN

/// A 1×1 convolution's channels and input size, as the GEMM it runs as.
public struct PointwiseConvolutionShape: Hashable, CustomStringConvertible {
    public let inChannels: Int, outChannels: Int, height: Int, width: Int
    public var description: String { "\(inChannels)→\(outChannels) @\(height)×\(width)" }
}

extension ReferenceDetector {
    /// Every distinct 1×1 convolution of this model at its configured input size, in forward
    /// order: the backbone's pointwise convolutions, then the FPN laterals. Read from the
    /// layers themselves, so the GEMM benchmark always times the shapes the model runs.
    public func pointwiseConvolutionShapes() throws -> [PointwiseConvolutionShape] {
        var shapes: [PointwiseConvolutionShape] = []
        func add(_ conv: Conv2d, _ height: Int, _ width: Int) throws -> (height: Int, width: Int) {
            let g = try conv.geometry(batch: 1, height: height, width: width)
            let shape = PointwiseConvolutionShape(inChannels: g.inChannels, outChannels: g.outChannels, height: height, width: width)
            if g.kernelHeight == 1, g.kernelWidth == 1, g.groups == 1, !shapes.contains(shape) { shapes.append(shape) }
            return (g.outHeight, g.outWidth)
        }
        var size = try backbone.stem.conv.geometry(batch: 1, height: configuration.inputHeight, width: configuration.inputWidth)
            .outputSize
        var stageSizes: [(height: Int, width: Int)] = []
        for stage in [backbone.stage3, backbone.stage4, backbone.stage5] {
            for case let block as DepthwiseSeparableBlock in stage.layers {
                size = try block.depthwise.conv.geometry(batch: 1, height: size.height, width: size.width).outputSize
                size = try add(block.pointwise.conv, size.height, size.width)
            }
            stageSizes.append(size)
        }
        for (lateral, size) in zip(fpn.lateral, stageSizes) { _ = try add(lateral, size.height, size.width) }
        return shapes
    }
}

extension Conv2dGeometry {
    var outputSize: (height: Int, width: Int) { (outHeight, outWidth) }
}
