import XCTest
@testable import Kernels

final class SigmoidFocalKernelTests: XCTestCase {
    /// Above the split threshold the three losses run on several workers; every element must
    /// be what one worker computes (each is a function of its own logit, target and weight).
    func testLargeBatchesGiveTheSameElementsOnAnyWorkerCount() {
        let saved = Parallel.threadCount
        defer { Parallel.threadCount = saved }
        let count = 40_001
        let logits = (0..<count).map { Float(($0 * 7919) % 2001 - 1000) / 50 }
        let targets = (0..<count).map { $0 % 13 == 0 ? Float($0 % 101) / 100 : 0 }
        let weights = (0..<count).map { 0.5 + Float($0 % 3) }
        func run(_ threads: Int, _ loss: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void) -> [Float] {
            Parallel.threadCount = threads
            var losses = [Float](repeating: .nan, count: count), derivatives = losses
            losses.withUnsafeMutableBufferPointer { l in derivatives.withUnsafeMutableBufferPointer { d in loss(l.baseAddress!, d.baseAddress!) } }
            return losses + derivatives
        }
        let kernels: [(String, (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void)] = [
            ("focal", { LossKernels.sigmoidFocal(logits: logits, targets: targets, weights: weights, count: count, alpha: 0.25, gamma: 2, losses: $0, derivatives: $1) }),
            ("quality focal", { LossKernels.qualityFocal(logits: logits, targets: targets, weights: weights, count: count, beta: 2, losses: $0, derivatives: $1) }),
            ("varifocal", { LossKernels.varifocal(logits: logits, targets: targets, weights: weights, count: count, alpha: 0.75, gamma: 2,
                                                  differentiateWeight: true, losses: $0, derivatives: $1) }),
        ]
        for (name, kernel) in kernels {
            let one = run(1, kernel)
            XCTAssertFalse(one.contains { !$0.isFinite }, name)
            XCTAssertEqual(run(2, kernel), one, name)
            XCTAssertEqual(run(3, kernel), one, name)
        }
    }
}
