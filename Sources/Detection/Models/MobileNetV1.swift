import Autograd
import NN
import Support
import Tensor

/// Depthwise 3×3 + BN + ReLU6, then pointwise 1×1 + BN + ReLU6 (MobileNetV1's block).
public final class DepthwiseSeparableBlock: Module, Layer {
    public let depthwise: ConvBatchNormActivation
    public let pointwise: ConvBatchNormActivation

    public init(inputChannels: Int, outputChannels: Int, stride: Int, rng: inout SeededRandom) throws {
        depthwise = try ConvBatchNormActivation(conv: Conv2d(inputChannels: inputChannels, outputChannels: inputChannels, kernelSize: 3,
                                                             stride: stride, groups: inputChannels, bias: false, rng: &rng))
        pointwise = try ConvBatchNormActivation(conv: Conv2d(inputChannels: inputChannels, outputChannels: outputChannels, kernelSize: 1,
                                                             bias: false, rng: &rng))
    }

    public override var children: [(name: String, module: Module)] { [("depthwise", depthwise), ("pointwise", pointwise)] }

    public func callAsFunction(_ x: Variable) throws -> Variable { try callAsFunction(.value(x)).value() }

    /// The block on `input`, a pending normalisation applied by the depthwise layer as it reads
    /// (with the depthwise layer's own in the same op); the pointwise layer's normalisation is
    /// left pending for the next layer.
    public func callAsFunction(_ input: LayerOutput) throws -> LayerOutput {
        let depthwiseOutput: Variable
        switch input {
        case let .value(x): depthwiseOutput = try depthwise(x)
        case let .convolved(y, pending): depthwiseOutput = try pending.normalizeThenDepthwise(y, next: depthwise)
        }
        return .convolved(try pointwise.convolve(depthwiseOutput), pending: pointwise)
    }

    /// `stage`'s `layers` one after another under its profile label, each block's normalisation
    /// done by the next block as it reads (layers other than blocks get values); the last one's is
    /// applied at the end, so the result is a value (what the FPN or a head output reads).
    static func run<R: RangeExpression<Int>>(_ stage: Sequential, layers: R, from input: LayerOutput) throws -> Variable {
        try stage.profiled(on: input.tape) {
            try stage.layers[layers].reduce(input) { output, layer in
                guard let block = layer as? DepthwiseSeparableBlock else { return .value(try layer(output.value())) }
                return try block(output)
            }.value()
        }
    }

    static func run(_ stage: Sequential, from input: LayerOutput) throws -> Variable {
        try run(stage, layers: 0..., from: input)
    }
}

extension DepthwiseSeparableBlock: LowerableLayer {
    public func lower<Graph: InferenceLowering>(_ input: Int, name: String, into graph: inout Graph) throws -> Int {
        let d = try depthwise.lower(input, name: "\(name).depthwise", into: &graph)
        return try pointwise.lower(d, name: "\(name).pointwise", into: &graph)
    }
}

/// MobileNetV1 with a width multiplier, cut into the stages whose outputs feed the FPN:
/// stage3 (stride 8), stage4 (stride 16), stage5 (stride 32).
public final class MobileNetV1: Module {
    public let stem: ConvBatchNormActivation
    public let stage3: Sequential
    public let stage4: Sequential
    public let stage5: Sequential
    public let outputChannels: [Int]

    /// (channels at width 1, stride) per block, as in Howard et al. 2017, Table 1.
    static let blocks: [(channels: Int, stride: Int)] = [
        (64, 1), (128, 2), (128, 1), (256, 2), (256, 1),
        (512, 2), (512, 1), (512, 1), (512, 1), (512, 1), (512, 1),
        (1024, 2), (1024, 1),
    ]

