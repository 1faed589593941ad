import XCTest
@testable import Kernels

/// `Winograd3x3` with F(4×4, 3×3) filters (`WinogradFilters(tile4Weight:…)`) against the
/// double-precision definition followed by the clamp, as `WinogradConvolutionTests` checks F(2×2):
/// widths and heights not multiples of 4 (tiles cut by the edge on one, two or three sides),
/// rows of tiles shorter than and longer than a micro-kernel call, rows wide enough for the
/// vector split of the padded input, both output layouts, 1–3 workers with identical bits; the
/// transforms on cases worked by hand; and which layers take it.
final class WinogradTile4Tests: XCTestCase {
    let relu6 = ActivationBounds(.relu6)!

    func filters(_ g: Conv2dGeometry, _ weight: [Float], _ bias: [Float]) -> WinogradFilters {
        var weight = weight, bias = bias
        return weight.withPointer { w in bias.withPointer { b in
            WinogradFilters(tile4Weight: w, bias: b, outChannels: g.outChannels, inChannels: g.inChannels)
        } }
    }

    /// Output as NCHW, whichever layout it was written in (`DenseKernelCheck.output`).
    func winograd(_ g: Conv2dGeometry, _ input: [Float], _ weight: [Float], _ bias: [Float], _ bounds: ActivationBounds,
                  workers: Int, positionsFirst: Bool) -> [Float] {
        let transformed = filters(g, weight, bias)
        XCTAssertEqual(transformed.outputTile, 4)
        let scratch = Winograd3x3.scratchCount(g, workers: workers, tile: 4)
        return DenseKernelCheck.output(g, input: input, scratchCount: scratch, positionsFirst: positionsFirst) { x, out, layout, s in
            Winograd3x3.forward(g, input: x, filters: transformed, bounds: bounds, output: out, layout: layout, workers: workers, scratch: s)
        }
    }

    /// Within 1e-3: on these random layers (outputs' standard deviation up to ~8 at 64 channels)
    /// F(4×4)'s worst error reaches ~2.5e-4, past the 1e-4 F(2×2) meets (its rounding against
    /// F(2×2)'s: `testRoundingAgainstTile2OnTheFPNShape`); a wrong index or coefficient is off by whole units.
    func check(_ g: Conv2dGeometry, bounds: ActivationBounds, file: StaticString = #filePath, line: UInt = #line) {
        DenseKernelCheck.check(g, bounds: bounds, seed: 29, tolerance: 1e-3, kernel: { winograd($0, $1, $2, $3, $4, workers: $5, positionsFirst: $6) }, file: file, line: line)
    }

    func geometry(batch: Int = 1, channels: Int, height: Int, width: Int, out: Int) throws -> Conv2dGeometry {
        try Conv2dGeometry(batch: batch, inChannels: channels, inHeight: height, inWidth: width, outChannels: out, kernel: 3, padding: 1)
    }

