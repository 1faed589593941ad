import Benchmarks
import Kernels
import XCTest

/// What `bench predict --winograd-tiles` prints: the detectors' 3×3 stride-1 shapes, one row each
/// with both tile sizes timed every round, and which tile `FusedDetector` picks for it.
final class WinogradTileBenchmarkTests: XCTestCase {
    func testShapesAreTheDetectorsThreeLevels() throws {
        let shapes = try WinogradTileBenchmark.shapes(batch: 8)
        XCTAssertEqual(shapes.map { "\($0.inChannels)→\($0.outChannels) at \($0.outHeight)×\($0.outWidth)" },
                       ["64→64 at 64×32", "64→51 at 64×32", "64→64 at 32×16", "64→51 at 32×16", "64→64 at 16×8"])
        XCTAssertTrue(shapes.allSatisfy { $0.batch == 8 && Winograd3x3.isSupported($0) })
        XCTAssertEqual(shapes.map { Winograd3x3.prefersTile4($0) }, [true, true, true, true, false],
                       "F(4×4) on the 64×32 and 32×16 levels, F(2×2) on 16×8")
    }

    func testEveryRoundTimesBothTilesAndTheTableSaysWhichRuns() throws {
        let benchmark = WinogradTileBenchmark(rounds: 3, workers: 2)
        let rows = try [1, 2].map { batch in
            benchmark.measure(try Conv2dGeometry(batch: batch, inChannels: 8, inHeight: 16 * batch, inWidth: 16, outChannels: 5, kernel: 3, padding: 1), runs: 1)
        }
        for row in rows {
            XCTAssertEqual(row.ratios.count, 3, "one ratio a round")
            XCTAssertEqual(row.ratios, row.ratios.sorted())
            XCTAssertTrue(row.tile2 > 0 && row.tile4 > 0)
            XCTAssertTrue(row.ratios.contains(row.medianRatio))
        }
        // 16×16 outputs: 16 tiles of 4×4 (F(2×2) runs); 32×16: 32 tiles (F(4×4) runs).
        XCTAssertEqual(rows.map(\.usesTile4), [false, true])
        let table = WinogradTileBenchmark.table(rows).split(separator: "\n")
        XCTAssertEqual(table.count, 2 + rows.count, "header, rule, a row per shape")
        XCTAssertTrue(table[2].hasPrefix("| 1, 8→5 at 16×16 |") && table[2].hasSuffix("| F(2×2) |"), String(table[2]))
        XCTAssertTrue(table[3].hasPrefix("| 2, 8→5 at 32×16 |") && table[3].hasSuffix("| F(4×4) |"), String(table[3]))
    }
}