    /// Throws when `widthMultiplier` leaves a layer without channels (below 1/32).
    public init(widthMultiplier: Double, rng: inout SeededRandom) throws {
        func scaled(_ c: Int) -> Int { Int(Double(c) * widthMultiplier) }
        guard widthMultiplier.isFinite, scaled(32) >= 1 else {
            throw TensorError.invalidArgument(op: "MobileNetV1", reason: "width multiplier \(widthMultiplier) leaves the stem with \(scaled(32)) channels; use at least 1/32")
        }
        stem = try ConvBatchNormActivation(conv: Conv2d(inputChannels: 3, outputChannels: scaled(32), kernelSize: 3, stride: 2, bias: false, rng: &rng))
        stem.conv.profileLabel = "stem 3×3 s2"
        var layers: [DepthwiseSeparableBlock] = []
        var channels = scaled(32)
        for (c, s) in MobileNetV1.blocks {
            layers.append(try DepthwiseSeparableBlock(inputChannels: channels, outputChannels: scaled(c), stride: s, rng: &rng))
            channels = scaled(c)
        }
        stage3 = Sequential(Array(layers[0..<5]))
        stage4 = Sequential(Array(layers[5..<11]))
        stage5 = Sequential(Array(layers[11..<13]))
        outputChannels = [scaled(256), scaled(512), scaled(1024)]
    }

    public override var children: [(name: String, module: Module)] {
        [("stem", stem), ("stage3", stage3), ("stage4", stage4), ("stage5", stage5)]
    }

    /// Stage names in order, for freezing "the first k stages" in transfer learning.
    public static let stageNames = ["stem", "stage3", "stage4", "stage5"]

    /// The stride-4 feature is read after this many blocks of stage3 (its first stride-2 block is the fourth).
    static let stride4Blocks = 3

    /// Channels of the stride-4 feature.
    public var stride4Channels: Int {
        (stage3.layers[Self.stride4Blocks - 1] as! DepthwiseSeparableBlock).pointwise.conv.weight.shape[0]
    }

    /// Feature maps at strides 8, 16, 32 — and first at stride 4 when asked (read inside
    /// stage3, after its third block, so parameter names stay those of the plain backbone).
    public func features(_ x: Variable, includeStride4: Bool) throws -> [Variable] {
        guard includeStride4 else {
            let (c3, c4, c5) = try callAsFunction(x)
            return [c3, c4, c5]
        }
        typealias Block = DepthwiseSeparableBlock
        let c2 = try Block.run(stage3, layers: ..<Self.stride4Blocks, from: stemOutput(x))
        let c3 = try Block.run(stage3, layers: Self.stride4Blocks..., from: .value(c2))
        let c4 = try Block.run(stage4, from: .value(c3))
        return [c2, c3, c4, try Block.run(stage5, from: .value(c4))]
    }

    public func callAsFunction(_ x: Variable) throws -> (c3: Variable, c4: Variable, c5: Variable) {
        typealias Block = DepthwiseSeparableBlock
        let c3 = try Block.run(stage3, from: stemOutput(x))
        let c4 = try Block.run(stage4, from: .value(c3))
        return (c3, c4, try Block.run(stage5, from: .value(c4)))
    }

    /// The stem's convolution, its normalisation left to stage3's first depthwise layer.
    private func stemOutput(_ x: Variable) throws -> LayerOutput { .convolved(try stem.convolve(x), pending: stem) }

    /// `features(_:includeStride4:)` for inference: the same taps, as values of `graph`.
    public func lower<Graph: InferenceLowering>(_ input: Int, name: String, includeStride4: Bool, into graph: inout Graph) throws -> [Int] {
        let x = try stem.lower(input, name: "\(name).stem", into: &graph)
        let c2 = try stage3.lower(x, name: "\(name).stage3", layers: 0..<Self.stride4Blocks, into: &graph)
        let c3 = try stage3.lower(c2, name: "\(name).stage3", layers: Self.stride4Blocks..<stage3.layers.count, into: &graph)
        let c4 = try stage4.lower(c3, name: "\(name).stage4", into: &graph)
        let c5 = try stage5.lower(c4, name: "\(name).stage5", into: &graph)
        return (includeStride4 ? [c2] : []) + [c3, c4, c5]
    }
}