    /// Two micro-kernel calls of 4×4 tiles per image or more: the detector's 64×32 and 32×16
    /// levels take it, the 16×8 level (8 tiles) and anything but stride-1 pad-1 3×3 do not.
    func testTile4OnlyWherePlanesFillTwoMicroKernelCalls() throws {
        XCTAssertTrue(Winograd3x3.prefersTile4(try geometry(channels: 64, height: 64, width: 32, out: 64)))
        XCTAssertTrue(Winograd3x3.prefersTile4(try geometry(channels: 64, height: 32, width: 16, out: 51)))
        XCTAssertFalse(Winograd3x3.prefersTile4(try geometry(channels: 64, height: 16, width: 8, out: 64)))
        XCTAssertFalse(Winograd3x3.prefersTile4(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 64, inWidth: 64, outChannels: 4,
                                                                   kernel: 3, stride: 2, padding: 1)))
        XCTAssertFalse(Winograd3x3.prefersTile4(try Conv2dGeometry(batch: 1, inChannels: 4, inHeight: 64, inWidth: 64, outChannels: 4, kernel: 1)))
    }

    /// U = G g Gᵀ for the centre tap alone is the outer product of G's middle column with itself:
    /// (0, −⅙, ⅙, 1/12, −1/12, 0) ⊗ itself, rounded once from double.
    func testFilterTransformOfTheCentreTap() throws {
        var weight = [Float](repeating: 0, count: 9)
        weight[4] = 1
        let transformed = filters(try geometry(channels: 1, height: 4, width: 4, out: 1), weight, [0])
        XCTAssertEqual(transformed.points.count, 36)
        let column: [Double] = [0, -1.0 / 6, 1.0 / 6, 1.0 / 12, -1.0 / 12, 0]
        for i in 0..<6 {
            for j in 0..<6 {
                XCTAssertEqual(transformed.points[6 * i + j].values[0], Float(column[i] * column[j]), "U[\(i)][\(j)]")
            }
        }
    }

    /// The centre-tap filter copies its input (to rounding: the transforms' sixths are not exact
    /// in float); the bias is added once per output, after the output transform.
    func testCentreTapCopiesTheInputPlusBias() throws {
        let g = try geometry(channels: 1, height: 9, width: 11, out: 1)
        var weight = [Float](repeating: 0, count: 9)
        weight[4] = 1
        let input = (0..<99).map { Float($0) / 10 }
        let out = winograd(g, input, weight, [0.5], .identity, workers: 1, positionsFirst: false)
        assertClose(out, input.map { Double($0) + 0.5 }, tolerance: 1e-6)
    }

    /// All-ones filters sum each 3×3 neighbourhood: corners 4, edges 6, inside 9 — clamped by
    /// ReLU6 to 4, 6, 6 — on a plane whose 6 × 7 outputs cut the 4×4 tiles on both sides.
    func testBoxFilterCountsTheNeighbourhoodAndClamps() throws {
        let g = try geometry(channels: 1, height: 6, width: 7, out: 2)
        let ones = [Float](repeating: 1, count: 42), filter = [Float](repeating: 1, count: 18)
        var counts: [Double] = []
        for y in 0..<6 {
            for x in 0..<7 { counts.append(Double((y == 0 || y == 5 ? 2 : 3) * (x == 0 || x == 6 ? 2 : 3))) }
        }
        assertClose(winograd(g, ones, filter, [0, 0], .identity, workers: 1, positionsFirst: false), counts + counts, tolerance: 1e-5)
        assertClose(winograd(g, ones, filter, [0, 0], relu6, workers: 1, positionsFirst: false), (counts + counts).map { min($0, 6) }, tolerance: 1e-5)
    }

    func testRowsOfSixteenTilesWithTheVectorSplit() throws {
        // 64 wide: 16 tiles a row, one micro-kernel call per tile row; rows long enough for the
        // split's 32-value loads.
        check(try geometry(channels: 16, height: 8, width: 64, out: 12), bounds: relu6)
    }

    func testEdgesNotMultiplesOfFourCutTheLastTiles() throws {
        for (height, width) in [(5, 7), (7, 6), (6, 9), (1, 1), (2, 3), (3, 45), (13, 38)] {
            check(try geometry(batch: 2, channels: 3, height: height, width: width, out: 7), bounds: .identity)
        }
    }

    func testShortRowsSpanManyTileRowsPerColumnTile() throws {
        // 16 wide (4 tiles a row: runs of 4) and 28 wide (7 tiles: runs of 4 and singles), partial last column tiles.
        check(try geometry(channels: 5, height: 32, width: 16, out: 13), bounds: relu6)
        check(try geometry(batch: 3, channels: 2, height: 17, width: 28, out: 6), bounds: relu6)
    }

    func testDeepLayersLikeTheDetectorsHead() throws {
        // 64 channels in, 51 out (the peer head's count), rows of 20 tiles: runs of 8, 4 and 4 across column tiles.
        check(try geometry(channels: 64, height: 12, width: 80, out: 51), bounds: .identity)
    }

    /// F(4×4) and F(2×2) agree to rounding on the detector's FPN shape, and F(4×4)'s rounding
    /// is within a small multiple of F(2×2)'s (measured against the double-precision definition).
    func testRoundingAgainstTile2OnTheFPNShape() throws {
        let g = try geometry(channels: 64, height: 32, width: 16, out: 64)
        var random = TestRandom(seed: 31)
        let input = random.floats(g.inputCount, scale: 2), weight = random.floats(g.weightCount, scale: 0.1), bias = random.floats(64)
        let expected = DenseKernelCheck.reference(g, input, weight, bias, .identity)
        var w = weight, b = bias
        let tile2 = w.withPointer { wp in b.withPointer { WinogradFilters(weight: wp, bias: $0, outChannels: 64, inChannels: 64) } }
        let two = DenseKernelCheck.output(g, input: input, scratchCount: Winograd3x3.scratchCount(g, workers: 1), positionsFirst: false) { x, out, layout, s in
            Winograd3x3.forward(g, input: x, filters: tile2, bounds: .identity, output: out, layout: layout, workers: 1, scratch: s)
        }
        let four = winograd(g, input, weight, bias, .identity, workers: 1, positionsFirst: false)
        func worst(_ actual: [Float]) -> Double { zip(actual, expected).map { abs(Double($0) - $1) }.max()! }
        let scale = expected.map(abs).max()!
        XCTAssertLessThan(worst(four), 1e-5 * scale, "F(4×4) within 1e-5 of the outputs' scale")
        XCTAssertLessThan(worst(four), 20 * max(worst(two), 1e-7 * scale), "F(4×4) rounds within 20× F(2×2)'s error")
    }

    /// NaN is not clamped into a bound. It reaches every output of the tiles whose 6×6 patch
    /// holds it, and no tile whose patch does not.
    func testClampLetsNaNThrough() throws {
        let g = try geometry(channels: 1, height: 12, width: 12, out: 1)
        var input = [Float](repeating: 1, count: 144)
        input[1 * 12 + 1] = .nan
        let out = winograd(g, input, [Float](repeating: 1, count: 9), [0], relu6, workers: 1, positionsFirst: false)
        XCTAssertTrue(out[0].isNaN)
        XCTAssertTrue(out[3 * 12 + 3].isNaN, "tile (0, 0) covers outputs 0–3 and reads rows and columns −1–4")
        XCTAssertEqual(out[8 * 12 + 8], 6, "tile (2, 2) reads rows and columns 7–12 only")
    }
}
