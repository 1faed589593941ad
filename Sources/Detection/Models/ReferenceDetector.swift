import Autograd
import NN
import Support
import Tensor

/// Feature pyramid on strides 8/16/32: 1×1 laterals, nearest-2× top-down sums, 3×3 outputs.
public final class FeaturePyramid: Module {
    public let lateral: [Conv2d]
    public let output: [Conv2d]

    public init(inputChannels: [Int], channels: Int, rng: inout SeededRandom) throws {
        lateral = try inputChannels.map { try Conv2d(inputChannels: $0, outputChannels: channels, kernelSize: 1, rng: &rng) }
        output = try inputChannels.map { _ in try Conv2d(inputChannels: channels, outputChannels: channels, kernelSize: 3, rng: &rng) }
        super.init()
        lateral.forEach { $0.profileLabel = "FPN lateral 1×1" }
        output.forEach { $0.profileLabel = "FPN output 3×3" }
    }

    public override var children: [(name: String, module: Module)] {
        [("lateral", ModuleList(lateral)), ("output", ModuleList(output))]
    }

    public func callAsFunction(_ c3: Variable, _ c4: Variable, _ c5: Variable) throws -> [Variable] {
        try callAsFunction([c3, c4, c5])
    }

    /// Top-down over any number of levels, finest first (each twice the size of the next).
    public func callAsFunction(_ features: [Variable]) throws -> [Variable] {
        guard features.count == lateral.count, let coarsest = features.last else {
            throw TensorError.invalidArgument(op: "FeaturePyramid", reason: "got \(features.count) feature maps for \(lateral.count) levels")
        }
        var merged = [try lateral[features.count - 1](coarsest)]
        for level in stride(from: features.count - 2, through: 0, by: -1) {
            let lateralOutput = try lateral[level](features[level])
            // The laterals carry their own label; what remains here is the top-down sum.
            let sum = try coarsest.tape.profiled(as: "FPN upsample+add") { try lateralOutput + merged[0].upsampledNearest2x() }
            merged.insert(sum, at: 0)
        }
        return try zip(output, merged).map { try $0.0($0.1) }
    }

    /// The same pyramid as values of `graph` (finest first, as the forward returns it).
    public func lower<Graph: InferenceLowering>(_ features: [Int], name: String, into graph: inout Graph) throws -> [Int] {
        guard features.count == lateral.count else {
            throw InferenceModelError(layer: name, reason: "\(lateral.count) levels for \(features.count) feature maps")
        }
        var merged = [Int](repeating: 0, count: features.count)
        for level in stride(from: features.count - 1, through: 0, by: -1) {
            merged[level] = try graph.convolution(lateral[level], batchNorm: nil, activation: nil, input: features[level], name: "\(name).lateral.\(level)")
            if level < features.count - 1 { try graph.addUpsampled(coarse: merged[level + 1], into: merged[level], name: name) }
        }
        return try merged.enumerated().map { level, m in
            try graph.convolution(output[level], batchNorm: nil, activation: nil, input: m, name: "\(name).output.\(level)")
        }
    }
}

/// Head shared across pyramid levels: conv3×3 + ReLU, conv3×3 → anchors × (classes + 4).
public final class DetectionHead: Module {
    public let conv1: Conv2d
    public let conv2: Conv2d

    public init(channels: Int, outputs: Int, rng: inout SeededRandom) throws {
        conv1 = try Conv2d(inputChannels: channels, outputChannels: channels, kernelSize: 3, rng: &rng)
        conv2 = try Conv2d(inputChannels: channels, outputChannels: outputs, kernelSize: 3, rng: &rng)
        super.init()
        conv1.profileLabel = "head 3×3 + ReLU"
        conv2.profileLabel = "head output 3×3"
    }

    public override var children: [(name: String, module: Module)] { [("conv1", conv1), ("conv2", conv2)] }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        let hidden = try conv1.profiled(on: x.tape) { try conv1(x).relu() }
        return try conv2(hidden)
    }

    /// The shared head on every level, each level's outputs written as rows of the flat matrix.
    public func lower<Graph: InferenceLowering>(_ pyramid: [Int], name: String, into graph: inout Graph) throws {
        for p in pyramid {
            let hidden = try graph.convolution(conv1, batchNorm: nil, activation: .relu, input: p, name: "\(name).conv1")
            try graph.headOutput(conv2, input: hidden, name: "\(name).conv2")
        }
    }
}

/// The reference UI-element detector: MobileNetV1 (width 0.5) + FPN (64 channels) + shared head.
public final class ReferenceDetector: Module {
    public let configuration: DetectorConfiguration
    public let backbone: MobileNetV1
    public let fpn: FeaturePyramid
    public let head: DetectionHead

    /// Throws, naming the field, when the configuration cannot make a model.
    public init(configuration: DetectorConfiguration = .reference, seed: UInt64 = 0) throws {
        try configuration.validate()
        var rng = SeededRandom(seed: seed)
        self.configuration = configuration
        backbone = try MobileNetV1(widthMultiplier: configuration.widthMultiplier, rng: &rng)
        fpn = try FeaturePyramid(inputChannels: backbone.outputChannels, channels: configuration.fpnChannels, rng: &rng)
        head = try DetectionHead(channels: configuration.fpnChannels,
                                 outputs: configuration.anchorsPerCell * configuration.outputsPerAnchor, rng: &rng)
    }

    public override var children: [(name: String, module: Module)] { [("backbone", backbone), ("fpn", fpn), ("head", head)] }

    /// Raw head outputs per level: [N, A·(K+4), H/s, W/s] for s = 8, 16, 32.
    /// Throws unless `images` is [N, 3, H, W] with H and W multiples of 32 (the coarsest stride).
    public func callAsFunction(_ images: Variable) throws -> [Variable] {
        let stride = DetectorConfiguration.strides.last!
        let shape = images.shape
        guard shape.count == 4, shape[1] == 3, shape[2] > 0, shape[3] > 0, shape[2] % stride == 0, shape[3] % stride == 0 else {
            throw TensorError.shapeMismatch(op: "ReferenceDetector", shapes: [shape], reason: "expected images [N, 3, H, W] with H and W positive multiples of \(stride)")
        }
        let (c3, c4, c5) = try backbone(images)
        return try fpn(c3, c4, c5).map { try head($0) }
    }

    /// Freezes the backbone's first `stageCount` stages (stem counts as one), for transfer
    /// learning from a pretrained backbone. Returns the number of frozen parameters.
    @discardableResult
    public func freezeBackbone(stages stageCount: Int) -> Int {
        let prefixes = MobileNetV1.stageNames.prefix(stageCount).map { "backbone.\($0)" }
        return freeze(prefixes: Array(prefixes))
    }
}
