import XCTest
@testable import Augment
import Data
import Support

final class SamplingTests: XCTestCase {
    func testRepeatFactorsOnAHandComputedExample() {
        // Images: {0}, {0,1}, {0}, {2}, {} with t = 0.5. Shares: f0 = 3/5, f1 = f2 = 1/5.
        // r0 = max(1, √(0.5/0.6)) = 1; r1 = r2 = √2.5 ≈ 1.5811. Image factors: 1, √2.5, 1, √2.5, 1.
        let sampler = RepeatFactorSampler(imageClasses: [[0], [0, 1], [0], [2], []], threshold: 0.5)
        XCTAssertEqual(sampler.classFactors[0]!, 1)
        XCTAssertEqual(sampler.classFactors[1]!, 2.5.squareRoot(), accuracy: 1e-12)
        let expected = [1, 2.5.squareRoot(), 1, 2.5.squareRoot(), 1]
        for (factor, value) in zip(sampler.imageFactors, expected) { XCTAssertEqual(factor, value, accuracy: 1e-12) }
        XCTAssertEqual(sampler.expectedEpochLength, 3 + 2 * 2.5.squareRoot(), accuracy: 1e-12)
    }

    func testStochasticRoundingMatchesTheFactorOnAverage() {
        let sampler = RepeatFactorSampler(imageClasses: [[0], [0, 1], [0], [2], []], threshold: 0.5)
        var counts = [Int](repeating: 0, count: 5)
        let epochs = 4000
        for epoch in 0..<epochs {
            let order = sampler.epochOrder(seed: 11, epoch: epoch)
            for i in order { counts[i] += 1 }
            XCTAssertEqual(order.filter { $0 == 0 }.count, 1, "factor 1 → exactly once")
            XCTAssert((1...2).contains(order.filter { $0 == 1 }.count))
        }
        XCTAssertEqual(Double(counts[1]) / Double(epochs), 2.5.squareRoot(), accuracy: 0.03)
        XCTAssertEqual(Double(counts[3]) / Double(epochs), 2.5.squareRoot(), accuracy: 0.03)
    }

    func testZeroThresholdIsAPlainSeededShuffle() {
        let sampler = RepeatFactorSampler(imageClasses: Array(repeating: [0], count: 50), threshold: 0)
        let order = sampler.epochOrder(seed: 1, epoch: 0)
        XCTAssertEqual(order.sorted(), Array(0..<50))
        XCTAssertNotEqual(order, Array(0..<50))
        XCTAssertEqual(order, sampler.epochOrder(seed: 1, epoch: 0))
        XCTAssertNotEqual(order, sampler.epochOrder(seed: 1, epoch: 1))
    }
}
