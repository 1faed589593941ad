import XCTest
@testable import Kernels

/// `Winograd3x3` against the double-precision definition (`ConvReference`) followed by the
/// clamp: even and odd heights and widths (tiles cut by the output's edge), rows of tiles
/// shorter than, equal to and longer than the 16 tiles of a micro-kernel call (runs of 8, 4 and
/// single tiles), output channels not a multiple of 6, both output layouts, 1–3 workers with
/// identical bits; and the transforms on cases worked by hand.
final class WinogradConvolutionTests: XCTestCase {
    let relu6 = ActivationBounds(.relu6)!

    /// Output as NCHW, whichever layout it was written in (`DenseKernelCheck.output`).
    func winograd(_ g: Conv2dGeometry, _ input: [Float], _ weight: [Float], _ bias: [Float], _ bounds: ActivationBounds,
                  workers: Int, positionsFirst: Bool) -> [Float] {
        var weight = weight, bias = bias
        let filters = weight.withPointer { w in bias.withPointer { b in
            WinogradFilters(weight: w, bias: b, outChannels: g.outChannels, inChannels: g.inChannels)
        } }
        return DenseKernelCheck.output(g, input: input, scratchCount: Winograd3x3.scratchCount(g, workers: workers), positionsFirst: positionsFirst) { x, out, layout, s in
            Winograd3x3.forward(g, input: x, filters: filters, bounds: bounds, output: out, layout: layout, workers: workers, scratch: s)
        }
    }

    func check(_ g: Conv2dGeometry, bounds: ActivationBounds, file: StaticString = #filePath, line: UInt = #line) {
        DenseKernelCheck.check(g, bounds: bounds, seed: 23, kernel: { winograd($0, $1, $2, $3, $4, workers: $5, positionsFirst: $6) }, file: file, line: line)
    }

