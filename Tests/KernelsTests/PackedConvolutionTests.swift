import XCTest
@testable import Kernels

/// `PackedConv2d` against the double-precision definition (`ConvReference`) followed by the
/// clamp: every tile shape the micro-kernel meets — output channels not a multiple of 6,
/// positions not a multiple of 16, tiles that span output rows, padding on every side — in
/// both output layouts, for 1–3 workers, with identical bits whatever the worker count.
final class PackedConvolutionTests: XCTestCase {
    let relu6 = ActivationBounds(.relu6)!

    /// Output as NCHW, whichever layout it was written in (`DenseKernelCheck.output`).
    func packed(_ g: Conv2dGeometry, _ input: [Float], _ weight: [Float], _ bias: [Float], _ bounds: ActivationBounds,
                workers: Int, positionsFirst: Bool) -> [Float] {
        var weight = weight, bias = bias
        let filters = weight.withPointer { w in bias.withPointer { b in
            PackedFilters(weight: w, bias: b, outChannels: g.outChannels, depth: g.inChannels * g.kernelHeight * g.kernelWidth)
        } }
        return DenseKernelCheck.output(g, input: input, scratchCount: PackedConv2d.scratchCount(g, workers: workers), positionsFirst: positionsFirst) { x, out, layout, s in
            PackedConv2d.forward(g, input: x, filters: filters, bounds: bounds, output: out, layout: layout, workers: workers, scratch: s)
        }
    }

    func check(_ g: Conv2dGeometry, bounds: ActivationBounds, file: StaticString = #filePath, line: UInt = #line) {
        DenseKernelCheck.check(g, bounds: bounds, seed: 11, kernel: { packed($0, $1, $2, $3, $4, workers: $5, positionsFirst: $6) }, file: file, line: line)
    }

    /// The input gradient's filters packed straight from the layer's weight hold exactly what
    /// packing the rotated, channel-swapped weight written out gives (the tail block's padding too).
    func testRotatedTransposePackingEqualsPackingTheRotatedWeight() {
        for (layerOut, layerIn, taps) in [(7, 13, 1), (12, 6, 1), (5, 19, 9), (16, 4, 9), (3, 1, 25)] {
            var weight = (0..<(layerOut * layerIn * taps)).map { Float($0) * 0.25 - 3 }
            var rotated = [Float](repeating: .nan, count: weight.count)
            for o in 0..<layerOut {
                for i in 0..<layerIn {
                    for t in 0..<taps { rotated[(i * layerOut + o) * taps + t] = weight[(o * layerIn + i) * taps + taps - 1 - t] }
                }
            }
            let expected = rotated.withPointer { PackedFilters(weight: $0, bias: nil, outChannels: layerIn, depth: layerOut * taps) }
            let direct = weight.withPointer {
                PackedFilters(rotatedTransposeOf: $0, layerOutChannels: layerOut, layerInChannels: layerIn, taps: taps)
            }
            XCTAssertEqual(direct.outChannels, expected.outChannels)
            XCTAssertEqual(direct.depth, expected.depth)
            XCTAssertEqual(direct.blocks, expected.blocks)
            let count = expected.blocks * expected.depth * PackedFilters.rowsPerBlock
            XCTAssertEqual(Array(UnsafeBufferPointer(start: direct.values, count: count)),
                           Array(UnsafeBufferPointer(start: expected.values, count: count)), "\(layerOut)×\(layerIn)×\(taps)")
            XCTAssertEqual(Array(UnsafeBufferPointer(start: direct.bias, count: expected.blocks * PackedFilters.rowsPerBlock)),
                           [Float](repeating: 0, count: expected.blocks * PackedFilters.rowsPerBlock))
        }
    }

    func testPointwiseWithTailsInChannelsAndPositions() throws {
        // 19 outputs: three full blocks of 6 and one of 1; 5×37 = 185 positions: 11 tiles and a 9-wide tail.
        for batch in [1, 2, 5] {
            check(try Conv2dGeometry(batch: batch, inChannels: 9, inHeight: 5, inWidth: 37, outChannels: 19, kernel: 1), bounds: ActivationBounds(.relu)!)
        }
    }

    func testPointwiseWholeBlocksAndTiles() throws {
        // 12 outputs × 8×16 positions: every block stored directly by the kernel.
        check(try Conv2dGeometry(batch: 1, inChannels: 24, inHeight: 8, inWidth: 16, outChannels: 12, kernel: 1), bounds: relu6)
    }

    func testDense3x3WithRowsNarrowerThanATile() throws {
        // Width 7: every tile spans three output rows and meets the left and right padding.
        for batch in [1, 3] {
            check(try Conv2dGeometry(batch: batch, inChannels: 5, inHeight: 9, inWidth: 7, outChannels: 13, kernel: 3, padding: 1), bounds: .identity)
        }
    }

    func testDense3x3WideRowsAndDeepColumns() throws {
        // 64 × 9 = 576-deep columns (the FPN and head convolutions'), one tile per group; width 40:
        // tiles start mid-row; 51 outputs, the peer head's count.
        check(try Conv2dGeometry(batch: 1, inChannels: 64, inHeight: 6, inWidth: 40, outChannels: 51, kernel: 3, padding: 1), bounds: relu6)
    }

