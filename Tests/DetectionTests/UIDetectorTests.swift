import Autograd
import Data
import NN
import Support
import Tensor
import XCTest
@testable import Detection

final class UIDetectorTests: XCTestCase {
    func small(_ head: UIDetectorConfiguration.HeadKind, stride4: Bool = false) -> UIDetectorConfiguration {
        UIDetectorConfiguration(head: head, classCount: 3, widthMultiplier: 0.25, fpnChannels: 8, includeStride4: stride4,
                                headConvolutions: 1, distributionBins: 4, inputHeight: 64, inputWidth: 32)
    }

    func testOutputRowsFollowThePriorGridsOfBothHeads() throws {
        for (configuration, priors) in [(small(.anchorFree), 8 * 4 + 4 * 2 + 2 * 1), (small(.anchorFree, stride4: true), 16 * 8 + 42),
                                        (small(.anchored), 3 * 42)] {
            let model = try UIDetector(configuration: configuration, seed: 1)
            let images = try Tensor(repeating: 0.5, shape: [2, 3, 64, 32])
            let output = try model(Tape.noGradient().constant(images))
            XCTAssertEqual(configuration.priorCount, priors)
            XCTAssertEqual(output.shape, [2 * priors, configuration.outputsPerPrior])
            XCTAssertEqual(try HeadDecoder(configuration: configuration).priorCount, priors)
        }
    }

    func testClassLogitsStartAtThePrior() throws {
        let model = try UIDetector(configuration: small(.anchorFree), seed: 1)
        model.eval()
        let output = try model(Tape.noGradient().constant(try Tensor(zeros: [1, 3, 64, 32]))).value
        let decoded = try HeadDecoder(configuration: model.configuration).decode(output, image: 0)
        // Output weights start near 0 (std 0.01), so every probability sits near π = 0.01.
        for p in decoded.probabilities { XCTAssertEqual(p, 0.01, accuracy: 0.005) }
    }

    func testDecoderReadsOneHotDistributionsAsDistancesInStrides() throws {
        let configuration = small(.anchorFree)
        let decoder = try HeadDecoder(configuration: configuration)
        let width = configuration.outputsPerPrior, count = decoder.priorCount
        var values = [Float](repeating: 0, count: count * width)
        // Prior 0 (stride 8, centre (4, 4)): left 1, top 2, right 3, bottom 0 bins, as near-one-hot logits.
        for (side, bin) in [1, 2, 3, 0].enumerated() {
            for b in 0..<4 { values[3 + side * 4 + b] = b == bin ? 40 : -40 }
        }
        values[0] = 0  // class 0 logit 0 → probability 0.5
        let decoded = decoder.decode(try Tensor(shape: [count, width], values: values), image: 0)
        XCTAssertEqual(decoded.probabilities[0], 0.5, accuracy: 1e-6)
        let expected: [Float] = [-4, -12, 28, 4]  // centre (4, 4) minus 1·8, 2·8; plus 3·8, 0·8
        XCTAssertEqual(Array(decoded.boxes[0..<4]), expected)
    }

    func testDecodingSomePriorsGivesTheFullDecodesRowsBitForBit() throws {
        for head in UIDetectorConfiguration.HeadKind.allCases {
            let configuration = small(head)
            let decoder = try HeadDecoder(configuration: configuration)
            var random = SeededRandom(seed: 3)
            let values = Initialization.normal(shape: [2 * decoder.priorCount, configuration.outputsPerPrior], standardDeviation: 2, rng: &random)
            let full = decoder.decode(values, image: 1)
            let priors = [decoder.priorCount - 1, 0, 7, 7]
            let some = decoder.decode(values, image: 1, priors: priors)
            let k = configuration.classCount
            for (i, p) in priors.enumerated() {
                XCTAssertEqual(Array(some.probabilities[i * k..<(i + 1) * k]), Array(full.probabilities[p * k..<(p + 1) * k]), "\(head) prior \(p)")
                XCTAssertEqual(Array(some.boxes[4 * i..<4 * i + 4]), Array(full.boxes[4 * p..<4 * p + 4]), "\(head) prior \(p)")
            }
            XCTAssertTrue(decoder.decode(values, image: 0, priors: []).boxes.isEmpty)
        }
    }

