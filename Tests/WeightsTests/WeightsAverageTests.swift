import Foundation
import Tensor
import XCTest
@testable import Weights

/// `WeightsFile.average`: the element-wise mean of one model's fine-tunings, computed by hand;
/// files that are not the same model refused naming the one that differs.
final class WeightsAverageTests: XCTestCase {
    private func model(_ weight: [Float], mean: [Float], runID: String, classes: [String] = Sample.classes) -> WeightsFile {
        var header = Sample.header(thresholds: Sample.thresholds, training: TrainingInfo(seed: 1, epochs: 8))
        header.classes = classes
        header.provenance.runID = runID
        return WeightsFile(header: header, tensors: [
            ("conv.weight", try! Tensor(shape: [2, 2], values: weight)),
            ("bn.running_mean", try! Tensor(shape: [2], values: mean)),
        ])
    }

    func testTheMeanOfEachValueWithThresholdsDroppedAndTheSourcesNamed() throws {
        let a = model([1, -2, 0.5, 3], mean: [0, 10], runID: "run-a")
        let b = model([3, -4, 0.25, 3], mean: [1, 20], runID: "run-b")
        let c = model([2, 0, 0.75, 3], mean: [2, 30], runID: "run-c")
        let averaged = try WeightsFile.average([("a.slw", a), ("b.slw", b), ("c.slw", c)], created: "2026-11-29T01:00:00Z")
        XCTAssertEqual(averaged.tensor(named: "conv.weight")?.values, [2, -2, 0.5, 3])
        XCTAssertEqual(averaged.tensor(named: "bn.running_mean")?.values, [1, 20], "batch-norm statistics average with the rest")
        // 0.1 three times: summed in Double, rounded once, so the mean of equal values is that value.
        let tenths = try WeightsFile.average((0..<3).map { ("\($0).slw", model([0.1, 0.1, 0.1, 0.1], mean: [0.1, 0.1], runID: "r\($0)")) }, created: "x")
        XCTAssertEqual(tenths.tensor(named: "conv.weight")?.values, [0.1, 0.1, 0.1, 0.1])
        XCTAssertNil(averaged.header.thresholds, "thresholds are picked again for the new model")
        XCTAssertNil(averaged.header.training)
        XCTAssertEqual(averaged.header.provenance.experiment, "average of run-a, run-b, run-c")
        XCTAssertEqual(averaged.header.provenance.dataset, "vins-ui", "what all inputs share is kept")
        XCTAssertNil(averaged.header.provenance.valMAP50, "the inputs' scores are not the new model's")
        XCTAssertEqual(averaged.header.classes, Sample.classes)
    }

    func testFilesOfAnotherModelAreRefusedNamingTheFile() {
        let a = model([1, 2, 3, 4], mean: [0, 0], runID: "a")
        func refused(_ other: WeightsFile, _ says: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try WeightsFile.average([("a.slw", a), ("other.slw", other)], created: "x"), file: file, line: line) { error in
                XCTAssertTrue("\(error)".contains("other.slw") && "\(error)".contains(says), "\(error)", file: file, line: line)
            }
        }
        refused(model([1, 2, 3, 4], mean: [0, 0], runID: "b", classes: ["Button", "Text"]), "classes")
        var renamed = a
        renamed.tensors[1].name = "bn.running_var"
        refused(renamed, "bn.running_mean")
        var reshaped = a
        reshaped.tensors[0].tensor = try! Tensor(shape: [4], values: [1, 2, 3, 4])
        refused(reshaped, "conv.weight")
        refused(model([1, .nan, 3, 4], mean: [0, 0], runID: "n"), "conv.weight")
        var otherArchitecture = a
        otherArchitecture.header.architecture.options["fpn_channels"] = "16"
        refused(otherArchitecture, "architecture")
        XCTAssertThrowsError(try WeightsFile.average([("a.slw", a)], created: "x")) { error in
            XCTAssertTrue("\(error)".contains("at least two"), "\(error)")
        }
    }
}
