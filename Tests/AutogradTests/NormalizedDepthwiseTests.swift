import Autograd
import Kernels
import Support
import Tensor
import XCTest

/// `batchNormDepthwise`: batch norm (+ relu/relu6) and a depthwise 3×3 as one op that never
/// stores the normalised tensor. It must equal the two ops bit for bit (what lets training use it
/// without changing a run), and its gradients must match a float64 reference.
final class NormalizedDepthwiseTests: XCTestCase {
    func testGradientsAgainstFloat64() throws {
        for (index, (shape, stride, activation)) in [
            ([2, 3, 5, 6], 1, ActivationKind.relu6), ([2, 3, 7, 6], 2, .relu6), ([1, 2, 6, 5], 1, nil), ([2, 2, 5, 5], 2, .relu),
        ].enumerated() {
            var check = GradientCheck()
            check.seed = UInt64(index + 1)
            check.context = "\(shape) stride \(stride) \(activation.map { "\($0)" } ?? "no activation"): "
            // γ up to 4 spreads normalised values past 6, so both of ReLU6's kinks are crossed.
            check.inputRanges = [-2...2, 1...4, -1...3, -1...1]
            let c = shape[1]
            try check.run(shapes: [shape, [c], [c], [c, 1, 3, 3]], engine: { _, v in
                try v[0].batchNormDepthwise(gamma: v[1], beta: v[2], activation: activation, weight: v[3], stride: stride).output
            }, reference: { xs in
                let normalized = batchNormReference(xs[0], shape, gamma: xs[1], beta: xs[2]).map { value -> Double in
                    switch activation {
                    case .relu?: return max(value, 0)
                    case .relu6?: return min(max(value, 0), 6)
                    default: return value
                    }
                }
                return convolutionReference(normalized, shape, xs[3], [c, 1, 3, 3], bias: nil, stride: (stride, stride),
                                            padding: (1, 1), groups: c)
            })
        }
    }

    /// With the following batch norm in the op: gradients of all six inputs against float64.
    func testDepthwiseWithFollowingBatchNormAgainstFloat64() throws {
        for (index, (shape, stride)) in [([2, 3, 5, 6], 1), ([2, 2, 7, 6], 2)].enumerated() {
            var check = GradientCheck()
            check.seed = UInt64(index + 21)
            check.context = "\(shape) stride \(stride), then batch norm + ReLU6: "
            check.inputRanges = [-2...2, 1...4, -1...3, -1...1, 1...4, -1...3]
            let c = shape[1]
            let outShape = [shape[0], c, (shape[2] - 1) / stride + 1, (shape[3] - 1) / stride + 1]
            try check.run(shapes: [shape, [c], [c], [c, 1, 3, 3], [c], [c]], engine: { _, v in
                try v[0].batchNormDepthwise(gamma: v[1], beta: v[2], activation: .relu6, weight: v[3], stride: stride,
                                            then: FollowingBatchNorm(gamma: v[4], beta: v[5], activation: .relu6)).output
            }, reference: { xs in
                let normalized = batchNormReference(xs[0], shape, gamma: xs[1], beta: xs[2]).map { min(max($0, 0), 6) }
                let convolved = convolutionReference(normalized, shape, xs[3], [c, 1, 3, 3], bias: nil, stride: (stride, stride),
                                                     padding: (1, 1), groups: c)
                return batchNormReference(convolved, outShape, gamma: xs[4], beta: xs[5]).map { min(max($0, 0), 6) }
            })
        }
    }