    /// Each batch norm that feeds a depthwise layer runs fused with it and the depthwise layer's
    /// own batch norm in training (`LayerFusion.normalizationIntoDepthwise`): outputs, every
    /// gradient and the running statistics are the bits of the separate layers. The fused op
    /// covers the stem → first block, block → block inside a stage and inside each head tower (not
    /// a stage's or the stride-4 tap's output, which the FPN reads), leaves out a frozen following
    /// batch norm, and stands aside in eval mode and where the first normalisation is frozen.
    func testNormalizationFusedIntoDepthwiseLayersGivesTheSameBits() throws {
        struct Result { let output: [UInt32]; let gradients: [String: [UInt32]]; let buffers: [String: [UInt32]]; let fused: Int; let followed: Int }
        func run(_ configuration: UIDetectorConfiguration, fused: Bool, freeze: [String] = [], eval: Bool = false) throws -> Result {
            try LayerFusion.$normalizationIntoDepthwise.withValue(fused) {
                let model = try UIDetector(configuration: configuration, seed: 2)
                _ = model.freeze(prefixes: freeze)
                if eval { model.eval() }
                var random = SeededRandom(seed: 4)
                let images = Initialization.uniform(shape: [2, 3, 64, 32], bound: 2, rng: &random)
                let tape = Tape()
                let profile = OpProfile()
                tape.profile = profile
                let output = try model(tape.constant(images))
                _ = try tape.backward(output.sumOfSquares())
                let trainable = model.namedParameters().filter { !$0.parameter.isFrozen }
                return Result(
                    output: output.value.values.map(\.bitPattern),
                    gradients: Dictionary(uniqueKeysWithValues: try trainable.map { ($0.name, try XCTUnwrap($0.parameter.gradient, $0.name).values.map(\.bitPattern)) }),
                    buffers: Dictionary(uniqueKeysWithValues: model.namedBuffers().map { ($0.name, $0.buffer.value.values.map(\.bitPattern)) }),
                    fused: profile.entries.filter { $0.label.contains("→ depthwise") }.map(\.calls).reduce(0, +),
                    followed: profile.entries.filter { $0.label.contains("→ depthwise") && $0.label.hasSuffix("→ BN+ReLU6") }
                        .map(\.calls).reduce(0, +))
            }
        }
        // 13 blocks: the stem and 4 + 5 + 1 blocks feed a depthwise layer inside the backbone's
        // chains (stride-4 tap: 2 + 1 in stage3); one block → block per head tower (2 convolutions).
        var configuration = small(.anchorFree)
        configuration.headConvolutions = 2
        var stride4 = small(.anchorFree, stride4: true)
        stride4.headConvolutions = 2
        for (configuration, fusedOps) in [(configuration, 11 + 3), (stride4, 10 + 4)] {
            let separate = try run(configuration, fused: false)
            let fused = try run(configuration, fused: true)
            XCTAssertEqual(separate.fused, 0)
            XCTAssertEqual(fused.fused, fusedOps, "fused ops, stride 4: \(configuration.includeStride4)")
            XCTAssertEqual(fused.followed, fusedOps, "each with the depthwise layer's own batch norm")
            XCTAssertFalse(fused.gradients.isEmpty)
            XCTAssertEqual(fused.output, separate.output)
            XCTAssertEqual(fused.gradients.keys.sorted(), separate.gradients.keys.sorted())
            for (name, bits) in separate.gradients { XCTAssertEqual(fused.gradients[name], bits, "gradient of \(name)") }
            for (name, bits) in separate.buffers { XCTAssertEqual(fused.buffers[name], bits, "buffer \(name)") }
        }
        // A frozen stem and stage3 normalise with running statistics: those layers run unfused.
        // A frozen depthwise layer alone (stage4's second block): the op runs without its batch norm.
        for (freeze, fused, followed) in [(["backbone.stem", "backbone.stage3"], 11 + 3 - 5, 11 + 3 - 5),
                                          (["backbone.stage4.1.depthwise"], 11 + 3, 11 + 3 - 1)] {
            let frozen = try run(configuration, fused: true, freeze: freeze), frozenSeparate = try run(configuration, fused: false, freeze: freeze)
            XCTAssertEqual([frozen.fused, frozen.followed], [fused, followed], "frozen \(freeze)")
            XCTAssertEqual(frozen.output, frozenSeparate.output, "frozen \(freeze)")
            XCTAssertEqual(frozen.gradients, frozenSeparate.gradients, "frozen \(freeze)")
            XCTAssertEqual(frozen.buffers, frozenSeparate.buffers, "frozen \(freeze)")
        }
        XCTAssertEqual(try run(configuration, fused: true, eval: true).fused, 0, "eval mode normalises with running statistics")
    }

