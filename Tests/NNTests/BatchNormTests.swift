import Autograd
import NN
import Tensor
import XCTest

final class BatchNormTests: XCTestCase {
    func testTrainModeNormalisesAndUpdatesRunningStatistics() throws {
        let bn = try BatchNorm2d(channels: 1, momentum: 0.1)
        // One channel, values 1, 2, 3, 4: mean 2.5, biased var 1.25, unbiased 5/3.
        let x = try Tensor(shape: [1, 1, 2, 2], values: [1, 2, 3, 4])
        let y = try bn(Tape().constant(x)).value.values
        let s = 1 / Float(1.25 + 1e-5).squareRoot()
        for (got, v) in zip(y, [Float(1), 2, 3, 4]) { XCTAssertEqual(got, (v - 2.5) * s, accuracy: 1e-5) }
        XCTAssertEqual(bn.runningMean.value[flat: 0], 0.25, accuracy: 1e-6)
        XCTAssertEqual(bn.runningVariance.value[flat: 0], 0.9 + 0.1 * 5 / 3, accuracy: 1e-6)
    }

    func testEvalModeIsTheRunningAffineAndLeavesStatistics() throws {
        let bn = try BatchNorm2d(channels: 2)
        bn.runningMean.value = try Tensor(shape: [2], values: [1, -1])
        bn.runningVariance.value = try Tensor(shape: [2], values: [4, 1])
        bn.gamma.value = try Tensor(shape: [2], values: [2, 1])
        bn.beta.value = try Tensor(shape: [2], values: [0, 3])
        bn.eval()
        let x = try Tensor(shape: [1, 2, 1, 2], values: [3, 5, 0, 1])
        let y = try bn(Tape().constant(x)).value.values
        let e: Float = 1e-5
        XCTAssertEqual(y[0], 2 * (3 - 1) / (4 + e).squareRoot(), accuracy: 1e-5)
        XCTAssertEqual(y[1], 2 * (5 - 1) / (4 + e).squareRoot(), accuracy: 1e-5)
        XCTAssertEqual(y[2], (0 + 1) / (1 + e).squareRoot() + 3, accuracy: 1e-5)
        XCTAssertEqual(bn.runningMean.value.values, [1, -1])
    }

    func testEvalModeWithTrainableAffineStillGetsGradients() throws {
        let bn = try BatchNorm2d(channels: 1)
        bn.eval()
        let tape = Tape()
        try tape.backward(try bn(tape.constant(try Tensor(shape: [1, 1, 1, 2], values: [1, 3]))).sum())
        XCTAssertEqual(bn.gamma.gradient?[flat: 0] ?? .nan, (1 + 3) / (1 + 1e-5).squareRoot(), accuracy: 1e-4)
        XCTAssertEqual(bn.beta.gradient?.values, [2])
    }

    /// PyTorch semantics: train mode updates the running statistics even without gradient
    /// recording (torch.no_grad()); the mode decides, not the tape.
    func testTrainModeUpdatesStatisticsOnANoGradientTape() throws {
        let bn = try BatchNorm2d(channels: 1, momentum: 0.5)
        _ = try bn(Tape.noGradient().constant(try Tensor(shape: [1, 1, 1, 2], values: [2, 4])))
        XCTAssertEqual(bn.runningMean.value[flat: 0], 1.5, accuracy: 1e-6)         // 0.5·0 + 0.5·3
        XCTAssertEqual(bn.runningVariance.value[flat: 0], 1.5, accuracy: 1e-6)     // 0.5·1 + 0.5·2 (unbiased)
    }

    /// Freezing only γ or only β freezes the normalisation: running statistics are used and
    /// kept, the frozen parameter gets no gradient, the other still trains through the affine.
    func testFreezingEitherParameterFreezesTheStatistics() throws {
        for frozenGamma in [true, false] {
            let bn = try BatchNorm2d(channels: 1)
            bn.runningMean.value = try Tensor(shape: [1], values: [1])
            bn.runningVariance.value = try Tensor(shape: [1], values: [4])
            (frozenGamma ? bn.gamma : bn.beta).isFrozen = true
            XCTAssertTrue(bn.usesRunningStatistics)
            let tape = Tape()
            let y = try bn(tape.constant(try Tensor(shape: [1, 1, 1, 2], values: [3, 5])))
            let s = 1 / Float(4 + 1e-5).squareRoot()
            XCTAssertEqual(y.value[flat: 0], (3 - 1) * s, accuracy: 1e-5, "running statistics, not the batch's (mean 4)")
            XCTAssertEqual(y.value[flat: 1], (5 - 1) * s, accuracy: 1e-5)
            try tape.backward(try y.sum())
            XCTAssertEqual(bn.runningMean.value.values, [1], "statistics untouched")
            XCTAssertEqual(bn.runningVariance.value.values, [4])
            if frozenGamma {
                XCTAssertNil(bn.gamma.gradient)
                XCTAssertEqual(bn.beta.gradient?.values, [2])
            } else {
                XCTAssertNil(bn.beta.gradient)
                XCTAssertEqual(bn.gamma.gradient?[flat: 0] ?? .nan, (2 + 4) * s, accuracy: 1e-5)
            }
        }
    }
}
