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

    /// Screen factors multiply the class-aware factor: image 1 (√2.5) ×2, image 4 (1) ×3.
    func testScreenFactorsMultiplyTheRepeatFactor() {
        let sampler = RepeatFactorSampler(imageClasses: [[0], [0, 1], [0], [2], []], threshold: 0.5, screenFactors: [1, 2, 1, 1, 3])
        let expected = [1, 2 * 2.5.squareRoot(), 1, 2.5.squareRoot(), 3]
        for (factor, value) in zip(sampler.imageFactors, expected) { XCTAssertEqual(factor, value, accuracy: 1e-12) }
        let order = sampler.epochOrder(seed: 5, epoch: 0)
        XCTAssertEqual(order.filter { $0 == 4 }.count, 3, "a whole factor repeats exactly")
        XCTAssertEqual(RepeatFactorSampler(imageClasses: [[0], [1]], threshold: 0, screenFactors: []).imageFactors, [1, 1])
    }

    /// Rules match manifest metadata, multiply where several match, and one that matches nothing
    /// is an error naming it and what the screens have.
    func testScreenRepeatRulesMatchMetadataAndRefuseAMisspeltOne() throws {
        let samples = [("a", "vins_iphone"), ("b", "vins_rico"), ("c", "vins_iphone"), ("d", nil)].map { id, source in
            Sample(id: id, imagePath: "\(id).png", width: 10, height: 20, metadata: source.map { ["source": $0, "dark": id == "c" ? "yes" : "no"] })
        }
        let rules = [ScreenRepeatRule(key: "source", value: "vins_iphone", factor: 2), ScreenRepeatRule(key: "dark", value: "yes", factor: 1.5)]
        XCTAssertEqual(try ScreenRepeatRule.factors(rules, samples: samples), [2, 1, 3, 1])
        XCTAssertEqual(ScreenRepeatRule.condition("source=vins_iphone")?.value, "vins_iphone")
        XCTAssertNil(ScreenRepeatRule.condition("=x"))
        XCTAssertThrowsError(try ScreenRepeatRule.factors([ScreenRepeatRule(key: "source", value: "iphone", factor: 2)], samples: samples)) { error in
            XCTAssertTrue("\(error)".contains("source=iphone matches none of the 4 training screens (source takes vins_iphone, vins_rico)"), "\(error)")
        }
        XCTAssertThrowsError(try ScreenRepeatRule.factors([ScreenRepeatRule(key: "platform", value: "ios", factor: 2)], samples: samples)) { error in
            XCTAssertTrue("\(error)".contains("(manifest columns: dark, source)"), "\(error)")
        }
    }
}
