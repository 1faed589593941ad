import XCTest
@testable import Kernels

/// The inference kernels against the training kernels: `FusedConv2d` must equal
/// `Conv2dKernel.forward` (with bias) followed by the clamp, in both output layouts, on both
/// threading paths (images across workers; one image with the GEMM split into panels).
final class FusedConvolutionTests: XCTestCase {
    let relu6 = ActivationBounds(.relu6)!

    /// Reference: the training kernel, then the clamp; channels-first.
    func reference(_ g: Conv2dGeometry, _ input: [Float], _ weight: [Float], _ bias: [Float], _ bounds: ActivationBounds) -> [Float] {
        var input = input, weight = weight, bias = bias
        var out = [Float](repeating: .nan, count: g.outputCount)
        input.withPointer { x in weight.withPointer { w in bias.withPointer { b in
            out.withPointer { Conv2dKernel.forward(g, input: x, weight: w, bias: b, output: $0) }
        } } }
        return out.map { $0 < bounds.lower ? bounds.lower : ($0 > bounds.upper ? bounds.upper : $0) }
    }

    func fused(_ g: Conv2dGeometry, _ input: [Float], _ weight: [Float], _ bias: [Float], _ bounds: ActivationBounds,
               workers: Int, positionsFirst: Bool) -> [Float] {
        var input = input, weight = weight, bias = bias
        let plane = g.outHeight * g.outWidth
        var out = [Float](repeating: .nan, count: g.outputCount)
        var scratch = [Float](repeating: .nan, count: max(1, FusedConv2d.scratchCount(g, workers: workers)))
        let layout: FusedConv2d.OutputLayout = positionsFirst ? .positionsFirst(rowStride: g.outChannels, imageStride: g.outChannels * plane) : .channelsFirst
        input.withPointer { x in weight.withPointer { w in bias.withPointer { b in scratch.withPointer { s in
            out.withPointer {
                FusedConv2d.forward(g, input: x, weight: w, bias: b, bounds: bounds, output: $0, layout: layout, workers: workers, scratch: s)
            }
        } } } }
        guard positionsFirst else { return out }
        // Back to NCHW for the comparison.
        var nchw = out
        for n in 0..<g.batch { for p in 0..<plane { for c in 0..<g.outChannels {
            nchw[(n * g.outChannels + c) * plane + p] = out[n * g.outChannels * plane + p * g.outChannels + c]
        } } }
        return nchw
    }

    func check(_ g: Conv2dGeometry, bounds: ActivationBounds, layouts: [Bool] = [false, true], tolerance: Double = 1e-5,
               file: StaticString = #filePath, line: UInt = #line) {
        var random = TestRandom(seed: 3)
        let input = random.floats(g.inputCount, scale: 2), weight = random.floats(g.weightCount, scale: 0.5), bias = random.floats(g.outChannels)
        let expected = reference(g, input, weight, bias, bounds).map(Double.init)
        // Split threshold 1: even these small GEMMs are cut into panels on the one-image path.
        GEMM.$splitThreshold.withValue(1) {
            for workers in [1, 2, 3] {
                for positionsFirst in layouts {
                    let actual = fused(g, input, weight, bias, bounds, workers: workers, positionsFirst: positionsFirst)
                    assertClose(actual, expected, tolerance: tolerance, "\(g) workers \(workers) positionsFirst \(positionsFirst)", file: file, line: line)
                    XCTAssertEqual(actual, fused(g, input, weight, bias, bounds, workers: workers, positionsFirst: positionsFirst),
                                   "deterministic for a fixed worker count", file: file, line: line)
                }
            }
        }
    }

    func testDense3x3Stride2LikeTheStem() throws {
        for batch in [1, 3] {
            check(try Conv2dGeometry(batch: batch, inChannels: 3, inHeight: 18, inWidth: 22, outChannels: 10, kernel: 3, stride: 2, padding: 1), bounds: relu6)
        }
    }

    func testDense3x3Stride1WithoutActivation() throws {
        for batch in [1, 3] {
            check(try Conv2dGeometry(batch: batch, inChannels: 7, inHeight: 9, inWidth: 13, outChannels: 12, kernel: 3, padding: 1), bounds: .identity)
        }
    }

    func testPointwiseWithReLU() throws {
        for batch in [1, 2, 5] {
            check(try Conv2dGeometry(batch: batch, inChannels: 9, inHeight: 5, inWidth: 37, outChannels: 19, kernel: 1), bounds: ActivationBounds(.relu)!)
        }
    }

    /// Outputs larger than one 64 KB panel (32 channels × 1,200 positions → 512-wide panels,
    /// 3 per image, the last one short), so the panel loop and its boundaries are checked.
    func testOutputsSpanningSeveralPanels() throws {
        for batch in [1, 2] {
            check(try Conv2dGeometry(batch: batch, inChannels: 4, inHeight: 30, inWidth: 40, outChannels: 32, kernel: 1), bounds: relu6)
            check(try Conv2dGeometry(batch: batch, inChannels: 3, inHeight: 30, inWidth: 40, outChannels: 32, kernel: 3, padding: 1), bounds: .identity)
        }
    }

    /// 64 input channels × 3×3 = 576 rows of columns: 256-position unfold panels of 7 rows of 40,
    /// five per image with a short last one, on both threading paths. Sums of 576 products are
    /// blocked differently by the two paths' GEMMs, hence the looser tolerance.
    func testDenseUnfoldInRowPanels() throws {
        let g = try Conv2dGeometry(batch: 1, inChannels: 64, inHeight: 30, inWidth: 40, outChannels: 8, kernel: 3, padding: 1)
        XCTAssertEqual(FusedConv2d.unfoldPanelRows(g, workers: 1), 7)
        for batch in [1, 3] {
            check(try Conv2dGeometry(batch: batch, inChannels: 64, inHeight: 30, inWidth: 40, outChannels: 8, kernel: 3, padding: 1), bounds: relu6,
                  tolerance: 1e-4)
        }
    }

