import Distributed
import XCTest

/// The arithmetic of the rank-order allreduce, without MPI: the chunks every rank reduces, and
/// the sum each rank computes for its chunk.
final class RankOrderSumTests: XCTestCase {
    func testChunksCoverTheBufferOnceInRankOrder() {
        XCTAssertEqual(RankChunks(count: 10, ranks: 3).offsets, [0, 4, 7])
        XCTAssertEqual(RankChunks(count: 10, ranks: 3).counts, [4, 3, 3])
        XCTAssertEqual(RankChunks(count: 2, ranks: 4).counts, [1, 1, 0, 0])
        XCTAssertEqual(RankChunks(count: 0, ranks: 2).counts, [0, 0])
        for (count, ranks) in [(1_031_495, 2), (1_031_495, 3), (7, 8), (64, 64)] {
            let chunks = RankChunks(count: count, ranks: ranks)
            XCTAssertEqual(chunks.counts.reduce(0, +), count)
            XCTAssertLessThanOrEqual(chunks.counts.max()! - chunks.counts.min()!, 1)
            for r in 1..<ranks { XCTAssertEqual(chunks.offsets[r], chunks.offsets[r - 1] + chunks.counts[r - 1]) }
        }
    }

    /// ((x₀ + x₁) + x₂) + x₃ element by element, bit for bit, on lengths that exercise the SIMD
    /// body and the tail; and the order matters (float addition is not associative), so the test
    /// would see another order.
    func testSumIsTakenInRankOrder() {
        var generator = SystemRandomNumberGenerator()
        for count in [1, 7, 8, 9, 37] {
            let ranks = 4
            let parts = (0..<ranks * count).map { _ in Float.random(in: -1e4...1e4, using: &generator) * (Bool.random() ? 1e-4 : 1) }
            var result = [Float](repeating: .nan, count: count)
            parts.withUnsafeBufferPointer { p in
                result.withUnsafeMutableBufferPointer { addInRankOrder(p, ranks: ranks, count: count, into: $0.baseAddress!) }
            }
            for i in 0..<count {
                var expected = parts[i]
                for k in 1..<ranks { expected += parts[k * count + i] }
                XCTAssertEqual(result[i].bitPattern, expected.bitPattern, "element \(i) of \(count)")
            }
        }
        let values: [Float] = [1e8, 1, -1e8, 1]  // one element, four ranks
        var result: Float = 0
        values.withUnsafeBufferPointer { addInRankOrder($0, ranks: 4, count: 1, into: &result) }
        XCTAssertEqual(result, ((1e8 + 1) - 1e8) + 1)
        XCTAssertEqual(result, 1, "1e8 + 1 rounds to 1e8 in float, so rank order gives 1 where 1 + 1 + 1e8 − 1e8 would give 2")
    }

    func testOneProcessCollectivesAreTheIdentity() throws {
        let one = SingleProcess()
        XCTAssertEqual(one.rank, 0)
        XCTAssertEqual(one.size, 1)
        XCTAssertEqual(try one.sumInRankOrder([1.5, -2]), [1.5, -2])
        XCTAssertEqual(try one.allGather([1, 2, 3]), [[1, 2, 3]])
        XCTAssertEqual(try one.agree(on: 42), 42)
        XCTAssertTrue(try one.any(true))
        XCTAssertFalse(try one.any(false))
    }
}
