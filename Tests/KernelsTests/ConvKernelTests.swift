import XCTest
@testable import Kernels

final class ConvKernelTests: XCTestCase {
    struct Results: Equatable {
        var output: [Float], gradInput: [Float], gradWeight: [Float], gradBias: [Float]
    }

    /// Runs all three kernels on seeded data.
    func run(_ g: Conv2dGeometry, seed: UInt64, withBias: Bool = true) -> (Results, input: [Float], weight: [Float], bias: [Float], gradOutput: [Float]) {
        var random = TestRandom(seed: seed)
        var input = random.floats(g.inputCount)
        var weight = random.floats(g.weightCount, scale: 0.5)
        var bias = random.floats(g.outChannels)
        var gradOutput = random.floats(g.outputCount)
        var r = Results(
            output: [Float](repeating: .nan, count: g.outputCount), gradInput: [Float](repeating: .nan, count: g.inputCount),
            gradWeight: [Float](repeating: .nan, count: g.weightCount), gradBias: [Float](repeating: .nan, count: g.outChannels))
        input.withPointer { x in
            weight.withPointer { w in
                bias.withPointer { b in
                    gradOutput.withPointer { gy in
                        r.output.withPointer { Conv2dKernel.forward(g, input: x, weight: w, bias: withBias ? b : nil, output: $0) }
                        r.gradInput.withPointer { Conv2dKernel.backwardInput(g, gradOutput: gy, weight: w, gradInput: $0) }
                        r.gradWeight.withPointer { gw in
                            r.gradBias.withPointer { gb in
                                Conv2dKernel.backwardWeight(g, input: x, gradOutput: gy, gradWeight: gw, gradBias: gb)
                            }
                        }
                    }
                }
            }
        }
        return (r, input, weight, bias, gradOutput)
    }

    /// Every dense path (im2col + sgemm, the packed kernel, Winograd for 3×3 stride-1 pad-1
    /// layers, their weight gradients in Winograd's domain too: `bench train --dense-kernels`),
    /// 1 and 2 threads.
    func check(_ g: Conv2dGeometry, seed: UInt64 = 1, tolerance: Double = 1e-5, file: StaticString = #filePath, line: UInt = #line) {
        // `winograd` and `winograd-weights` run a pointwise layer as `packed` does.
        for threads in [1, 2] { for kernels in Conv2dKernel.DenseKernels.allCases where [.openblas, .packed].contains(kernels) || !g.isPointwise {
            withThreads(threads) { Conv2dKernel.withDenseKernels(kernels) {
                let (r, input, weight, bias, gradOutput) = run(g, seed: seed)
                let name = "\(g) threads \(threads) \(kernels) kernels"
                assertClose(r.output, ConvReference.forward(g, input: input, weight: weight, bias: bias), 
                            tolerance: tolerance, "forward \(name)", file: file, line: line)
                assertClose(r.gradInput, ConvReference.backwardInput(g, gradOutput: gradOutput, weight: weight),
                            tolerance: tolerance, "backwardInput \(name)", file: file, line: line)
                let (gw, gb) = ConvReference.backwardWeight(g, input: input, gradOutput: gradOutput)
                assertClose(r.gradWeight, gw, tolerance: tolerance, "backwardWeight \(name)", file: file, line: line)
                assertClose(r.gradBias, gb, tolerance: tolerance, "backwardBias \(name)", file: file, line: line)
            } }
        } }
    }

    func testPointwise() throws {
        check(try Conv2dGeometry(batch: 3, inChannels: 5, inHeight: 4, inWidth: 6, outChannels: 7, kernel: 1))
    }

