import Autograd
import Data
import Support
import Tensor
import XCTest
@testable import Detection

/// Knowledge distillation's two terms: zero with a teacher equal to the student, the weighted KL
/// divergence and its gradient against a float64 reference, and the class term's pull.
final class DistillationLossTests: XCTestCase {
    private let configuration = TwoScreenLossFixture.configuration
    private let targets = TwoScreenLossFixture.targets

    private func values(seed: UInt64) throws -> Tensor { try TwoScreenLossFixture.values(seed: seed) }

    private func run(_ loss: DetectionLoss, teacher: Tensor?) throws -> (terms: [String: Float], total: Float, gradient: Tensor) {
        let tape = Tape()
        let x = tape.leaf(try values(seed: 11))
        let (total, terms) = try loss(x, targets: targets, taskAligned: false, teacher: teacher)
        return (Dictionary(uniqueKeysWithValues: terms.map { ($0.name, $0.value) }), total.value.scalarValue, try XCTUnwrap(try tape.backward(total)[x]))
    }

    func testATeacherThatAgreesWithTheStudentTeachesNothing() throws {
        let loss = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [1, 2, 1])
        let plain = try run(loss, teacher: nil)
        let same = try run(loss, teacher: try values(seed: 11))
        XCTAssertEqual(Set(same.terms.keys), ["cls", "giou", "dfl", "kd", "ld"])
        XCTAssertEqual(same.terms["kd"] ?? -1, 0, accuracy: 1e-6)
        XCTAssertEqual(same.terms["ld"] ?? -1, 0, accuracy: 1e-5)
        XCTAssertEqual(same.total, plain.total, accuracy: 1e-5)
        for (a, b) in zip(same.gradient.values, plain.gradient.values) { XCTAssertEqual(a, b, accuracy: 1e-6) }
        // Another teacher moves both terms and the gradient.
        let other = try run(loss, teacher: try values(seed: 12))
        XCTAssertGreaterThan(other.terms["kd"] ?? 0, 1e-3)
        XCTAssertGreaterThan(other.terms["ld"] ?? 0, 1e-3)
        XCTAssertNotEqual(other.gradient.values, plain.gradient.values)
        XCTAssertThrowsError(try run(loss, teacher: try Tensor(zeros: [2, configuration.outputsPerPrior])))
    }

    /// LD against float64: the value is Σ w·τ²·KL(p_t ‖ p_s) and the gradient τ·w·(p_s − p_t),
    /// itself checked by central differences of the float64 reference.
    func testLocalizationTermIsTheWeightedKLDivergenceWithItsGradient() throws {
        var settings = DetectionLossSettings()
        settings.distillation.temperature = 3
        let loss = try DetectionLoss(configuration: configuration, settings: settings, classWeights: [1, 1, 1])
        let bins = configuration.distributionBins, k = configuration.classCount, width = configuration.outputsPerPrior
        let teacher = try values(seed: 5), rows = [3, 17, 40], weights: [Float] = [0.5, 1, 0.25]
        var random = SeededRandom(seed: 8)
        let student = (0..<rows.count * 4 * bins).map { _ in random.uniform(-3, 3) }
        let tape = Tape()
        let s = tape.leaf(try Tensor(shape: [rows.count, 4, bins], values: student.map(Float.init)))
        let value = try loss.localizationDistillation(s, teacher: teacher, rows: rows, weights: weights)
        let gradient = try XCTUnwrap(try tape.backward(value)[s])

        let tau = 3.0
        func softmax(_ z: [Double]) -> [Double] { let m = z.max()!, e = z.map { exp($0 - m) }, t = e.reduce(0, +); return e.map { $0 / t } }
        func teacherDistribution(_ i: Int, _ side: Int) -> [Double] {
            softmax((0..<bins).map { Double(teacher[flat: rows[i] * width + k + side * bins + $0]) / tau })
        }
        func reference(_ z: [Double]) -> Double {
            var total = 0.0
            for i in rows.indices {
                for side in 0..<4 {
                    let p = teacherDistribution(i, side), q = softmax((0..<bins).map { z[(i * 4 + side) * bins + $0] / tau })
                    total += Double(weights[i]) * tau * tau * zip(p, q).reduce(0) { $0 + $1.0 * log($1.0 / $1.1) }
                }
            }
            return total
        }
        XCTAssertEqual(Double(value.value.scalarValue), reference(student), accuracy: 1e-4 * max(1, reference(student)))
        for i in rows.indices {
            for side in 0..<4 {
                let p = teacherDistribution(i, side), q = softmax((0..<bins).map { student[(i * 4 + side) * bins + $0] / tau })
                for b in 0..<bins {
                    let index = (i * 4 + side) * bins + b
                    let analytic = tau * Double(weights[i]) * (q[b] - p[b])
                    var plus = student, minus = student
                    plus[index] += 1e-5; minus[index] -= 1e-5
                    XCTAssertEqual((reference(plus) - reference(minus)) / 2e-5, analytic, accuracy: 1e-6)
                    XCTAssertEqual(Double(gradient[flat: index]), analytic, accuracy: 1e-5)
                }
            }
        }
    }

    /// The class term is quality focal loss against σ(teacher): its value matches float64, and a
    /// logit below the teacher's is pushed up, one above it down.
    func testClassTermPullsEachScoreTowardsTheTeachers() throws {
        let loss = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [1, 1, 1])
        let k = configuration.classCount, width = configuration.outputsPerPrior
        let teacher = try values(seed: 5), studentValues = try values(seed: 6)
        let rows = studentValues.shape[0]
        var logits = [Float]()
        for r in 0..<rows { for c in 0..<k { logits.append(studentValues[flat: r * width + c]) } }
        let tape = Tape()
        let x = tape.leaf(try Tensor(shape: [rows, k], values: logits))
        let value = try loss.classDistillation(x, teacher: teacher, weights: nil)
        let gradient = try XCTUnwrap(try tape.backward(value)[x])
        var expected = 0.0
        for r in 0..<rows {
            for c in 0..<k {
                let z = Double(logits[r * k + c]), y = 1 / (1 + exp(-Double(teacher[flat: r * width + c]))), s = 1 / (1 + exp(-z))
                expected += pow(abs(y - s), 2) * -(y * log(s) + (1 - y) * log(1 - s))
                let g = gradient[flat: r * k + c]
                if abs(y - s) > 1e-3 { XCTAssertEqual(g < 0, s < y, "row \(r) class \(c): score \(s), teacher \(y), gradient \(g)") }
            }
        }
        XCTAssertEqual(Double(value.value.scalarValue), expected, accuracy: 1e-4 * expected)
    }

    /// `classMask`: a class outside it is not taught — its kd elements weigh nothing and its
    /// logits get no pull from the teacher — while the taught classes' elements are unchanged.
    func testClassMaskLeavesTheUntaughtClassesToGroundTruth() throws {
        let k = configuration.classCount, width = configuration.outputsPerPrior
        var settings = DetectionLossSettings()
        settings.distillation.classMask = [1, 0, 1]
        let masked = try DetectionLoss(configuration: configuration, settings: settings, classWeights: [1, 2, 1])
        let plain = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [1, 2, 1])
        let teacher = try values(seed: 5), studentValues = try values(seed: 6)
        let rows = studentValues.shape[0]
        var logits = [Float]()
        for r in 0..<rows { for c in 0..<k { logits.append(studentValues[flat: r * width + c]) } }
        func classTerm(_ loss: DetectionLoss, weights: Tensor?) throws -> (value: Float, gradient: Tensor) {
            let tape = Tape()
            let x = tape.leaf(try Tensor(shape: [rows, k], values: logits))
            let value = try loss.classDistillation(x, teacher: teacher, weights: weights)
            return (value.value.scalarValue, try XCTUnwrap(try tape.backward(value)[x]))
        }
        let weights = try Tensor(shape: [rows, k], values: (0..<rows * k).map { Float(1 + $0 % 3) })
        let taught = try classTerm(masked, weights: weights), all = try classTerm(plain, weights: weights)
        var withoutClass1 = weights
        withoutClass1.withUnsafeMutableBufferPointer { p in for r in 0..<rows { p[r * k + 1] = 0 } }
        let reference = try classTerm(plain, weights: withoutClass1)
        XCTAssertEqual(taught.value, reference.value, accuracy: 1e-6 * max(1, abs(reference.value)))
        XCTAssertLessThan(taught.value, all.value)
        for r in 0..<rows {
            XCTAssertEqual(taught.gradient[flat: r * k + 1], 0, "row \(r): the untaught class is pulled")
            for c in [0, 2] { XCTAssertEqual(taught.gradient[flat: r * k + c], all.gradient[flat: r * k + c], accuracy: 1e-7) }
        }
        // Without element weights the mask alone applies; a mask of the wrong length is refused
        // when the loss is made.
        XCTAssertEqual(try classTerm(masked, weights: nil).gradient[flat: 1], 0)
        settings.distillation.classMask = [1, 0]
        XCTAssertThrowsError(try DetectionLoss(configuration: configuration, settings: settings, classWeights: [1, 1, 1])) {
            XCTAssertTrue("\($0)".contains("2 entries for 3 classes"), "\($0)")
        }
    }

    /// The side-distribution term follows the mask too: a positive of an untaught class gets no
    /// LD weight; a mask of all classes changes nothing, a mask of none removes both terms and
    /// leaves the ground-truth terms as they were.
    func testClassMaskRemovesTheUntaughtPositivesFromTheLocalizationTerm() throws {
        var settings = DetectionLossSettings()
        settings.distillation.classMask = [1, 0, 1]
        let masked = try DetectionLoss(configuration: configuration, settings: settings, classWeights: [1, 1, 1])
        XCTAssertEqual(masked.taughtPositiveWeights([0.5, 0.25, 1, 0.75], classes: [0, 1, 2, 1]), [0.5, 0, 1, 0])
        let teacher = try values(seed: 12)
        let plain = try run(try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: [1, 1, 1]), teacher: teacher)
        settings.distillation.classMask = [1, 1, 1]
        let all = try run(try DetectionLoss(configuration: configuration, settings: settings, classWeights: [1, 1, 1]), teacher: teacher)
        XCTAssertEqual(all.terms, plain.terms)
        settings.distillation.classMask = [0, 0, 0]
        let none = try run(try DetectionLoss(configuration: configuration, settings: settings, classWeights: [1, 1, 1]), teacher: teacher)
        XCTAssertEqual(none.terms["kd"] ?? -1, 0, accuracy: 1e-7)
        XCTAssertEqual(none.terms["ld"] ?? -1, 0, accuracy: 1e-7)
        for term in ["cls", "giou", "dfl"] { XCTAssertEqual(none.terms[term], plain.terms[term], term) }
        XCTAssertGreaterThan(plain.terms["ld"] ?? 0, 1e-3)
    }
}
