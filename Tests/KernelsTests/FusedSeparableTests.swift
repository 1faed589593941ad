import XCTest
@testable import Kernels

/// `FusedSeparable` must give the very bits of the two layers it replaces — `FusedConv2d`'s
/// depthwise 3×3 (clamped), then `PackedConv2d`'s pointwise 1×1 — for 1–3 workers: tiles that
/// lie in one row, tiles that span two rows of 8, a last tile past the plane's end, output
/// channels not a multiple of 6, several images.
final class FusedSeparableTests: XCTestCase {
    let relu6 = ActivationBounds(.relu6)!

    func check(batch: Int, channels: Int, height: Int, width: Int, outChannels: Int, seed: UInt64,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let d = try Conv2dGeometry(batch: batch, inChannels: channels, inHeight: height, inWidth: width, outChannels: channels,
                                   kernel: 3, stride: 1, padding: 1, groups: channels)
        let p = try Conv2dGeometry(batch: batch, inChannels: channels, inHeight: height, inWidth: width, outChannels: outChannels, kernel: 1)
        XCTAssertTrue(FusedSeparable.isSupported(depthwise: d, pointwise: p), file: file, line: line)
        var random = TestRandom(seed: seed)
        var input = random.floats(d.inputCount), dwWeight = random.floats(d.weightCount, scale: 0.5), dwBias = random.floats(channels)
        var pwWeight = random.floats(p.weightCount, scale: 0.5), pwBias = random.floats(outChannels)
        let filters = pwWeight.withPointer { w in pwBias.withPointer { b in PackedFilters(weight: w, bias: b, outChannels: outChannels, depth: channels) } }

        // The two layers one after the other.
        var middle = [Float](repeating: .nan, count: d.outputCount)
        var expected = [Float](repeating: .nan, count: p.outputCount)
        var scratch = [Float](repeating: .nan, count: max(FusedConv2d.scratchCount(d, workers: 1), PackedConv2d.scratchCount(p, workers: 1)))
        input.withPointer { x in dwWeight.withPointer { w in dwBias.withPointer { b in middle.withPointer { m in scratch.withPointer { s in
            FusedConv2d.forward(d, input: x, weight: w, bias: b, bounds: relu6, output: m, workers: 1, scratch: s)
        } } } } }
        middle.withPointer { m in expected.withPointer { y in scratch.withPointer { s in
            PackedConv2d.forward(p, input: m, filters: filters, bounds: relu6, output: y, workers: 1, scratch: s)
        } } }

        for workers in 1...3 {
            PackedConv2d.$parallelMultiplyAdds.withValue(1) {
                var output = [Float](repeating: .nan, count: p.outputCount)
                var fusedScratch = [Float](repeating: .nan, count: FusedSeparable.scratchCount(depthwise: d, pointwise: p, workers: workers))
                input.withPointer { x in dwWeight.withPointer { w in dwBias.withPointer { b in output.withPointer { y in fusedScratch.withPointer { s in
                    FusedSeparable.forward(depthwise: d, pointwise: p, input: x, weight: w, bias: b, depthwiseBounds: relu6,
                                           filters: filters, bounds: relu6, output: y, workers: workers, scratch: s)
                } } } } }
                XCTAssertEqual(output.map(\.bitPattern), expected.map(\.bitPattern), "\(workers) workers, \(d) then \(p)", file: file, line: line)
            }
        }
    }

    func testTilesWithinOneRow() throws {
        try check(batch: 1, channels: 32, height: 5, width: 32, outChannels: 64, seed: 1)
    }

    func testTilesSpanningRowsOfEightAndAPartialLastTile() throws {
        // 3 × 8 = 24 positions: the second tile's upper half lies past the plane.
        try check(batch: 2, channels: 16, height: 3, width: 8, outChannels: 19, seed: 2)
    }

    func testRowsOfTwentyFourAndSeveralImages() throws {
        try check(batch: 3, channels: 24, height: 7, width: 24, outChannels: 13, seed: 3)
    }

    func testUnsupportedShapesAreRefused() throws {
        let d = try Conv2dGeometry(batch: 1, inChannels: 8, inHeight: 6, inWidth: 12, outChannels: 8, kernel: 3, stride: 1, padding: 1, groups: 8)
        let p = try Conv2dGeometry(batch: 1, inChannels: 8, inHeight: 6, inWidth: 12, outChannels: 8, kernel: 1)
        XCTAssertFalse(FusedSeparable.isSupported(depthwise: d, pointwise: p), "rows of 12 are not a multiple of 8")
        let strided = try Conv2dGeometry(batch: 1, inChannels: 8, inHeight: 16, inWidth: 32, outChannels: 8, kernel: 3, stride: 2, padding: 1, groups: 8)
        let after = try Conv2dGeometry(batch: 1, inChannels: 8, inHeight: 8, inWidth: 16, outChannels: 8, kernel: 1)
        XCTAssertFalse(FusedSeparable.isSupported(depthwise: strided, pointwise: after), "stride 2")
    }
}
