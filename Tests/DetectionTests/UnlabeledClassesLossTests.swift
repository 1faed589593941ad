import Autograd
import Data
import Detection
import Support
import Tensor
import XCTest

/// The detection loss on screens that do not mark some classes (training on two datasets): those
/// classes' logits on that screen get no gradient; everything else is as without the mask.
final class UnlabeledClassesLossTests: XCTestCase {
    private let configuration = TwoScreenLossFixture.configuration
    private let targets = TwoScreenLossFixture.targets

    private func outputs() throws -> Tensor { try TwoScreenLossFixture.values(seed: 11) }

    private func lossAndGradient(_ loss: DetectionLoss, unlabeled: [Set<Int>]?) throws -> (Float, Tensor) {
        let tape = Tape()
        let x = tape.leaf(try outputs())
        let (total, _) = try loss(x, targets: targets, unlabeledClasses: unlabeled, taskAligned: false)
        return (total.value.scalarValue, try XCTUnwrap(try tape.backward(total)[x]))
    }

    func testMaskedClassesGetNoGradientAndTheRestIsUnchanged() throws {
        let loss = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [1, 1, 1])
        let (plainLoss, plain) = try lossAndGradient(loss, unlabeled: nil)
        // Empty sets are the plain loss, bit for bit (a single-dataset run is unchanged).
        let (emptyLoss, empty) = try lossAndGradient(loss, unlabeled: [[], []])
        XCTAssertEqual(emptyLoss.bitPattern, plainLoss.bitPattern)
        XCTAssertEqual(empty.values.map(\.bitPattern), plain.values.map(\.bitPattern))

        // Image 0 does not mark class 2; image 1 does not mark classes 1 and 2.
        let (maskedLoss, masked) = try lossAndGradient(loss, unlabeled: [[2], [1, 2]])
        XCTAssertLessThan(maskedLoss, plainLoss, "fewer terms in the sum")
        let priors = configuration.priorCount, columns = configuration.outputsPerPrior
        var changed = 0
        for row in 0..<2 * priors {
            let unlabeled: Set<Int> = row < priors ? [2] : [1, 2]
            for column in 0..<columns {
                let index = row * columns + column
                if column < 3 && unlabeled.contains(column) {
                    XCTAssertEqual(masked[flat: index], 0, "row \(row), class \(column): unlabeled, no gradient")
                    if plain[flat: index] != 0 { changed += 1 }
                } else {
                    // Box outputs and labeled classes learn as before (the positives and normalizers do not change).
                    XCTAssertEqual(masked[flat: index], plain[flat: index], accuracy: 1e-6 * max(1, abs(plain[flat: index])),
                                   "row \(row), column \(column)")
                }
            }
        }
        XCTAssertEqual(changed, 3 * priors, "every masked logit had a gradient before")
    }

    /// The mask combines with class-balance weights, and bad masks are refused by name.
    func testMasksCombineWithClassWeightsAndAreChecked() throws {
        let weighted = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [2, 0.5, 1])
        let (_, gradient) = try lossAndGradient(weighted, unlabeled: [[0], []])
        let columns = configuration.outputsPerPrior
        for row in 0..<configuration.priorCount { XCTAssertEqual(gradient[flat: row * columns], 0) }
        let loss = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [1, 1, 1])
        XCTAssertThrowsError(try lossAndGradient(loss, unlabeled: [[3], []])) { error in
            XCTAssertTrue("\(error)".contains("unlabeled class 3 is not one of the 3 classes"), "\(error)")
        }
        XCTAssertThrowsError(try lossAndGradient(loss, unlabeled: [[1]])) { error in
            XCTAssertTrue("\(error)".contains("1 images, targets for 2"), "\(error)")
        }
    }
}
