import Autograd
@testable import Kernels // GEMM.$splitThreshold, to force the split-GEMM paths on small shapes
import Support
import Tensor
import XCTest

/// Tier 2 on seeded random shapes: every op family draws its shapes and hyper-parameters
/// (batch, channels, H, W, kernel, stride, padding, groups; reduction axes; broadcast pairs),
/// so index arithmetic is checked beyond the hand-picked cases. Failures name the draw.
final class RandomShapeGradientTests: XCTestCase {
    /// Three kernel workers with every GEMM allowed to split: batches of 1–2 are below the
    /// thread count, so each GEMM splits itself into column or row blocks; batches of 3–4
    /// split images across workers and sum per-worker weight gradients.
    func withSplitGEMMs(_ body: () throws -> Void) throws {
        let saved = Parallel.threadCount
        Parallel.threadCount = 3
        defer { Parallel.threadCount = saved }
        try GEMM.$splitThreshold.withValue(1) { try body() }
    }

    func check(seed: UInt64, _ context: String, maximumElementsPerInput: Int = 120, inputRanges: [ClosedRange<Double>] = []) -> GradientCheck {
        var check = GradientCheck()
        check.seed = seed
        check.context = context + ": "
        check.maximumElementsPerInput = maximumElementsPerInput
        check.inputRanges = inputRanges
        return check
    }

    func testConvolutionOnRandomShapes() throws {
        var rng = SeededRandom(seed: 101)
        try withSplitGEMMs {
            for trial in 0..<16 {
                let groups = [1, 1, 2, 3].randomElement(using: &rng)!
                let batch = rng.int(in: 1...4)
                // Every fourth draw is a wide 1×1 (≥ 32 output channels): its GEMMs split into row blocks.
                let wide = trial % 4 == 3
                let (kh, kw) = wide ? (1, 1) : (rng.int(in: 1...4), rng.int(in: 1...4))
                let inChannels = groups * rng.int(in: 1...3)
                let outChannels = groups * (wide ? rng.int(in: 32...40) : rng.int(in: 1...3))
                let stride = wide ? (1, 1) : (rng.int(in: 1...3), rng.int(in: 1...3))
                let padding = (rng.int(in: 0...(kh - 1)), rng.int(in: 0...(kw - 1)))
                let height = rng.int(in: max(1, kh - 2 * padding.0)...8), width = rng.int(in: max(1, kw - 2 * padding.1)...9)
                let input = [batch, inChannels, height, width], weight = [outChannels, inChannels / groups, kh, kw]
                let bias = rng.chance(0.5)
                let shapes = [input, weight] + (bias ? [[outChannels]] : [])
                try check(seed: UInt64(trial + 1), "conv trial \(trial): input \(input), weight \(weight), stride \(stride), padding \(padding), groups \(groups)")
                    .run(shapes: shapes, engine: { _, v in
                        try v[0].conv2d(weight: v[1], bias: bias ? v[2] : nil, stride: stride, padding: padding, groups: groups)
                    }, reference: { xs in
                        convolutionReference(xs[0], input, xs[1], weight, bias: bias ? xs[2] : nil, stride: stride, padding: padding, groups: groups)
                    })
            }
        }
    }

    /// Widths ≥ 17 with odd H and W: the SIMD kernels run their 8/16-lane main loop and then a
    /// partial tail in every row, forward and backward, for stride 1 and 2.
    func testDepthwise3x3MainLoopsAndTails() throws {
        var rng = SeededRandom(seed: 202)
        try withSplitGEMMs {
            for stride in [1, 2] {
                for trial in 0..<3 {
                    let channels = rng.int(in: 1...3), batch = rng.int(in: 1...2)
                    let height = 2 * rng.int(in: 1...3) + 1
                    // Stride 2's first draw has an output row wider than 16 too (input ≥ 35).
                    let width = 2 * (stride == 2 && trial == 0 ? rng.int(in: 17...20) : rng.int(in: 8...20)) + 1
                    let input = [batch, channels, height, width], weight = [channels, 1, 3, 3]
                    try check(seed: UInt64(10 * stride + trial), "depthwise 3×3 s\(stride) trial \(trial): input \(input)",
                              maximumElementsPerInput: 400)
                        .run(shapes: [input, weight], engine: { _, v in
                            try v[0].conv2d(weight: v[1], stride: (stride, stride), padding: (1, 1), groups: channels)
                        }, reference: { xs in
                            convolutionReference(xs[0], input, xs[1], weight, bias: nil, stride: (stride, stride), padding: (1, 1), groups: channels)
                        })
                }
            }
        }
    }