    /// Stride 2 splits rows into even and odd columns: odd and even widths and heights, a row
    /// of whole 16-wide loads (32), and one shorter than a vector (3).
    func testDepthwise3x3BothStridesAndTails() throws {
        for (stride, width, height) in [(1, 19, 11), (2, 19, 11), (2, 36, 11), (1, 3, 11), (2, 3, 12), (2, 32, 12)] {
            for batch in [1, 3] {
                check(try Conv2dGeometry(batch: batch, inChannels: 5, inHeight: height, inWidth: width, outChannels: 5, kernel: 3, stride: stride,
                                         padding: 1, groups: 5), bounds: relu6, layouts: [false])
            }
        }
    }

    /// Stride-1 depthwise runs 16 columns a vector with AVX-512 (`DepthwiseAVX512`): the same
    /// bits as the training kernel followed by the clamp, on every instruction set the CPU runs;
    /// widths below, at and across the 16-wide vectors (a partial last vector reads into the
    /// next row and the slack).
    func testStride1DepthwiseIsTheTrainingKernelsBitsOnEveryInstructionSet() throws {
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        for (width, height) in [(3, 5), (8, 4), (16, 3), (17, 6), (32, 5), (45, 7)] {
            let g = try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: height, inWidth: width, outChannels: 3, kernel: 3, padding: 1, groups: 3)
            var random = TestRandom(seed: 9)
            let input = random.floats(g.inputCount, scale: 4), weight = random.floats(g.weightCount, scale: 0.5), bias = random.floats(3)
            let expected = reference(g, input, weight, bias, relu6)
            for isa in VectorISA.supported {
                VectorISA.use(isa)
                for workers in [1, 2] {
                    XCTAssertEqual(fused(g, input, weight, bias, relu6, workers: workers, positionsFirst: false), expected, "\(g) \(isa) workers \(workers)")
                }
            }
        }
    }

    /// Stride-2 depthwise runs 16 output columns a vector with AVX-512 (`DepthwiseAVX512.forwardStride2`
    /// over the same split rows): the training kernel's bits followed by the clamp, on every
    /// instruction set the CPU runs; output widths below, at and across 16 (odd input widths
    /// too: the last output column then reads the zero border).
    func testStride2DepthwiseIsTheTrainingKernelsBitsOnEveryInstructionSet() throws {
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        for (width, height) in [(3, 5), (16, 4), (31, 6), (32, 5), (33, 7), (64, 8), (90, 6)] {
            let g = try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: height, inWidth: width, outChannels: 3, kernel: 3, stride: 2,
                                       padding: 1, groups: 3)
            var random = TestRandom(seed: 10)
            let input = random.floats(g.inputCount, scale: 4), weight = random.floats(g.weightCount, scale: 0.5), bias = random.floats(3)
            let expected = reference(g, input, weight, bias, relu6)
            for isa in VectorISA.supported {
                VectorISA.use(isa)
                for workers in [1, 2] {
                    XCTAssertEqual(fused(g, input, weight, bias, relu6, workers: workers, positionsFirst: false), expected, "\(g) \(isa) workers \(workers)")
                }
            }
        }
    }

    func testGenericDepthwise5x5() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 4, inHeight: 9, inWidth: 10, outChannels: 4, kernel: 5, padding: 2, groups: 4),
              bounds: relu6, layouts: [false])
    }

    func testActivationBoundsAreClampsOnly() {
        XCTAssertEqual(ActivationBounds(nil), .identity)
        XCTAssertEqual(ActivationBounds(.relu6)?.upper, 6)
        XCTAssertNil(ActivationBounds(.silu))
        XCTAssertNil(ActivationBounds(.sigmoid))
    }

    func testEpilogueLetsNaNThrough() {
        var values: [Float] = [.nan, -1, 7, 3, .nan, 2, 9, -4, 0.5]
        var bias: [Float] = [0]
        values.withPointer { c in bias.withPointer { b in
            ConvolutionEpilogue.addRowBias(c, rows: 1, columns: 9, ldc: 9, bias: b, bounds: relu6)
        } }
        XCTAssertTrue(values[0].isNaN && values[4].isNaN)
        XCTAssertEqual(Array(values[1...3]) + Array(values[5...8]), [0, 6, 3, 2, 6, 0, 0.5])
    }

    func testUpsampleAddMatchesUpsampleThenAdd() {
        var random = TestRandom(seed: 9)
        for (height, width) in [(3, 11), (4, 8), (1, 1)] {
            let planes = 3
            var coarse = random.floats(planes * height * width), fine = random.floats(planes * 4 * height * width)
            var upsampled = [Float](repeating: 0, count: fine.count)
            coarse.withPointer { c in upsampled.withPointer { Upsample.nearest2x(input: c, planes: planes, height: height, width: width, output: $0) } }
            let expected = zip(fine, upsampled).map { $0 + $1 }
            for workers in [1, 2] {
                var actual = fine
                coarse.withPointer { c in actual.withPointer {
                    UpsampleAdd.addNearest2x(coarse: c, planes: planes, height: height, width: width, into: $0, workers: workers)
                } }
                XCTAssertEqual(actual, expected, "\(height)×\(width), \(workers) workers")
            }
        }
    }
}
