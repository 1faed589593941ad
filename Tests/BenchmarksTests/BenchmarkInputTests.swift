import Benchmarks
import Data
@testable import Evaluation
import XCTest

final class BenchmarkInputTests: XCTestCase {
    func testGeneratedInputIsDeterministicAndSized() throws {
        let a = BenchmarkInput.generate(images: 30, groundTruthPerImage: 20, detectionsPerImage: 100, classes: 13, seed: 3)
        let b = BenchmarkInput.generate(images: 30, groundTruthPerImage: 20, detectionsPerImage: 100, classes: 13, seed: 3)
        XCTAssertEqual(a.samples, b.samples)
        XCTAssertEqual(a.predictions, b.predictions)
        XCTAssertEqual(a.predictions.count, 30 * 100)
        XCTAssertEqual(a.samples.map(\.annotations.count).reduce(0, +), 30 * 20)
        XCTAssertEqual(a.classNames, Taxonomy.screenRecognition.classes)
        XCTAssertNotEqual(BenchmarkInput.generate(images: 30, seed: 4).predictions, a.predictions)
        // Non-trivial: somewhere between hopeless and perfect.
        let map = try DetectionEvaluator(classNames: a.classNames, samples: a.samples, predictions: a.predictions).evaluate().map50!
        XCTAssertGreaterThan(map, 0.2)
        XCTAssertLessThan(map, 0.95)
        // The results JSON (COCOResultsWriter) reads back through the COCO results reader with the ids COCOWriter assigns.
        let reader = COCOResultsReader(samples: a.samples, cocoImageIDs: a.samples.map(\.cocoImageID), classNames: a.classNames,
                                       cocoCategoryIDs: a.classNames.indices.map { $0 + 1 })
        let set = try reader.parse(try a.cocoResultsJSON(), file: "bench.json", lenient: false)
        // Exact: numbers are parsed correctly rounded (Foundation's JSONSerialization is off by ulps on Linux).
        XCTAssertEqual(set.predictions.count, a.predictions.count)
        XCTAssertTrue(set.predictions == a.predictions, "the printed doubles read back bit for bit")
    }
}
