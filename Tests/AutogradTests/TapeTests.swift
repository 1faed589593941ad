import Autograd
import Tensor
import XCTest

final class TapeTests: XCTestCase {
    func testGradientsAccumulateOverReuseAndIntoParameters() throws {
        let p = Parameter(try Tensor(shape: [2], values: [3, -1]))
        let tape = Tape()
        let x = tape.parameter(p)
        let y = try (x * x + x).sum() // d/dx = 2x + 1
        try tape.backward(y)
        XCTAssertEqual(p.gradient?.values, [7, -1])
        // A second graph adds to the stored gradient until it is cleared.
        let tape2 = Tape()
        try tape2.backward(try tape2.parameter(p).sum())
        XCTAssertEqual(p.gradient?.values, [8, 0])
    }

    func testFrozenParameterGetsNoGradient() throws {
        let p = Parameter(try Tensor(shape: [2], values: [1, 2]))
        p.isFrozen = true
        let q = Parameter(try Tensor(shape: [2], values: [1, 1]))
        let tape = Tape()
        try tape.backward(try (tape.parameter(p) * tape.parameter(q)).sum())
        XCTAssertNil(p.gradient)
        XCTAssertEqual(q.gradient?.values, [1, 2])
    }

    func testNoGradientTapeRecordsNothing() throws {
        let p = Parameter(try Tensor(shape: [2], values: [1, 2]))
        let tape = Tape.noGradient()
        let y = try (tape.parameter(p) * tape.parameter(p)).sum()
        XCTAssertEqual(y.value.scalarValue, 5)
        XCTAssertFalse(y.requiresGradient)
        XCTAssertThrowsError(try tape.backward(y))
    }

    func testBackwardNeedsScalarOrSeed() throws {
        let tape = Tape()
        let x = tape.leaf(Tensor(zeros: [3]))
        XCTAssertThrowsError(try tape.backward(x.scaled(by: 2))) { XCTAssertTrue("\($0)".contains("scalar")) }
    }

    func testMixingTapesIsAnError() {
        let a = Tape().leaf(Tensor(zeros: [1])), b = Tape().leaf(Tensor(zeros: [1]))
        XCTAssertThrowsError(try a + b) { XCTAssertTrue("\($0)".contains("different tapes")) }
    }

    func testTapeIsReleasedWithItsGraph() throws {
        weak var weakTape: Tape?
        do {
            let tape = Tape()
            weakTape = tape
            let x = tape.leaf(Tensor(repeating: 1, shape: [4]))
            _ = try (x * x).sum()
        }
        XCTAssertNil(weakTape, "a tape must not be kept alive by its own records (retain cycle)")
    }
}
