import Autograd
import NN
import Support
import Tensor

/// The UI-element detector ScreenLab trains: MobileNetV1 + FPN (strides 8/16/32, optionally 4)
/// + an anchor-free (default) or anchored head. Its output is one flat matrix of head values,
/// one row per prior in the order (image, level, row, column, anchor) that `PointGrid` and
/// `AnchorGrid` enumerate, so the loss and the decoder read the same layout.
public final class UIDetector: Module {
    public let configuration: UIDetectorConfiguration
    public let backbone: MobileNetV1
    public let fpn: FeaturePyramid
    /// The head as a module (for names and freezing); exactly one of the two below is set.
    public let head: Module
    let anchorFreeHead: AnchorFreeHead?
    let anchoredHead: DetectionHead?

    /// Throws, naming the field, when the configuration cannot make a sensible model.
    public init(configuration: UIDetectorConfiguration, seed: UInt64 = 0) throws {
        try configuration.validate()
        var rng = SeededRandom(seed: seed)
        self.configuration = configuration
        backbone = try MobileNetV1(widthMultiplier: configuration.widthMultiplier, rng: &rng)
        let levelChannels = (configuration.includeStride4 ? [backbone.stride4Channels] : []) + backbone.outputChannels
        fpn = try FeaturePyramid(inputChannels: levelChannels, channels: configuration.fpnChannels, rng: &rng)
        switch configuration.head {
        case .anchorFree:
            let head = try AnchorFreeHead(levels: levelChannels.count, channels: configuration.fpnChannels,
                                          convolutions: configuration.headConvolutions, classCount: configuration.classCount,
                                          bins: configuration.distributionBins, rng: &rng)
            anchorFreeHead = head
            anchoredHead = nil
            self.head = head
        case .anchored:
            let head = try DetectionHead(channels: configuration.fpnChannels,
                                         outputs: configuration.anchorsPerCell * configuration.outputsPerPrior, rng: &rng)
            head.initializeClassPrior(classCount: configuration.classCount, anchors: configuration.anchorsPerCell)
            anchoredHead = head
            anchorFreeHead = nil
            self.head = head
        }
    }

    public override var children: [(name: String, module: Module)] { [("backbone", backbone), ("fpn", fpn), ("head", head)] }

    /// Head values per prior: [N · priorCount, outputsPerPrior] (class logits first).
    /// Throws unless `images` is [N, 3, inputHeight, inputWidth].
    public func callAsFunction(_ images: Variable) throws -> Variable {
        let expected = [3, configuration.inputHeight, configuration.inputWidth]
        guard images.shape.count == 4, Array(images.shape.dropFirst()) == expected else {
            throw TensorError.shapeMismatch(op: "UIDetector", shapes: [images.shape],
                                            reason: "expected images [N, \(expected.map(String.init).joined(separator: ", "))]")
        }
        let pyramid = try fpn(backbone.features(images, includeStride4: configuration.includeStride4))
        let levels: [Variable]
        if let anchorFreeHead { levels = try anchorFreeHead(pyramid) } else { levels = try pyramid.map { try anchoredHead!($0) } }
        return try images.tape.profiled(as: "head flatten") {
            let batch = images.shape[0]
            let flat = try levels.map { try $0.reshaped([batch, $0.shape[1], $0.shape[2] * $0.shape[3]]) }
            return try Variable.concatTransposed(flat).reshaped([-1, configuration.outputsPerPrior])
        }
    }

    /// The eval-mode forward as steps of `graph` reading value 0, the images: what the fused
    /// inference path runs and ONNX export writes.
    public func lower<Graph: InferenceLowering>(into graph: inout Graph) throws {
        let features = try backbone.lower(0, name: "backbone", includeStride4: configuration.includeStride4, into: &graph)
        let pyramid = try fpn.lower(features, name: "fpn", into: &graph)
        if let anchorFreeHead { try anchorFreeHead.lower(pyramid, name: "head", into: &graph) }
        else { try anchoredHead!.lower(pyramid, name: "head", into: &graph) }
    }

    /// Parameter-name prefixes of the backbone's first `count` stages (stem counts as one), or
    /// of the whole backbone when `count` is nil: what `freeze` in an experiment names.
    public static func backbonePrefixes(stages count: Int?) -> [String] {
        guard let count else { return ["backbone"] }
        return MobileNetV1.stageNames.prefix(max(0, count)).map { "backbone.\($0)" }
    }
}