    func testDense3x3Padded() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 7, inWidth: 5, outChannels: 4, kernel: 3, padding: 1))
    }

    func testDenseStride2() throws {
        check(try Conv2dGeometry(batch: 3, inChannels: 3, inHeight: 9, inWidth: 8, outChannels: 5, kernel: 3, stride: 2, padding: 1))
    }

    /// Rows wide enough for the stride-2 unfold's vector steps (eight outputs from 16 loaded
    /// values) and their scalar tail, the last kept value at the right edge of the image.
    func testDenseStride2WideRows() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 9, inWidth: 41, outChannels: 5, kernel: 3, stride: 2, padding: 1))
        check(try Conv2dGeometry(batch: 1, inChannels: 2, inHeight: 6, inWidth: 34, outChannels: 3, kernel: 3, stride: 2))
    }

    func testGroups2() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 4, inHeight: 5, inWidth: 6, outChannels: 6, kernel: 3, padding: 1, groups: 2))
    }

    func testGroupedPointwise() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 4, inHeight: 3, inWidth: 5, outChannels: 6, kernel: 1, groups: 2))
    }

    func testNonSquareKernelStrideAndPadding() throws {
        check(try Conv2dGeometry(
            batch: 2, inChannels: 2, inHeight: 7, inWidth: 9, outChannels: 3, kernelHeight: 2, kernelWidth: 4,
            strideHeight: 1, strideWidth: 3, padHeight: 0, padWidth: 2))
    }

    /// The packed input gradient's transposed convolution pads by kernel − 1 − pad on each axis:
    /// no padding (a "valid" layer), uneven kernels and paddings, and a padding the kernel cannot
    /// take back (the im2col path instead).
    func testStride1InputGradientPaddings() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 6, inWidth: 7, outChannels: 8, kernel: 3))
        check(try Conv2dGeometry(
            batch: 2, inChannels: 4, inHeight: 5, inWidth: 9, outChannels: 7, kernelHeight: 2, kernelWidth: 5,
            padHeight: 1, padWidth: 3))
        check(try Conv2dGeometry(batch: 1, inChannels: 3, inHeight: 4, inWidth: 5, outChannels: 2, kernel: 1, padding: 1))
        // Wider than a 16-position tile and more than six output channels a block, both ways.
        check(try Conv2dGeometry(batch: 2, inChannels: 13, inHeight: 5, inWidth: 21, outChannels: 11, kernel: 3, padding: 1))
    }

    /// The direct weight gradient's panels and blocks: a plane longer than a panel (35×33: two
    /// bands of 18 and 17 rows), more panels than a segment (9 images: 18
    /// panels, 3 segments of partial sums), more output channels than a task (70 > 64), channel
    /// counts that leave edge pairs on both block shapes, spans not a multiple of 16 (a partial
    /// last step); small images grouped several to a panel (7×9).
    func testDirectWeightGradientPanelsSegmentsAndEdges() throws {
        // Sums of 10,395 products: sgemm's own weight gradient is 2e-5 off the float64 reference.
        check(try Conv2dGeometry(batch: 9, inChannels: 13, inHeight: 35, inWidth: 33, outChannels: 70, kernel: 1), tolerance: 1e-4)
        check(try Conv2dGeometry(batch: 20, inChannels: 9, inHeight: 7, inWidth: 9, outChannels: 6, kernel: 1))
        // A 3×3 layer on unfolded panels (two bands): chunks of 12 input channels (108 columns,
        // 4-wide blocks) and of 9, output channels an edge row of pairs; and the stem's shape
        // (stride 2, 27 columns: an edge column of pairs) on planes wider than a vector step.
        let wide3x3 = try Conv2dGeometry(batch: 1, inChannels: 21, inHeight: 35, inWidth: 33, outChannels: 7, kernel: 3, padding: 1)
        check(wide3x3, tolerance: 1e-4)
        XCTAssertEqual(DirectWeightGradient.tasks(wide3x3, unfolds: true, panelPositions: 18 * 33, segments: 1, workers: 2).map(\.channels),
                       [0..<12, 12..<21])
        check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 40, inWidth: 36, outChannels: 16, kernel: 3, stride: 2, padding: 1))
        XCTAssertEqual(DirectWeightGradient.panels(batch: 9, height: 35, width: 33).map { $0.endRow - $0.firstRow },
                       Array([[Int]](repeating: [18, 17], count: 9).joined()))
        XCTAssertEqual(DirectWeightGradient.panels(batch: 20, height: 7, width: 9).map(\.images), [16, 4])
    }

    /// The lane-major route (`DirectWeightGradient.accumulateLaneMajor`) gives the dot-product
    /// blocks' weight gradients bit for bit, on 1 and 2 threads, and both match the float64
    /// reference: partial 16-row blocks (37 and 5 rows: the scalar packing of 1 and 5 rows past
    /// whole groups of 4) and partial 6-row input blocks (20 → 2 rows, 23 → 5 rows, 50 over column-split
    /// tasks); tasks of more than 64 rows (150 on two threads: 80 and 70, packed 64 at a time);
    /// several images a panel (16×24: 2 a panel, then 1) and bands (64×48: 22, 22 and 20 rows);
    /// unfolded 3×3 layers at stride 1 and 2; a gradient of zeros against negative inputs (every product
    /// −0: the sums must come out +0 both ways); a 33-wide plane whose bands are not whole
    /// 16-position steps (the lane-major route leaves those panels to the dot products), and a 3×3
    /// layer with one band of each kind (65×24: 33 rows, 792 positions, then 32 rows, 768).
    func testLaneMajorWeightGradientGivesTheDotProductsBits() throws {
        let shapes = [
            try Conv2dGeometry(batch: 5, inChannels: 20, inHeight: 16, inWidth: 24, outChannels: 37, kernel: 1),
            try Conv2dGeometry(batch: 2, inChannels: 23, inHeight: 64, inWidth: 48, outChannels: 5, kernel: 1),
            try Conv2dGeometry(batch: 2, inChannels: 50, inHeight: 8, inWidth: 8, outChannels: 12, kernel: 1),
            try Conv2dGeometry(batch: 2, inChannels: 14, inHeight: 16, inWidth: 16, outChannels: 150, kernel: 1),
            try Conv2dGeometry(batch: 3, inChannels: 13, inHeight: 20, inWidth: 32, outChannels: 35, kernel: 3, padding: 1),
            try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 40, inWidth: 64, outChannels: 16, kernel: 3, stride: 2, padding: 1),
            try Conv2dGeometry(batch: 2, inChannels: 7, inHeight: 35, inWidth: 33, outChannels: 18, kernel: 1),
            try Conv2dGeometry(batch: 1, inChannels: 9, inHeight: 65, inWidth: 24, outChannels: 33, kernel: 3, padding: 1),
        ]
        for g in shapes {
            var random = TestRandom(seed: 11)
            let input = random.floats(g.inputCount), gradOutput = random.floats(g.outputCount)
            let (reference, _) = ConvReference.backwardWeight(g, input: input, gradOutput: gradOutput)
            var first: [UInt32]?
            for route in Conv2dKernel.WeightGradientRoute.allCases { for threads in [1, 2] {
                let gradWeight = weightGradient(g, input: input, gradOutput: gradOutput, route: route, threads: threads)
                let name = "\(g) \(route) threads \(threads)"
                assertClose(gradWeight, reference, tolerance: 1e-4, name)
                if let first { XCTAssertEqual(gradWeight.map(\.bitPattern), first, name) } else { first = gradWeight.map(\.bitPattern) }
            } }
        }
        XCTAssertEqual(DirectWeightGradient.laneMajorTasks(shapes[2], segments: 1, workers: 2).map(\.channels), [0..<30, 30..<50])
        XCTAssertEqual(DirectWeightGradient.laneMajorTasks(shapes[3], segments: 1, workers: 2).map(\.rows), [0..<80, 80..<150])
        // An unfolded layer splits its input channels only, in passes of 4 channels (36 columns).
        let unfolded = DirectWeightGradient.laneMajorTasks(shapes[4], segments: 1, workers: 2, unfolds: true)
        XCTAssertEqual(unfolded.map(\.channels), [0..<8, 8..<13])
        XCTAssertEqual(unfolded.map(\.rows), [0..<35, 0..<35])
        let g = shapes[0]
        let negative = [Float](repeating: -1.5, count: g.inputCount), zeros = [Float](repeating: 0, count: g.outputCount)
        for route in Conv2dKernel.WeightGradientRoute.allCases {
            let gradWeight = weightGradient(g, input: negative, gradOutput: zeros, route: route, threads: 2)
            XCTAssertEqual(Set(gradWeight.map(\.bitPattern)), [Float(0).bitPattern], "\(route): every sum +0")
        }
    }

    private func weightGradient(
        _ g: Conv2dGeometry, input: [Float], gradOutput: [Float], route: Conv2dKernel.WeightGradientRoute, threads: Int
    ) -> [Float] {
        var input = input, gradOutput = gradOutput, gradWeight = [Float](repeating: .nan, count: g.weightCount)
        withThreads(threads) { Conv2dKernel.withDenseKernels(.winograd) { Conv2dKernel.withWeightGradientRoute(route) {
            input.withPointer { x in gradOutput.withPointer { gy in gradWeight.withPointer { gw in
                Conv2dKernel.backwardWeight(g, input: x, gradOutput: gy, gradWeight: gw, gradBias: nil)
            } } }
        } } }
        return gradWeight
    }

    /// The packed kernels are deterministic across machines, not only runs: the forward, the
    /// input gradient and the pointwise weight gradient give the same bits for 1–3 threads and on
    /// every instruction set this CPU runs (each value is one sum in one order), so with
    /// `dense_kernels: packed` (and `winograd` and `winograd-weights`, whose transforms are the same lane-wise
    /// arithmetic on either) these products do not depend on whether the host has AVX-512 (the
    /// other weight gradients' sgemm follows OpenBLAS's core type and the thread count).
    func testPackedKernelsGiveTheSameBitsOnEveryThreadCountAndInstructionSet() throws {
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        for g in [try Conv2dGeometry(batch: 2, inChannels: 13, inHeight: 5, inWidth: 21, outChannels: 11, kernel: 3, padding: 1),
                  try Conv2dGeometry(batch: 3, inChannels: 20, inHeight: 4, inWidth: 9, outChannels: 14, kernel: 1),
                  try Conv2dGeometry(batch: 9, inChannels: 13, inHeight: 35, inWidth: 33, outChannels: 70, kernel: 1)] {
            for kernels in [Conv2dKernel.DenseKernels.packed, .winograd, .winogradWeights] {
                var first: Results?
                for isa in VectorISA.supported { for threads in [1, 2, 3] {
                    VectorISA.use(isa)
                    let results = withThreads(threads) { PackedConv2d.$parallelMultiplyAdds.withValue(1) {
                        Conv2dKernel.withDenseKernels(kernels) { run(g, seed: 4).0 }
                    } }
                    let name = "\(g) \(kernels) \(isa) threads \(threads)"
                    if let first {
                        XCTAssertEqual(results.output, first.output, "forward \(name)")
                        XCTAssertEqual(results.gradInput, first.gradInput, "input gradient \(name)")
                        if g.isPointwise || kernels != .packed { XCTAssertEqual(results.gradWeight, first.gradWeight, "weight gradient \(name)") }
                    } else {
                        first = results
                    }
                } }
            }
        }
    }

    func testStridedPointwiseUsesIm2col() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 6, inWidth: 7, outChannels: 4, kernel: 1, stride: 2))
    }

    func testDepthwise3x3Stride1() throws {
        // Widths below, at and above one 8-lane vector exercise the row tails.
        for (h, w) in [(5, 3), (4, 8), (6, 19)] {
            check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: h, inWidth: w, outChannels: 3, kernel: 3, padding: 1, groups: 3))
        }
    }

    func testDepthwise3x3Stride2() throws {
        for (h, w) in [(5, 3), (8, 16), (7, 35), (6, 17)] {
            check(try Conv2dGeometry(
                batch: 2, inChannels: 3, inHeight: h, inWidth: w, outChannels: 3, kernel: 3, stride: 2, padding: 1, groups: 3))
        }
    }

    func testGenericDepthwise5x5() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 9, inWidth: 7, outChannels: 3, kernel: 5, stride: 2, padding: 2, groups: 3))
        check(try Conv2dGeometry(batch: 1, inChannels: 2, inHeight: 6, inWidth: 6, outChannels: 2, kernel: 5, padding: 1, groups: 2))
    }

    func testLargeGEMMSplitMatchesReference() throws {
        // Batch 1 with 2 threads makes each GEMM split itself into column (or row) blocks.
        try GEMM.$splitThreshold.withValue(1) {
            check(try Conv2dGeometry(batch: 1, inChannels: 8, inHeight: 6, inWidth: 20, outChannels: 12, kernel: 1))
            check(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 5, inWidth: 8, outChannels: 40, kernel: 3, padding: 1))
        }
        XCTAssertEqual(GEMM.splitThreshold, 1 << 21, "the override ends with its scope")
    }

    func testWithoutBias() throws {
        let g = try Conv2dGeometry(batch: 1, inChannels: 2, inHeight: 4, inWidth: 4, outChannels: 2, kernel: 3, padding: 1)
        let (r, input, weight, _, _) = run(g, seed: 9, withBias: false)
        assertClose(r.output, ConvReference.forward(g, input: input, weight: weight, bias: nil), tolerance: 1e-5)
    }

    func testHandComputedDepthwise() throws {
        // One 3×3 plane of ones, all-ones filter, pad 1: each output counts its in-image neighbours.
        let g = try Conv2dGeometry(batch: 1, inChannels: 2, inHeight: 3, inWidth: 3, outChannels: 2, kernel: 3, padding: 1, groups: 2)
        var input = [Float](repeating: 1, count: 18), weight = [Float](repeating: 1, count: 18)
        var output = [Float](repeating: 0, count: 18)
        input.withPointer { x in weight.withPointer { w in output.withPointer { Conv2dKernel.forward(g, input: x, weight: w, bias: nil, output: $0) } } }
        XCTAssertEqual(Array(output[0..<9]), [4, 6, 4, 6, 9, 6, 4, 6, 4])
    }

    func testDeterministicAcrossRunsAndThreadCounts() throws {
        let shapes = [
            try Conv2dGeometry(batch: 4, inChannels: 8, inHeight: 10, inWidth: 12, outChannels: 16, kernel: 1),
            try Conv2dGeometry(batch: 4, inChannels: 8, inHeight: 10, inWidth: 12, outChannels: 8, kernel: 3, padding: 1),
            try Conv2dGeometry(batch: 4, inChannels: 8, inHeight: 10, inWidth: 12, outChannels: 8, kernel: 3, stride: 2, padding: 1, groups: 8),
        ]
        for g in shapes {
            let first = withThreads(2) { run(g, seed: 5).0 }
            let second = withThreads(2) { run(g, seed: 5).0 }
            XCTAssertEqual(first, second, "two runs with 2 threads differ: \(g)")
            let single = withThreads(1) { run(g, seed: 5).0 }
            // Forward, input gradient and bias gradient never reduce across workers.
            XCTAssertEqual(first.output, single.output, "\(g)")
            XCTAssertEqual(first.gradInput, single.gradInput, "\(g)")
            XCTAssertEqual(first.gradBias, single.gradBias, "\(g)")
            if g.isDepthwise {
                XCTAssertEqual(first.gradWeight, single.gradWeight, "depthwise weight gradient is thread-count invariant")
            } else {
                // GEMM weight gradients sum per-worker partials: equal up to rounding.
                assertClose(first.gradWeight, single.gradWeight.map(Double.init), tolerance: 1e-5, "\(g)")
            }
        }
    }

    /// `Conv2dKernel.backward` (one pass over a depthwise layer's planes) gives the bits of the
    /// separate input and weight gradients, for any thread count, and any subset of gradients.
    func testFusedBackwardMatchesSeparateGradientsBitForBit() throws {
        let shapes = [
            try Conv2dGeometry(batch: 3, inChannels: 5, inHeight: 6, inWidth: 19, outChannels: 5, kernel: 3, padding: 1, groups: 5),
            try Conv2dGeometry(batch: 3, inChannels: 5, inHeight: 7, inWidth: 35, outChannels: 5, kernel: 3, stride: 2, padding: 1, groups: 5),
            try Conv2dGeometry(batch: 2, inChannels: 4, inHeight: 6, inWidth: 6, outChannels: 6, kernel: 3, padding: 1),
        ]
        for g in shapes {
            for threads in [1, 2, 3] {
                withThreads(threads) {
                    let (separate, input, weight, _, gradOutput) = run(g, seed: 21)
                    for (wantInput, wantWeight, wantBias) in [(true, true, true), (true, true, false), (true, false, false), (false, false, true)] {
                        var gi = [Float](repeating: .nan, count: g.inputCount), gw = [Float](repeating: .nan, count: g.weightCount)
                        var gb = [Float](repeating: .nan, count: g.outChannels)
                        input.withUnsafeBufferPointer { x in weight.withUnsafeBufferPointer { w in gradOutput.withUnsafeBufferPointer { gy in
                            gi.withPointer { giP in gw.withPointer { gwP in gb.withPointer { gbP in
                                Conv2dKernel.backward(g, input: x.baseAddress!, gradOutput: gy.baseAddress!, weight: w.baseAddress!,
                                                      gradInput: wantInput ? giP : nil, gradWeight: wantWeight ? gwP : nil,
                                                      gradBias: wantBias ? gbP : nil)
                            } } }
                        } } }
                        let name = "\(g) threads \(threads) input \(wantInput) weight \(wantWeight) bias \(wantBias)"
                        if wantInput { XCTAssertEqual(gi, separate.gradInput, name) } else { XCTAssertTrue(gi.allSatisfy(\.isNaN), name) }
                        if wantWeight { XCTAssertEqual(gw, separate.gradWeight, name) } else { XCTAssertTrue(gw.allSatisfy(\.isNaN), name) }
                        if wantBias { XCTAssertEqual(gb, separate.gradBias, name) } else { XCTAssertTrue(gb.allSatisfy(\.isNaN), name) }
                    }
                }
            }
        }
    }

    func testGeometryValidation() {
        func reason(_ make: () throws -> Conv2dGeometry) -> String {
            do { _ = try make(); return "no error" } catch { return "\(error)" }
        }
        XCTAssertTrue(reason { try Conv2dGeometry(batch: 1, inChannels: 6, inHeight: 4, inWidth: 4, outChannels: 4, kernel: 3, groups: 4) }
            .contains("not both divisible by groups 4"))
        XCTAssertTrue(reason { try Conv2dGeometry(batch: 1, inChannels: 1, inHeight: 2, inWidth: 2, outChannels: 1, kernel: 5, padding: 1) }
            .contains("larger than the padded input 4×4"))
        XCTAssertTrue(reason { try Conv2dGeometry(batch: 1, inChannels: 1, inHeight: 4, inWidth: 4, outChannels: 1, kernel: 3, stride: 0) }
            .contains("stride 0×0"))
        XCTAssertTrue(reason { try Conv2dGeometry(batch: 1, inChannels: 0, inHeight: 4, inWidth: 4, outChannels: 1, kernel: 1) }
            .hasPrefix("conv2d: channels 0→1"))
        XCTAssertTrue(reason { try Conv2dGeometry(batch: 1, inChannels: 1, inHeight: 4, inWidth: 4, outChannels: 1, kernel: 3, padding: -1) }
            .contains("padding -1×-1"))
    }

    func testGeometryOutputSize() throws {
        let g = try Conv2dGeometry(batch: 8, inChannels: 3, inHeight: 512, inWidth: 256, outChannels: 16, kernel: 3, stride: 2, padding: 1)
        XCTAssertEqual(g.outHeight, 256)
        XCTAssertEqual(g.outWidth, 128)
        XCTAssertEqual(g.multiplyAdds, 8 * 16 * 256 * 128 * 27)
    }
}