    func testSupportsOnlyStride1Padding1Dense3x3() throws {
        XCTAssertTrue(Winograd3x3.isSupported(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 8, inWidth: 8, outChannels: 5, kernel: 3, padding: 1)))
        XCTAssertFalse(Winograd3x3.isSupported(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 8, inWidth: 8, outChannels: 5, kernel: 3, stride: 2, padding: 1)))
        XCTAssertFalse(Winograd3x3.isSupported(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 8, inWidth: 8, outChannels: 5, kernel: 3)))
        XCTAssertFalse(Winograd3x3.isSupported(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 8, inWidth: 8, outChannels: 4, kernel: 3, padding: 1, groups: 4)))
        XCTAssertFalse(Winograd3x3.isSupported(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 8, inWidth: 8, outChannels: 5, kernel: 1)))
    }

    /// U = G g Gᵀ for g with a single 1 at the centre is the outer product of G's middle column
    /// with itself: (0, ½, −½, 0) ⊗ (0, ½, −½, 0).
    func testFilterTransformOfTheCentreTap() {
        var weight = [Float](repeating: 0, count: 9), bias: [Float] = [0]
        weight[4] = 1
        let filters = weight.withPointer { w in bias.withPointer { WinogradFilters(weight: w, bias: $0, outChannels: 1, inChannels: 1) } }
        let column: [Float] = [0, 0.5, -0.5, 0]
        for i in 0..<4 {
            for j in 0..<4 {
                // Packed block layout [depth 1][6 rows]: output channel 0 is the first value.
                XCTAssertEqual(filters.points[4 * i + j].values[0], column[i] * column[j], "U[\(i)][\(j)]")
            }
        }
    }

    /// The centre-tap filter copies its input; the bias is added once per output, after the
    /// output transform (adding it to the products would scale it by Aᵀ·1·A).
    func testCentreTapCopiesTheInputPlusBias() throws {
        let g = try Conv2dGeometry(batch: 1, inChannels: 1, inHeight: 5, inWidth: 7, outChannels: 1, kernel: 3, padding: 1)
        var weight = [Float](repeating: 0, count: 9)
        weight[4] = 1
        let input = (0..<35).map { Float($0) }
        let out = winograd(g, input, weight, [0.5], .identity, workers: 1, positionsFirst: false)
        XCTAssertEqual(out, input.map { $0 + 0.5 })
    }

    /// All-ones filters sum each 3×3 neighbourhood: a corner of an all-ones input sees 4 values,
    /// an edge 6, the inside 9 — in every channel, clamped by ReLU6 to 4, 6, 6.
    func testBoxFilterCountsTheNeighbourhoodAndClamps() throws {
        let g = try Conv2dGeometry(batch: 1, inChannels: 1, inHeight: 4, inWidth: 5, outChannels: 2, kernel: 3, padding: 1)
        let out = winograd(g, [Float](repeating: 1, count: 20), [Float](repeating: 1, count: 18), [0, 0], .identity, workers: 1, positionsFirst: false)
        let counts: [Float] = [4, 6, 6, 6, 4, 6, 9, 9, 9, 6, 6, 9, 9, 9, 6, 4, 6, 6, 6, 4]
        XCTAssertEqual(out, counts + counts)
        let clamped = winograd(g, [Float](repeating: 1, count: 20), [Float](repeating: 1, count: 18), [0, 0], relu6, workers: 1, positionsFirst: false)
        XCTAssertEqual(clamped, (counts + counts).map { min($0, 6) })
    }

    func testEvenShapesWithRowsOfSixteenTiles() throws {
        // 32 wide: 16 tiles a row, one micro-kernel column per tile row (the FPN's 64×32 level, narrowed).
        check(try Conv2dGeometry(batch: 1, inChannels: 16, inHeight: 6, inWidth: 32, outChannels: 12, kernel: 3, padding: 1), bounds: relu6)
    }

    func testOddHeightAndWidthCutTheLastTiles() throws {
        for (height, width) in [(5, 7), (7, 6), (6, 9), (1, 1), (3, 33)] {
            check(try Conv2dGeometry(batch: 2, inChannels: 3, inHeight: height, inWidth: width, outChannels: 7, kernel: 3, padding: 1),
                  bounds: .identity)
        }
    }

    func testShortRowsSpanManyTileRowsPerColumnTile() throws {
        // 8 wide (4 tiles a row: runs of 4) and 14 wide (7 tiles: runs of 4 and singles), with partial last column tiles.
        check(try Conv2dGeometry(batch: 1, inChannels: 5, inHeight: 16, inWidth: 8, outChannels: 13, kernel: 3, padding: 1), bounds: relu6)
        check(try Conv2dGeometry(batch: 3, inChannels: 2, inHeight: 9, inWidth: 14, outChannels: 6, kernel: 3, padding: 1), bounds: relu6)
    }

    func testDeepLayersLikeTheDetectorsHead() throws {
        // 64 channels in, 51 out (the peer head's count), rows of 20 tiles: runs of 8, 4 and 4 across column tiles.
        check(try Conv2dGeometry(batch: 1, inChannels: 64, inHeight: 6, inWidth: 40, outChannels: 51, kernel: 3, padding: 1), bounds: .identity)
    }

    /// A group's transformed inputs and products fit the worker's scratch, and small layers give
    /// two workers equal column-tile counts.
    func testGroupsFitTheScratch() throws {
        for (channelsIn, channelsOut) in [(1, 1), (16, 7), (64, 64), (64, 51), (128, 128), (512, 512)] {
            let g = try Conv2dGeometry(batch: 1, inChannels: channelsIn, inHeight: 64, inWidth: 32, outChannels: channelsOut, kernel: 3, padding: 1)
            let perGroup = Winograd3x3.columnTilesPerGroup(g)
            XCTAssertGreaterThanOrEqual(perGroup, 1)
            for columnTiles in [1, 2, 8, 32] {
                let groups = PackedConv2d.groupCount(tiles: columnTiles, perGroup: perGroup, batch: 1, workers: 2)
                let largest = (0..<groups).map { Parallel.chunk($0, of: groups, count: columnTiles).count }.max()!
                XCTAssertLessThanOrEqual(largest, perGroup, "\(g): \(columnTiles) column tiles")
            }
        }
    }

    /// NaN is not clamped into a bound. It reaches every output of the tiles whose 4×4 patch
    /// holds it (the transform mixes a patch's values), not only the 3×3 neighbours.
    func testClampLetsNaNThrough() throws {
        let g = try Conv2dGeometry(batch: 1, inChannels: 1, inHeight: 8, inWidth: 8, outChannels: 1, kernel: 3, padding: 1)
        var input = [Float](repeating: 1, count: 64)
        input[9] = .nan
        let out = winograd(g, input, [Float](repeating: 1, count: 9), [0], relu6, workers: 1, positionsFirst: false)
        XCTAssertTrue(out[0].isNaN)
        XCTAssertEqual(out[6 * 8 + 6], 6, "tile (3, 3) reads rows and columns 5–8 only")
    }
}
