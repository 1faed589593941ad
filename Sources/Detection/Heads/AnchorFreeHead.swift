import Autograd
import Foundation
import NN
import Support
import Tensor

/// NanoDet-Plus-style head: per pyramid level (weights not shared, so each level keeps its own
/// batch-norm statistics), `convolutions` depthwise-separable blocks, then one 1×1 convolution
/// to K class-and-quality logits followed by 4 × `bins` box-side logits (GFL's distributions).
public final class AnchorFreeHead: Module {
    public let towers: [Sequential]
    public let outputs: [Conv2d]
    public let classCount: Int
    public let bins: Int

    /// Focal-family losses start from a prior π = 0.01 on every class (Lin et al. 2017, §4.1):
    /// without it the ~2,700 background points swamp the first steps with loss.
    public static let classPrior: Float = 0.01

    public init(levels: Int, channels: Int, convolutions: Int, classCount: Int, bins: Int, rng: inout SeededRandom) throws {
        var towers: [Sequential] = [], outputs: [Conv2d] = []
        for _ in 0..<levels {
            towers.append(Sequential(try (0..<convolutions).map { _ in
                try DepthwiseSeparableBlock(inputChannels: channels, outputChannels: channels, stride: 1, rng: &rng)
            }))
            let output = try Conv2d(inputChannels: channels, outputChannels: classCount + 4 * bins, kernelSize: 1, rng: &rng)
            // Small output weights (NanoDet: normal, std 0.01) so the prior below is what the head says at first.
            output.weight.value = Initialization.normal(shape: output.weight.shape, standardDeviation: 0.01, rng: &rng)
            var bias = try Tensor(zeros: [classCount + 4 * bins])
            let logit = -log((1 - Self.classPrior) / Self.classPrior)
            bias.withUnsafeMutableBufferPointer { for c in 0..<classCount { $0[c] = logit } }
            output.bias!.value = bias
            output.profileLabel = "head output 1×1"
            outputs.append(output)
        }
        self.towers = towers
        self.outputs = outputs
        self.classCount = classCount
        self.bins = bins
        super.init()
    }

    public override var children: [(name: String, module: Module)] {
        [("towers", ModuleList(towers)), ("outputs", ModuleList(outputs))]
    }

    /// Per level [N, K + 4·bins, H, W].
    public func callAsFunction(_ features: [Variable]) throws -> [Variable] {
        try zip(towers, outputs).enumerated().map { level, layers in
            try layers.1(DepthwiseSeparableBlock.run(layers.0, from: .value(features[level])))
        }
    }

    /// Each level's tower and output convolution, its outputs written as rows of the flat matrix.
    public func lower<Graph: InferenceLowering>(_ pyramid: [Int], name: String, into graph: inout Graph) throws {
        guard pyramid.count == towers.count else {
            throw InferenceModelError(layer: name, reason: "\(towers.count) levels for \(pyramid.count) feature maps")
        }
        for (level, p) in pyramid.enumerated() {
            let x = try towers[level].lower(p, name: "\(name).towers.\(level)", into: &graph)
            try graph.headOutput(outputs[level], input: x, name: "\(name).outputs.\(level)")
        }
    }
}

/// The SSD-style anchored head of the paper's detector (shared across levels): conv 3×3 + ReLU,
/// conv 3×3 → A·(K + 4). Class logits start from the same prior as the anchor-free head.
extension DetectionHead {
    func initializeClassPrior(classCount: Int, anchors: Int) {
        let logit = -log((1 - AnchorFreeHead.classPrior) / AnchorFreeHead.classPrior)
        guard let bias = conv2.bias else { return }
        var values = bias.value
        values.withUnsafeMutableBufferPointer { b in
            for a in 0..<anchors { for c in 0..<classCount { b[a * (classCount + 4) + c] = logit } }
        }
        bias.value = values
    }
}