    func testParameterNamesKeepTheBackboneOfTheReferenceDetector() throws {
        let names = Set(try UIDetector(configuration: small(.anchorFree, stride4: true), seed: 0).namedParameters().map(\.name))
        XCTAssertTrue(names.contains("backbone.stage3.2.pointwise.weight"))
        XCTAssertTrue(names.contains("fpn.lateral.3.weight"), "four pyramid levels with stride 4")
        XCTAssertTrue(names.contains("head.outputs.3.bias"))
        XCTAssertEqual(UIDetector.backbonePrefixes(stages: 2), ["backbone.stem", "backbone.stage3"])
    }

    func testOptionsAreValidatedBeforeAnythingIsAllocated() {
        XCTAssertThrowsError(try UIDetectorConfiguration(options: ["fpn_channels": "99999999999"], classCount: 3, inputHeight: 512, inputWidth: 256)) {
            XCTAssertEqual("\($0)", "architecture.options.fpn_channels is 99999999999; expected an integer in 1…1024")
        }
        XCTAssertThrowsError(try UIDetectorConfiguration(options: ["heads": "anchored"], classCount: 3, inputHeight: 512, inputWidth: 256)) {
            XCTAssertTrue("\($0)".hasPrefix("architecture.options.heads is not an option of ui-detector"), "\($0)")
        }
        XCTAssertThrowsError(try UIDetectorConfiguration(options: [:], classCount: 3, inputHeight: 500, inputWidth: 256)) {
            XCTAssertTrue("\($0)".contains("multiples of 32"), "\($0)")
        }
    }

    /// End to end at the smallest scale: one screen with two elements, the loss falls by 4× in 40
    /// steps (ATSS, then task-aligned), for both heads.
    func testTheLossOverfitsOneScreenForBothHeads() throws {
        for head in [UIDetectorConfiguration.HeadKind.anchorFree, .anchored] {
            let configuration = small(head)
            let model = try UIDetector(configuration: configuration, seed: 3)
            let loss = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [1, 1, 1])
            let optimizer = try AdamW(parameters: model.namedParameters(), learningRate: 0.01, weightDecay: 0)
            var images = try Tensor(repeating: -1, shape: [2, 3, 64, 32])
            images.withUnsafeMutableBufferPointer { p in
                for n in 0..<2 { for c in 0..<3 { for y in 8..<24 { for x in 4..<28 { p[((n * 3 + c) * 64 + y) * 32 + x] = 1 } } } }
            }
            let targets = [[Annotation(classIndex: 1, box: BoundingBox(x: 4, y: 8, width: 24, height: 16)),
                            Annotation(classIndex: 2, box: BoundingBox(x: 2, y: 40, width: 28, height: 6))]]
            var first: Float?, last: Float = 0
            for step in 0..<40 {
                let result = try TrainingStep.run(images: images, step: step, forward: { try model($0) }, objective: { outputs in
                    let (total, terms) = try loss(outputs, targets: targets + targets, taskAligned: step >= 20)
                    return StepLoss(total: total, terms: terms)
                }, optimizer: optimizer)
                last = result.loss
                if first == nil { first = last }
            }
            XCTAssertLessThan(last, first! / 4, "\(head): loss \(first!) → \(last)")
        }
    }
}
