import Detection
import XCTest

final class ClassBalanceTests: XCTestCase {
    func testEffectiveNumberWeightsByHand() {
        // β = 0.99, counts [1000, 10, 0]:
        // raw w = (1 − β)/(1 − β^n): 0.01/(1 − 0.99¹⁰⁰⁰) = 0.0100004317, 0.01/(1 − 0.99¹⁰) = 0.1045829012;
        // normalized over the two present classes (mean 0.0572916665): 0.1745530, 1.8254470; the empty class 1.
        let weights = ClassBalance.effectiveNumber(beta: 0.99).weights(classCounts: [1000, 10, 0])
        XCTAssertEqual(weights[0], 0.1745529909, accuracy: 1e-9)
        XCTAssertEqual(weights[1], 1.8254470091, accuracy: 1e-9)
        XCTAssertEqual(weights[2], 1)
        XCTAssertEqual(weights.reduce(0, +) / 3, 1, accuracy: 1e-12)
        // β = 0.999, [5000, 500, 50] (python: (1-b)/(1-b**n), normalized to mean 1).
        let defaults = try! ClassBalance(configName: "effective_number").weights(classCounts: [5000, 500, 50])
        for (w, e) in zip(defaults, [0.1256288628, 0.3170168250, 2.5573543122]) { XCTAssertEqual(w, e, accuracy: 1e-9) }
    }

    func testInverseFrequencyAndNone() {
        // n^−1 for [100, 25]: 0.01, 0.04, mean 0.025 → 0.4, 1.6.
        let inverse = ClassBalance.inverseFrequency(power: 1).weights(classCounts: [100, 25, 0])
        for (w, e) in zip(inverse, [0.4, 1.6, 1]) { XCTAssertEqual(w, e, accuracy: 1e-12) }
        // n^−0.5: 0.1, 0.2, mean 0.15 → 2/3, 4/3.
        let root = ClassBalance.inverseFrequency(power: 0.5).weights(classCounts: [100, 25])
        XCTAssertEqual(root[0], 2.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(root[1], 4.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(ClassBalance.none.weights(classCounts: [7, 0, 3000]), [1, 1, 1])
        XCTAssertEqual(ClassBalance.effectiveNumber(beta: 0).weights(classCounts: [7, 3000]), [1, 1])
        XCTAssertEqual(ClassBalance.inverseFrequency(power: 1).weights(classCounts: [0, 0]), [1, 1])
    }

    func testConfigNames() throws {
        XCTAssertEqual(try ClassBalance(configName: "none"), .none)
        XCTAssertEqual(try ClassBalance(configName: "effective_number"), .effectiveNumber(beta: 0.999))
        XCTAssertEqual(try ClassBalance(configName: "inverse_frequency", power: 0.5), .inverseFrequency(power: 0.5))
        XCTAssertEqual(ClassBalance.effectiveNumber(beta: 0.9).configName, "effective_number")
        XCTAssertThrowsError(try ClassBalance(configName: "focal")) { error in
            XCTAssertEqual("\(error)", "class balance 'focal' is unknown; use one of none, effective_number, inverse_frequency")
        }
        XCTAssertThrowsError(try ClassBalance(configName: "effective_number", beta: 1))
        XCTAssertThrowsError(try ClassBalance(configName: "inverse_frequency", power: -1))
    }
}
