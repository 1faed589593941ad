import Autograd
import Tensor
import XCTest

/// Every `OpKind` is recorded by some op and differentiates; the tape rejects a pullback that
/// returns the wrong number of gradients or a gradient of the wrong shape.
final class OpKindCoverageTests: XCTestCase {
    /// A small graph whose last recorded op is `kind`, from the leaf `x` ([2, 2, 4, 4], values in ±1).
    /// No `default:`: a new case without a graph here does not compile.
    func graph(recording kind: OpKind, from x: Variable) throws -> Variable {
        let tape = x.tape
        func constant(_ shape: [Int], _ start: Float = 0.5) throws -> Variable {
            let n = Tensor.elementCount(shape)
            return tape.constant(try Tensor(shape: shape, values: (0..<n).map { start + Float($0 % 7) * 0.125 }))
        }
        func leafSlice(_ width: Int) throws -> Variable { try x.reshaped([-1]).slice(axis: 0, 0..<width) }
        switch kind {
        case .add: return try x + constant([4])
        case .subtract: return try x - constant([4])
        case .multiply: return try x * constant([2, 1, 4, 1])
        case .divide: return try constant([4]) / x.adding(3)
        case .negate: return -x
        case .matmul: return try x.reshaped([16, 4]).matmul(constant([4, 3]))
        case .conv2d: return try x.conv2d(weight: constant([3, 2, 3, 3]), padding: (1, 1))
        case .depthwiseConv2d: return try x.conv2d(weight: constant([2, 1, 3, 3]), groups: 2)
        case .batchNorm: return try x.batchNorm(gamma: constant([2]), beta: constant([2])).output
        case .channelAffine: return try x.channelAffine(scale: constant([2]), shift: constant([2]))
        case .batchNormDepthwise:
            return try x.batchNormDepthwise(gamma: constant([2]), beta: constant([2]), activation: .relu6, weight: constant([2, 1, 3, 3]), stride: 1).output
        case .relu: return x.relu()
        case .relu6: return x.relu6()
        case .sigmoid: return x.sigmoid()
        case .silu: return x.silu()
        case .sum: return try x.sum(axes: [1])
        case .mean: return try x.mean(axes: [0, 2])
        case .reshape: return try x.reshaped([4, 16])
        case .permute: return try x.permuted([0, 2, 3, 1])
        case .concat: return try Variable.concat([x, constant([2, 1, 4, 4])], axis: 1)
        case .concatTransposed: return try Variable.concatTransposed([x.reshaped([2, 2, 16]), constant([2, 2, 5])])
        case .slice: return try x.slice(axis: 2, 1..<3)
        case .gather: return try x.gather(axis: 3, indices: [3, 0, 0])
        case .upsampleNearest2x: return try x.upsampledNearest2x()
        case .maxPool2d: return try x.maxPool2d(kernel: 2)
        case .softmax: return try x.softmax(axis: 1)
        case .logSoftmax: return try x.logSoftmax()
        case .exp: return x.exp()
        case .log: return try x.adding(2).log()
        case .binaryCrossEntropyWithLogits: return try x.binaryCrossEntropyWithLogits(targets: Tensor(repeating: 0.5, shape: x.shape))
        case .smoothL1: return try x.smoothL1(targets: Tensor(zeros: x.shape))
        case .sumOfSquares: return x.sumOfSquares()
        case .sigmoidFocalLoss: return try x.sigmoidFocalLoss(targets: Tensor(repeating: 1, shape: x.shape))
        case .qualityFocalLoss: return try x.qualityFocalLoss(targets: Tensor(repeating: 0.25, shape: x.shape))
        case .varifocalLoss: return try x.varifocalLoss(targets: Tensor(zeros: x.shape))
        case .distributionFocalLoss: return try leafSlice(40).reshaped([2, 4, 5]).distributionFocalLoss(targets: Tensor(repeating: 2.5, shape: [2, 4]))
        case .distributionExpectation: return try leafSlice(40).reshaped([2, 4, 5]).distributionExpectation()
        case .distancesToBoxes:
            return try leafSlice(8).reshaped([2, 4]).distancesToBoxes(points: Tensor(zeros: [2, 2]), scales: Tensor(repeating: 8, shape: [2]))
        case .generalizedIoULoss:
            return try leafSlice(8).reshaped([2, 4]).generalizedIoULoss(targets: Tensor(shape: [2, 4], values: [0, 0, 1, 1, -1, -1, 0.5, 0.5]))
        }
    }

    func testEveryOpKindIsRecordedAndDifferentiates() throws {
        for kind in OpKind.allCases {
            do {
                let tape = Tape()
                let profile = OpProfile()
                tape.profile = profile
                let x = tape.leaf(try Tensor(shape: [2, 2, 4, 4], values: (0..<64).map { Float(($0 * 37) % 64) / 32 - 1 }))
                let output = try graph(recording: kind, from: x)
                let gradients = try tape.backward(output.value.count == 1 ? output : try output.sum())
                // Backward time is charged to the op's kind only when a record of that kind ran its pullback.
                XCTAssertGreaterThan(profile[kind.rawValue]?.backwardNanoseconds ?? 0, 0, "\(kind) was not recorded (profile: \(profile.entries.map(\.label)))")
                let gradient = try XCTUnwrap(gradients[x], "\(kind): no gradient reached the leaf")
                XCTAssertEqual(gradient.shape, x.shape, "\(kind)")
                XCTAssertTrue(gradient.values.allSatisfy(\.isFinite), "\(kind): \(gradient)")
            } catch {
                XCTFail("\(kind): \(error)")
            }
        }
    }

    func testAPullbackReturningAWronglyShapedGradientThrows() throws {
        let tape = Tape()
        let a = tape.leaf(try Tensor(zeros: [2, 3])), b = tape.leaf(try Tensor(zeros: [3]))
        let y = tape.record(.add, inputs: [a, b], output: try Tensor(zeros: [2, 3])) { g, _ in [g, g] } // b's should be [3]
        XCTAssertThrowsError(try tape.backward(y, seed: try Tensor(zeros: [2, 3]))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("add") && text.contains("input 1") && text.contains("[2, 3]") && text.contains("[3]"), text)
        }
    }

    func testAPullbackReturningTheWrongCountThrows() throws {
        let tape = Tape()
        let a = tape.leaf(try Tensor(zeros: [2])), b = tape.leaf(try Tensor(zeros: [2]))
        let y = tape.record(.multiply, inputs: [a, b], output: try Tensor(zeros: [2])) { g, _ in [g] }
        XCTAssertThrowsError(try tape.backward(y, seed: try Tensor(zeros: [2]))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("multiply") && text.contains("1 gradients") && text.contains("2 inputs"), text)
        }
        // A nil gradient for an input stays allowed (constants, inputs that need none).
        let tape2 = Tape()
        let c = tape2.leaf(try Tensor(zeros: [2]))
        let z = tape2.record(.multiply, inputs: [c, tape2.constant(try Tensor(zeros: [2]))], output: try Tensor(zeros: [2])) { g, _ in [g, nil] }
        XCTAssertEqual(try tape2.backward(z, seed: try Tensor(repeating: 1, shape: [2]))[c]?.values, [1, 1])
    }
}