    func testDense5x5WithPadding2() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: 11, inWidth: 17, outChannels: 7, kernel: 5, padding: 2), bounds: relu6)
    }

    /// Every group fits the scratch sized for `tilesPerGroup`, and small layers give two workers
    /// equal tile counts (the detector's 16×8 level: 8 tiles; stage 4: 32 tiles of depth 256).
    func testGroupsFitTheScratchAndBalanceSmallLayers() {
        for tiles in [1, 3, 8, 12, 32, 100, 128] {
            for depth in [16, 64, 256, 512, 576, 4608] {
                for (batch, workers) in [(1, 1), (1, 2), (1, 3), (2, 2), (3, 2), (8, 2)] {
                    let groups = PackedConv2d.groupCount(tiles: tiles, depth: depth, batch: batch, workers: workers)
                    let largest = (0..<groups).map { Parallel.chunk($0, of: groups, count: tiles).count }.max()!
                    XCTAssertLessThanOrEqual(largest, PackedConv2d.tilesPerGroup(depth: depth), "\(tiles) tiles, depth \(depth)")
                    XCTAssertGreaterThanOrEqual(Parallel.chunk(groups - 1, of: groups, count: tiles).count, 1)
                }
            }
        }
        func shares(_ tiles: Int, _ depth: Int) -> [Int] {
            let groups = PackedConv2d.groupCount(tiles: tiles, depth: depth, batch: 1, workers: 2)
            return (0..<2).map { w in Parallel.chunk(w, of: 2, count: groups).reduce(0) { $0 + Parallel.chunk($1, of: groups, count: tiles).count } }
        }
        XCTAssertEqual(shares(8, 512), [4, 4])
        XCTAssertEqual(shares(8, 576), [4, 4])
        XCTAssertEqual(shares(32, 256), [16, 16])
    }

    /// How many tiles a group packs (up to 64 for shallow layers, where bigger groups cut the
    /// 16→32 layer at 128×256 from 3.6 to 2.8 ms) changes speed, never bits: each output is one
    /// kernel call over the whole depth either way.
    func testGroupSizeChangesNoBits() throws {
        let g = try Conv2dGeometry(batch: 2, inChannels: 16, inHeight: 40, inWidth: 41, outChannels: 32, kernel: 1)
        var rng = TestRandom(seed: 3)
        let input = rng.floats(g.inputCount), weight = rng.floats(32 * 16), bias = rng.floats(32)
        XCTAssertEqual(PackedConv2d.tilesPerGroup(depth: 16), 64)
        let reference = PackedConv2d.$maxTilesPerGroup.withValue(1) {
            packed(g, input, weight, bias, .identity, workers: 2, positionsFirst: false)
        }
        for largest in [8, 64] {
            let output = PackedConv2d.$maxTilesPerGroup.withValue(largest) {
                packed(g, input, weight, bias, .identity, workers: 2, positionsFirst: false)
            }
            XCTAssertEqual(output, reference, "groups of up to \(largest) tiles")
        }
    }

    /// With AVX-512, two full column tiles stored in place run as one 12 × 32 call
    /// (`PackedMicroKernel.runPairTwoTiles`); a group's odd last tile, the image's partial last tile
    /// and a partial channel block take the 12 × 16 or 6 × 16 kernels. Every mix gives the AVX2
    /// kernel's bits: groups of 1 tile (never two a call), 3 (an odd tile left in each group) and 64.
    func testTwoTileCallsGiveTheSingleTileBits() throws {
        guard VectorISA.supported.contains(.avx512) else {
            throw XCTSkip("this CPU lacks AVX-512: the 12 × 32 kernel never runs (the AVX2 kernel is checked everywhere else)")
        }
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        // 207 positions: 12 full tiles and one of 15; 28 channels: two full pairs of blocks and a 4-row block.
        let g = try Conv2dGeometry(batch: 2, inChannels: 24, inHeight: 9, inWidth: 23, outChannels: 28, kernel: 1)
        var rng = TestRandom(seed: 5)
        let input = rng.floats(g.inputCount), weight = rng.floats(28 * 24), bias = rng.floats(28)
        VectorISA.use(.avx2)
        let reference = packed(g, input, weight, bias, relu6, workers: 1, positionsFirst: false)
        VectorISA.use(.avx512)
        for largest in [1, 3, 64] {
            for workers in [1, 2] {
                let output = PackedConv2d.$maxTilesPerGroup.withValue(largest) {
                    packed(g, input, weight, bias, relu6, workers: workers, positionsFirst: false)
                }
                XCTAssertEqual(output, reference, "groups of up to \(largest) tiles, \(workers) workers")
            }
        }
    }

    /// The stem's shape: 3 channels, stride 2, padding 1 — rows where the 16-wide loads fit and
    /// the left and right edges where they do not (widths 40 and 37: odd, so the last tap's row
    /// ends one short).
    func testDense3x3Stride2LikeTheStem() throws {
        for (width, batch) in [(40, 1), (37, 2), (64, 1)] {
            check(try Conv2dGeometry(batch: batch, inChannels: 3, inHeight: 10, inWidth: width, outChannels: 16, kernel: 3, stride: 2, padding: 1),
                  bounds: relu6)
        }
    }

    /// The stem's in-place gather (`ColumnPacker.readsStride2InPlace`: even input sides, output
    /// rows of whole tiles) gives the bits of the gather from the padded copy — first tiles of rows,
    /// the first output row, the last row and column of the input — and the definition's values.
    func testStride2InPlaceGatherMatchesThePaddedCopyBitForBit() throws {
        for (channels, height, width, batch) in [(3, 10, 32, 1), (5, 14, 96, 3), (3, 32, 64, 2)] {
            let g = try Conv2dGeometry(batch: batch, inChannels: channels, inHeight: height, inWidth: width, outChannels: 16,
                                       kernel: 3, stride: 2, padding: 1)
            XCTAssertTrue(PackedConv2d.ColumnPacker.readsStride2InPlace(g), "\(g)")
            XCTAssertFalse(PackedConv2d.ColumnPacker.needsPaddedCopy(g))
            check(g, bounds: relu6)
            var random = TestRandom(seed: 5)
            let input = random.floats(g.inputCount, scale: 2), weight = random.floats(g.weightCount, scale: 0.5), bias = random.floats(g.outChannels)
            for workers in [1, 2] {
                let inPlace = packed(g, input, weight, bias, .identity, workers: workers, positionsFirst: false)
                let padded = PackedConv2d.ColumnPacker.$gathersStride2InPlace.withValue(false) {
                    XCTAssertTrue(PackedConv2d.ColumnPacker.needsPaddedCopy(g))
                    return packed(g, input, weight, bias, .identity, workers: workers, positionsFirst: false)
                }
                XCTAssertEqual(inPlace, padded, "\(g), \(workers) workers")
            }
        }
        // Odd sides or rows that are not whole tiles keep the padded copy.
        for (height, width) in [(10, 37), (9, 64), (10, 40)] {
            let g = try Conv2dGeometry(batch: 1, inChannels: 3, inHeight: height, inWidth: width, outChannels: 16, kernel: 3, stride: 2, padding: 1)
            XCTAssertTrue(PackedConv2d.ColumnPacker.needsPaddedCopy(g), "\(height)×\(width)")
        }
    }

    /// Shapes the detector does not have: no padding (the padded copy is then a plain copy,
    /// and the last stride-2 load's extra value lands in its slack), and kernels and padding
    /// unequal across the two sides.
    func testDenseWithoutPaddingAndWithUnequalSides() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 4, inHeight: 7, inWidth: 35, outChannels: 7, kernel: 3, stride: 2), bounds: relu6)
        check(try Conv2dGeometry(batch: 1, inChannels: 3, inHeight: 6, inWidth: 21, outChannels: 8, kernelHeight: 1, kernelWidth: 3,
                                 strideHeight: 1, strideWidth: 2, padHeight: 0, padWidth: 1), bounds: .identity)
        check(try Conv2dGeometry(batch: 1, inChannels: 2, inHeight: 9, inWidth: 18, outChannels: 6, kernelHeight: 3, kernelWidth: 1,
                                 padHeight: 1, padWidth: 0), bounds: .identity)
    }

    /// A 1×1 kernel at stride 2 skips input positions: its input planes are not its columns.
    func testPointwiseStride2() throws {
        check(try Conv2dGeometry(batch: 2, inChannels: 5, inHeight: 9, inWidth: 36, outChannels: 7, kernel: 1, stride: 2), bounds: relu6)
    }

    func testStride3AndGroupedConvolutionsAreNotSupported() throws {
        XCTAssertFalse(PackedConv2d.isSupported(try Conv2dGeometry(batch: 1, inChannels: 3, inHeight: 9, inWidth: 9, outChannels: 16, kernel: 3, stride: 3, padding: 1)))
        XCTAssertTrue(PackedConv2d.isSupported(try Conv2dGeometry(batch: 1, inChannels: 3, inHeight: 8, inWidth: 8, outChannels: 16, kernel: 3, stride: 2, padding: 1)))
        XCTAssertFalse(PackedConv2d.isSupported(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 8, inWidth: 8, outChannels: 4, kernel: 3, padding: 1, groups: 4)))
        XCTAssertTrue(PackedConv2d.isSupported(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 8, inWidth: 8, outChannels: 9, kernel: 1)))
    }

    func testClampLetsNaNThrough() throws {
        let g = try Conv2dGeometry(batch: 1, inChannels: 2, inHeight: 4, inWidth: 4, outChannels: 6, kernel: 1)
        var input = [Float](repeating: 1, count: g.inputCount)
        input[5] = .nan
        let out = packed(g, input, [Float](repeating: 1, count: g.weightCount), [Float](repeating: 0, count: 6), relu6, workers: 1, positionsFirst: false)
        for c in 0..<6 {
            XCTAssertTrue(out[c * 16 + 5].isNaN, "channel \(c)")
            XCTAssertEqual(out[c * 16 + 4], 2)
        }
    }
}
