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
        let x = tape.leaf(try Tensor(zeros: [3]))
        XCTAssertThrowsError(try tape.backward(x.scaled(by: 2))) { XCTAssertTrue("\($0)".contains("scalar")) }
    }

    func testSeedMustHaveTheOutputShape() throws {
        let tape = Tape()
        let x = tape.leaf(try Tensor(shape: [2, 3], values: [1, 2, 3, 4, 5, 6]))
        let y = x.scaled(by: 2)
        // A [3, 2] seed has the right count but the wrong shape; [4] has neither.
        for seed in [try Tensor(zeros: [3, 2]), try Tensor(zeros: [4])] {
            XCTAssertThrowsError(try tape.backward(y, seed: seed)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("backward") && text.contains("\(seed.shape)") && text.contains("[2, 3]"), text)
            }
        }
        // A rejected seed consumes nothing: the right one still works.
        let g = try tape.backward(y, seed: try Tensor(shape: [2, 3], values: [1, 1, 1, 0, 0, 1]))
        XCTAssertEqual(g[x]?.values, [2, 2, 2, 0, 0, 2])
    }

    func testSecondBackwardOnATapeThrows() throws {
        let p = Parameter(try Tensor(shape: [2], values: [3, -1]))
        let tape = Tape()
        let y = try (tape.parameter(p) * tape.parameter(p)).sum()
        try tape.backward(y)
        XCTAssertEqual(p.gradient?.values, [6, -2])
        XCTAssertThrowsError(try tape.backward(y)) { error in
            XCTAssertTrue("\(error)".contains("backward") && "\(error)".contains("already differentiated"), "\(error)")
        }
        XCTAssertEqual(p.gradient?.values, [6, -2], "the failed second call must not touch gradients")
    }

    func testProfileChargesOpsToTheInnermostLabel() throws {
        let tape = Tape()
        let profile = OpProfile()
        tape.profile = profile
        let x = tape.leaf(try Tensor(repeating: 1, shape: [4]))
        let y = try tape.profiled(as: "block") { () -> Variable in
            let a = x.relu()                                          // → "block"
            let b = try tape.profiled(as: "inner") { try a * a }      // → "inner"
            return try tape.profiled(as: nil) { try b + a }           // nil keeps "block"
        }
        let loss = try y.sum()                                        // outside any label → op kind
        try tape.backward(loss)
        XCTAssertEqual(profile.entries.map(\.label), ["block", "inner", "sum"], "labels in first-reached order")
        XCTAssertEqual(profile["block"]?.calls, 2)
        XCTAssertEqual(profile["inner"]?.calls, 1)
        XCTAssertNil(profile["relu"], "a labelled op is not also charged to its kind")
        for entry in profile.entries { XCTAssertGreaterThan(entry.backwardNanoseconds, 0, "\(entry.label) was differentiated") }
    }

    func testMixingTapesIsAnError() throws {
        let a = Tape().leaf(try Tensor(zeros: [1])), b = Tape().leaf(try Tensor(zeros: [1]))
        XCTAssertThrowsError(try a + b) { XCTAssertTrue("\($0)".contains("different tapes")) }
    }

    func testTapeIsReleasedWithItsGraph() throws {
        weak var weakTape: Tape?
        do {
            let tape = Tape()
            weakTape = tape
            let x = tape.leaf(try Tensor(repeating: 1, shape: [4]))
            _ = try (x * x).sum()
        }
        XCTAssertNil(weakTape, "a tape must not be kept alive by its own records (retain cycle)")
    }
}
