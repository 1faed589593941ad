import XCTest
import Data
@testable import Evaluation

/// Per-class AP against values computed by pycocotools' COCOeval on the same files
/// (Peers/pycocotools/make_fixture.py). The fixture has exact score ties within
/// and across images, duplicates, class confusions, an equal-IoU trap, a class without ground
/// truth (AP null), a class without detections (AP 0) and two screens with 150 boxes and more
/// than 100 detections of one class.
final class PycocotoolsReferenceTests: XCTestCase {
    func fixture(_ name: String) throws -> URL {
        try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/pycocotools"))
    }

    func expected() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: try fixture("expected"))) as! [String: Any]
    }

    func evaluate(groundTruth: String = "gt", predictions: String, interpolation: Interpolation, maxDetections: Int?) throws -> EvaluationResult {
        let dataset = try COCOReader.read(try fixture(groundTruth))
        let reader = COCOResultsReader(samples: dataset.samples, cocoImageIDs: dataset.samples.map(\.cocoImageID),
                                       classNames: dataset.classes, cocoCategoryIDs: dataset.cocoCategoryIDs)
        let set = try reader.read(try fixture(predictions), lenient: false)
        XCTAssertEqual(set.skippedCount, 0)
        return try DetectionEvaluator(classNames: dataset.classes, samples: dataset.samples, predictions: set.predictions,
                                      options: EvaluationOptions(interpolation: interpolation, maxDetections: maxDetections)).evaluate()
    }

    func assertMatches(_ result: EvaluationResult, _ key: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = try XCTUnwrap(try expected()[key] as? [String: Any], key)
        XCTAssertEqual(Set(reference.keys), Set(result.classes.map(\.name)), file: file, line: line)
        for evaluation in result.classes {
            if reference[evaluation.name] is NSNull {
                XCTAssertNil(evaluation.ap50, "\(key) \(evaluation.name): pycocotools gives -1 (no ground truth)", file: file, line: line)
            } else {
                let value = try XCTUnwrap(reference[evaluation.name] as? Double)
                let ours = try XCTUnwrap(evaluation.ap50, "\(key) \(evaluation.name)")
                XCTAssertEqual(ours, value, accuracy: 1e-9, "\(key) \(evaluation.name)", file: file, line: line)
            }
        }
    }

    func testCoco101MatchesCOCOevalWithLargeMaxDets() throws {
        let result = try evaluate(predictions: "predictions", interpolation: .coco101, maxDetections: nil)
        try assertMatches(result, "ap_coco101_maxdets_10000")
        XCTAssertEqual(result.classes.first { $0.name == "Checkbox (Selected)" }?.ap50, 0, "ground truth, no detections")
        XCTAssertNil(result.classes.first { $0.name == "Slider" }?.ap50, "detections, no ground truth")
        XCTAssertGreaterThan(try expected()["max_detections_per_image_and_class_in_input"] as! Int, 100)
    }

    func testMaxDetectionsMatchesCOCOevalMaxDets() throws {
        try assertMatches(try evaluate(predictions: "predictions", interpolation: .coco101, maxDetections: 5), "ap_coco101_maxdets_5")
    }

    func testAllPointOverTheSameMatches() throws {
        try assertMatches(try evaluate(predictions: "predictions", interpolation: .allPoint, maxDetections: nil), "ap_all_point_from_cocoeval_matches")
    }

    func testFileNamesAndClassNamesAsIdsGiveTheSameResult() throws {
        try assertMatches(try evaluate(predictions: "predictions_by_name", interpolation: .coco101, maxDetections: nil), "ap_coco101_maxdets_10000")
    }

    /// pycocotools ranks score ties across images by sorted image id, whatever the order of the
    /// file's images list; the fixture's ties across images would shift AP if ranked by file order.
    func testShuffledImageOrderGivesTheSameAPAsCOCOeval() throws {
        let shuffled = try COCOReader.read(try fixture("gt_shuffled")).samples.compactMap(\.cocoImageID)
        XCTAssertEqual(shuffled, try expected()["gt_shuffled_image_ids"] as? [Int])
        XCTAssertNotEqual(shuffled, shuffled.sorted(), "the fixture must not list images by ascending id")
        try assertMatches(try evaluate(groundTruth: "gt_shuffled", predictions: "predictions", interpolation: .coco101, maxDetections: nil),
                          "ap_coco101_maxdets_10000_gt_shuffled")
        try assertMatches(try evaluate(groundTruth: "gt_shuffled", predictions: "predictions", interpolation: .coco101, maxDetections: 5),
                          "ap_coco101_maxdets_5_gt_shuffled")
        try assertMatches(try evaluate(groundTruth: "gt_shuffled", predictions: "predictions_by_name", interpolation: .allPoint, maxDetections: nil),
                          "ap_all_point_from_cocoeval_matches_gt_shuffled")
    }
}