    /// The fused op against `batchNorm` then `conv2d` (then `batchNorm` again when the op runs the
    /// following batch norm): output, statistics and all gradients identical, on one to three
    /// threads (odd widths exercise the vector kernels' partial columns).
    func testSameBitsAsBatchNormThenDepthwiseConvolution() throws {
        // The last two have planes of ≥ `NormalizedDepthwise.channelTaskPlane` floats: their forward runs
        // one channel a task, the others by image.
        for (shape, stride) in [([3, 5, 9, 13], 1), ([2, 4, 11, 10], 2), ([4, 3, 16, 24], 1), ([2, 6, 17, 9], 2),
                                ([2, 3, 96, 89], 1), ([2, 2, 131, 66], 2)] {
            for threads in 1...3 {
                let previous = Parallel.threadCount
                Parallel.threadCount = threads
                defer { Parallel.threadCount = previous }
                var rng = SeededRandom(seed: UInt64(shape.reduce(0, +) + stride))
                let c = shape[1]
                let x = try randomTensor(shape, -2...2, &rng), gamma = try randomTensor([c], 0.5...3, &rng)
                let beta = try randomTensor([c], -1...2, &rng), weight = try randomTensor([c, 1, 3, 3], -1...1, &rng)
                let outShape = [shape[0], c, (shape[2] - 1) / stride + 1, (shape[3] - 1) / stride + 1]
                let seed = try randomTensor(outShape, -1...1, &rng)

                let gamma2 = try randomTensor([c], 0.5...3, &rng), beta2 = try randomTensor([c], -1...2, &rng)

                // Batch norm → depthwise, and the same with the following batch norm (γ2, β2) inside.
                func run(fused: Bool, following: Bool) throws -> (output: Tensor, statistics: [Tensor], gradients: [Tensor]) {
                    let tape = Tape()
                    let leaves = [x, gamma, beta, weight, gamma2, beta2].map { tape.leaf($0) }
                    var output: Variable, statistics: [BatchStatistics]
                    if fused {
                        let result = try leaves[0].batchNormDepthwise(
                            gamma: leaves[1], beta: leaves[2], activation: .relu6, weight: leaves[3], stride: stride,
                            then: following ? FollowingBatchNorm(gamma: leaves[4], beta: leaves[5], activation: .relu6) : nil)
                        (output, statistics) = (result.output, [result.statistics] + (result.followingStatistics.map { [$0] } ?? []))
                    } else {
                        let (normalized, first) = try leaves[0].batchNorm(gamma: leaves[1], beta: leaves[2], activation: .relu6)
                        output = try normalized.conv2d(weight: leaves[3], stride: (stride, stride), padding: (1, 1), groups: c)
                        statistics = [first]
                        if following {
                            let second: BatchStatistics
                            (output, second) = try output.batchNorm(gamma: leaves[4], beta: leaves[5], activation: .relu6)
                            statistics.append(second)
                        }
                    }
                    let gradients = try tape.backward(output, seed: seed)
                    return (output.value, statistics.flatMap { [$0.mean, $0.variance] },
                            try leaves.prefix(following ? 6 : 4).map { try XCTUnwrap(gradients[$0]) })
                }
                for following in [false, true] {
                    let fused = try run(fused: true, following: following), separate = try run(fused: false, following: following)
                    let context = "\(shape) stride \(stride), \(threads) threads\(following ? ", then batch norm" : "")"
                    XCTAssertEqual(fused.output.shape, separate.output.shape, context)
                    XCTAssertEqual(bits(fused.output), bits(separate.output), "output, \(context)")
                    XCTAssertEqual(fused.statistics.count, following ? 4 : 2, context)
                    for (a, b) in zip(fused.statistics, separate.statistics) { XCTAssertEqual(bits(a), bits(b), "statistics, \(context)") }
                    for (name, (a, b)) in zip(["input", "gamma", "beta", "weight", "gamma2", "beta2"], zip(fused.gradients, separate.gradients)) {
                        XCTAssertEqual(bits(a), bits(b), "gradient of \(name), \(context)")
                    }
                }
            }
        }
    }

    func testBadInputsNameTheOpAndShapes() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(zeros: [2, 3, 4, 4]))
        let gamma = tape.leaf(try Tensor(repeating: 1, shape: [3])), beta = tape.leaf(try Tensor(zeros: [3]))
        XCTAssertThrowsError(try x.batchNormDepthwise(gamma: gamma, beta: beta, weight: tape.leaf(try Tensor(zeros: [3, 1, 5, 5])), stride: 1)) {
            XCTAssertTrue("\($0)".contains("batchNormDepthwise") && "\($0)".contains("[3, 1, 5, 5]"), "\($0)")
        }
        let weight = tape.leaf(try Tensor(zeros: [3, 1, 3, 3]))
        XCTAssertThrowsError(try x.batchNormDepthwise(gamma: gamma, beta: beta, weight: weight, stride: 3)) {
            XCTAssertTrue("\($0)".contains("stride 3"), "\($0)")
        }
        XCTAssertThrowsError(try x.batchNormDepthwise(gamma: gamma, beta: beta, activation: .silu, weight: weight, stride: 1)) {
            XCTAssertTrue("\($0)".contains("fused"), "\($0)")
        }
        XCTAssertThrowsError(try tape.leaf(try Tensor(zeros: [1, 3, 1, 1])).batchNormDepthwise(gamma: gamma, beta: beta, weight: weight, stride: 1)) {
            XCTAssertTrue("\($0)".contains("more than one value"), "\($0)")
        }
        // The following batch norm: gamma of the wrong length, an activation it cannot fuse, and a
        // stride-2 output of one value per channel.
        XCTAssertThrowsError(try x.batchNormDepthwise(gamma: gamma, beta: beta, weight: weight, stride: 1,
                                                      then: FollowingBatchNorm(gamma: tape.leaf(try Tensor(zeros: [2])), beta: beta))) {
            XCTAssertTrue("\($0)".contains("batchNormDepthwise") && "\($0)".contains("[2]") && "\($0)".contains("following"), "\($0)")
        }
        XCTAssertThrowsError(try x.batchNormDepthwise(gamma: gamma, beta: beta, weight: weight, stride: 1,
                                                      then: FollowingBatchNorm(gamma: gamma, beta: beta, activation: .sigmoid))) {
            XCTAssertTrue("\($0)".contains("fused"), "\($0)")
        }
        XCTAssertThrowsError(try tape.leaf(try Tensor(zeros: [1, 3, 2, 2])).batchNormDepthwise(
            gamma: gamma, beta: beta, weight: weight, stride: 2, then: FollowingBatchNorm(gamma: gamma, beta: beta))) {
            XCTAssertTrue("\($0)".contains("following batch norm needs more than one value"), "\($0)")
        }
    }

    private func randomTensor(_ shape: [Int], _ range: ClosedRange<Float>, _ rng: inout SeededRandom) throws -> Tensor {
        try Tensor(shape: shape, values: (0..<Tensor.elementCount(shape)).map { _ in Float(rng.uniform(Double(range.lowerBound), Double(range.upperBound))) })
    }

    private func bits(_ t: Tensor) -> [UInt32] { t.values.map(\.bitPattern) }
}