    /// Depthwise shapes off the SIMD path (other kernels, strides, paddings) use the generic loops.
    func testGenericDepthwiseOnRandomShapes() throws {
        var rng = SeededRandom(seed: 303)
        for trial in 0..<4 {
            let channels = rng.int(in: 2...4), kernel = [2, 4, 5].randomElement(using: &rng)!
            let stride = rng.int(in: 1...3), padding = rng.int(in: 0...(kernel / 2))
            let input = [rng.int(in: 1...2), channels, rng.int(in: kernel...8), rng.int(in: kernel...9)], weight = [channels, 1, kernel, kernel]
            try check(seed: UInt64(trial + 1), "generic depthwise trial \(trial): input \(input), kernel \(kernel), stride \(stride), padding \(padding)")
                .run(shapes: [input, weight, [channels]], engine: { _, v in
                    try v[0].conv2d(weight: v[1], bias: v[2], stride: (stride, stride), padding: (padding, padding), groups: channels)
                }, reference: { xs in
                    convolutionReference(xs[0], input, xs[1], weight, bias: xs[2], stride: (stride, stride), padding: (padding, padding), groups: channels)
                })
        }
    }

    func testSumAndMeanOverRandomAxes() throws {
        var rng = SeededRandom(seed: 404)
        for trial in 0..<12 {
            let rank = rng.int(in: 1...4)
            let shape = (0..<rank).map { _ in rng.int(in: 1...5) }
            let chosen = (0..<rank).filter { _ in rng.chance(0.5) }
            // Empty draws mean "all axes" (nil); some axes are given from the end (negative).
            let axes: [Int]? = chosen.isEmpty ? nil : chosen.map { rng.chance(0.3) ? $0 - rank : $0 }
            let keep = rng.chance(0.5), mean = rng.chance(0.5)
            try check(seed: UInt64(trial + 1), "\(mean ? "mean" : "sum") trial \(trial): shape \(shape), axes \(axes.map { "\($0)" } ?? "all"), keep \(keep)")
                .run(shapes: [shape], engine: { _, v in
                    mean ? try v[0].mean(axes: axes, keepingDimensions: keep) : try v[0].sum(axes: axes, keepingDimensions: keep)
                }, reference: { xs in
                    reduceReference(xs[0], shape, axes: chosen.isEmpty ? Array(0..<rank) : chosen, mean: mean)
                })
        }
    }

    func testBroadcastArithmeticOnRandomShapePairs() throws {
        var rng = SeededRandom(seed: 505)
        let operations: [(String, (Variable, Variable) throws -> Variable, (Double, Double) -> Double)] = [
            ("add", { try $0 + $1 }, +), ("subtract", { try $0 - $1 }, -), ("multiply", { try $0 * $1 }, *), ("divide", { try $0 / $1 }, /),
        ]
        for trial in 0..<16 {
            let rank = rng.int(in: 1...4)
            let full = (0..<rank).map { _ in rng.int(in: 1...4) }
            // The partner keeps each dimension or makes it 1, and may drop leading ones (down to a scalar).
            let partner = Array(full.map { rng.chance(0.5) ? 1 : $0 }.dropFirst(rng.int(in: 0...rank)))
            let (sa, sb) = rng.chance(0.5) ? (full, partner) : (partner, full)
            let (name, engine, reference) = operations[trial % operations.count]
            try check(seed: UInt64(trial + 1), "\(name) trial \(trial): \(sa) with \(sb)", inputRanges: [-1...1, 0.5...2])
                .run(shapes: [sa, sb], engine: { try engine($1[0], $1[1]) }, reference: { broadcastReference($0[0], sa, $0[1], sb, reference) })
        }
    }

    func testBatchNormTrainModeOnRandomShapes() throws {
        var rng = SeededRandom(seed: 606)
        for trial in 0..<6 {
            var shape = [rng.int(in: 1...3), rng.int(in: 1...4), rng.int(in: 1...4), rng.int(in: 1...5)]
            if shape[0] * shape[2] * shape[3] == 1 { shape[3] = 2 } // train mode needs two values per channel
            let fused = rng.chance(0.5)
            // γ up to 4 spreads outputs past 6, so a fused ReLU6 meets both kinks.
            try check(seed: UInt64(trial + 1), "batchNorm trial \(trial): \(shape), fused ReLU6 \(fused)",
                      inputRanges: [-2...2, fused ? 1...4 : 0.5...1.5, fused ? -1...3 : -1...1])
                .run(shapes: [shape, [shape[1]], [shape[1]]], engine: { _, v in
                    try v[0].batchNorm(gamma: v[1], beta: v[2], activation: fused ? .relu6 : nil).output
                }, reference: { xs in
                    let y = batchNormReference(xs[0], shape, gamma: xs[1], beta: xs[2])
                    return fused ? y.map { min(max($0, 0), 6) } : y
                })
        }
    }

