import Autograd
import Tensor
import XCTest

final class ElementwiseGradientTests: XCTestCase {
    let shapePairs: [([Int], [Int])] = [([2, 3, 4, 5], [2, 3, 4, 5]), ([2, 3, 4, 5], [1, 3, 1, 1]), ([3, 1, 5], [4, 1]), ([2, 7], [])]

    func testAddSubtractMultiplyBroadcasting() throws {
        for (sa, sb) in shapePairs {
            try GradientCheck().run(shapes: [sa, sb], engine: { try $1[0] + $1[1] }, reference: { broadcastReference($0[0], sa, $0[1], sb, +) })
            try GradientCheck().run(shapes: [sa, sb], engine: { try $1[0] - $1[1] }, reference: { broadcastReference($0[0], sa, $0[1], sb, -) })
            try GradientCheck().run(shapes: [sa, sb], engine: { try $1[0] * $1[1] }, reference: { broadcastReference($0[0], sa, $0[1], sb, *) })
        }
    }

    func testDivideAwayFromZero() throws {
        var check = GradientCheck()
        check.inputRanges = [-1...1, 0.5...2]
        for (sa, sb) in shapePairs {
            try check.run(shapes: [sa, sb], engine: { try $1[0] / $1[1] }, reference: { broadcastReference($0[0], sa, $0[1], sb, /) })
        }
    }

    func testNegateAndScale() throws {
        try GradientCheck().run(shapes: [[3, 4]], engine: { -$1[0] }, reference: { $0[0].map { -$0 } })
        try GradientCheck().run(shapes: [[3, 4]], engine: { $1[0].scaled(by: 2.5) }, reference: { $0[0].map { 2.5 * $0 } })
    }

    func testIncompatibleShapesNameTheOp() throws {
        let tape = Tape()
        let a = tape.leaf(try Tensor(zeros: [2, 3])), b = tape.leaf(try Tensor(zeros: [4]))
        XCTAssertThrowsError(try a + b) { error in
            XCTAssertTrue("\(error)".contains("add") && "\(error)".contains("[2, 3]") && "\(error)".contains("[4]"), "\(error)")
        }
    }

    func testBroadcastAnalyticCase() throws {
        let tape = Tape()
        let a = tape.leaf(try Tensor(shape: [2, 2], values: [1, 2, 3, 4]))
        let b = tape.leaf(try Tensor(shape: [2], values: [10, 20]))
        let y = try a * b
        XCTAssertEqual(y.value.values, [10, 40, 30, 80])
        let g = try tape.backward(try y.sum())
        XCTAssertEqual(g[a]?.values, [10, 20, 10, 20])
        XCTAssertEqual(g[b]?.values, [4, 6])
    }
}