    func testUpsampleMaxPoolAndGatherOnRandomShapes() throws {
        var rng = SeededRandom(seed: 707)
        for trial in 0..<4 {
            let shape = [rng.int(in: 1...2), rng.int(in: 1...3), rng.int(in: 1...5), rng.int(in: 1...5)]
            try check(seed: UInt64(trial + 1), "upsample trial \(trial): \(shape)")
                .run(shapes: [shape], engine: { try $1[0].upsampledNearest2x() }, reference: { upsampleReference($0[0], shape) })
        }
        for trial in 0..<6 {
            let kernel = rng.int(in: 1...3), stride = rng.int(in: 1...3), padding = rng.int(in: 0...(kernel / 2))
            let shape = [rng.int(in: 1...2), rng.int(in: 1...3), rng.int(in: kernel...7), rng.int(in: kernel...7)]
            try check(seed: UInt64(trial + 1), "maxPool trial \(trial): \(shape), kernel \(kernel), stride \(stride), padding \(padding)")
                .run(shapes: [shape], engine: { try $1[0].maxPool2d(kernel: kernel, stride: stride, padding: padding) },
                     reference: { maxPoolReference($0[0], shape, kernel: kernel, stride: stride, padding: padding) })
        }
        for trial in 0..<6 {
            let shape = (0..<rng.int(in: 1...3)).map { _ in rng.int(in: 1...4) }
            let axis = rng.int(in: 0..<shape.count)
            let indices = (0..<rng.int(in: 1...6)).map { _ in rng.int(in: 0..<shape[axis]) } // repeats scatter-add
            try check(seed: UInt64(trial + 1), "gather trial \(trial): \(shape), axis \(axis), indices \(indices)")
                .run(shapes: [shape], engine: { try $1[0].gather(axis: axis, indices: indices) },
                     reference: { gatherReference($0[0], shape, axis: axis, indices: indices) })
        }
    }

    func testSoftmaxAndLossesOnRandomShapes() throws {
        var rng = SeededRandom(seed: 808)
        for trial in 0..<6 {
            let shape = (0..<rng.int(in: 1...3)).map { _ in rng.int(in: 1...5) }
            let axis = rng.int(in: 0..<shape.count), logarithm = rng.chance(0.5)
            try check(seed: UInt64(trial + 1), "\(logarithm ? "logSoftmax" : "softmax") trial \(trial): \(shape), axis \(axis)", inputRanges: [-3...3])
                .run(shapes: [shape], engine: { _, v in logarithm ? try v[0].logSoftmax(axis: axis) : try v[0].softmax(axis: axis) },
                     reference: { softmaxReference($0[0], shape, axis: axis, log: logarithm) })
        }
        let reductions: [(LossReduction, ([Double]) -> [Double])] = [
            (.none, { $0 }), (.sum, { [$0.reduce(0, +)] }), (.mean, { [$0.reduce(0, +) / Double($0.count)] }),
        ]
        for trial in 0..<6 {
            let shape = (0..<rng.int(in: 1...3)).map { _ in rng.int(in: 1...5) }
            let count = shape.reduce(1, *)
            let targets = (0..<count).map { _ in Float(rng.chance(0.3) ? rng.uniform() : Double(rng.int(in: 0...1))) }
            let weights = (0..<count).map { _ in Float(rng.uniform(0.5, 2)) }
            let (reduction, reduce) = reductions[trial % reductions.count]
            let t = try Tensor(shape: shape, values: targets), w = try Tensor(shape: shape, values: weights)
            try check(seed: UInt64(trial + 1), "binaryCrossEntropyWithLogits trial \(trial): \(shape), \(reduction)", inputRanges: [-4...4])
                .run(shapes: [shape], engine: { try $1[0].binaryCrossEntropyWithLogits(targets: t, weights: w, reduction: reduction) },
                     reference: { xs in reduce(xs[0].indices.map { bceReference(xs[0][$0], target: targets[$0], weight: weights[$0]) }) })
            let beta = [Float(0.25), 1].randomElement(using: &rng)!
            try check(seed: UInt64(trial + 1), "smoothL1 trial \(trial): \(shape), beta \(beta), \(reduction)", inputRanges: [-2...2])
                .run(shapes: [shape], engine: { try $1[0].smoothL1(targets: t, beta: beta, reduction: reduction) }, reference: { xs in
                    reduce(xs[0].indices.map { i in
                        let d = abs(xs[0][i] - Double(targets[i]))
                        return d < Double(beta) ? 0.5 * d * d / Double(beta) : d - 0.5 * Double(beta)
                    })
                })
        }
    }
}
