import XCTest
import Data
@testable import Evaluation

/// COCO's summary (mAP@0.5:0.95, AP50, AP75, AR at each cap) against pycocotools' COCOeval with its
/// default bbox parameters on the committed fixture (Peers/pycocotools/coco_summary.py
/// wrote expected_summary.json). Three cap lists: COCO's [1, 10, 100] (cuts the two 150-box screens,
/// which have 162 detections of one class), [1, 10, 100, 300] (ScreenLab's default cap, cuts nothing)
/// and [1, 5] (cuts every busy screen).
final class COCOSummaryReferenceTests: XCTestCase {
    let tolerance = 1e-9

    func reference(_ key: String) throws -> [String: Any] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "expected_summary", withExtension: "json", subdirectory: "Fixtures/pycocotools"))
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return try XCTUnwrap(all[key] as? [String: Any], "expected_summary.json has no '\(key)'")
    }

    func summary(cocoMaxDetections cap: Int, maxDetections: Int? = nil) throws -> COCOSummary {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "gt", withExtension: "json", subdirectory: "Fixtures/pycocotools"))
        let predictionsURL = try XCTUnwrap(Bundle.module.url(forResource: "predictions", withExtension: "json", subdirectory: "Fixtures/pycocotools"))
        let dataset = try COCOReader.read(url)
        let reader = COCOResultsReader(samples: dataset.samples, cocoImageIDs: dataset.samples.map(\.cocoImageID),
                                       classNames: dataset.classes, cocoCategoryIDs: dataset.cocoCategoryIDs)
        let set = try reader.read(predictionsURL, lenient: false)
        let options = EvaluationOptions(interpolation: .coco101, maxDetections: maxDetections, cocoMaxDetections: cap)
        let evaluator = try DetectionEvaluator(classNames: dataset.classes, samples: dataset.samples, predictions: set.predictions, options: options)
        return try XCTUnwrap(evaluator.evaluate().coco)
    }

    func assertOptional(_ ours: Double?, _ theirs: Any?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        if theirs is NSNull || theirs == nil {
            XCTAssertNil(ours, "\(what): pycocotools gives -1 (no ground truth)", file: file, line: line)
        } else if let value = theirs as? Double, let ours {
            XCTAssertEqual(ours, value, accuracy: tolerance, what, file: file, line: line)
        } else {
            XCTFail("\(what): ours \(String(describing: ours)), pycocotools \(String(describing: theirs))", file: file, line: line)
        }
    }

    func assertEqualsCOCOeval(_ key: String, cap: Int, maxDetections: Int? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try reference(key)
        let ours = try summary(cocoMaxDetections: cap, maxDetections: maxDetections)
        let caps = try XCTUnwrap(expected["max_dets"] as? [Int])
        XCTAssertEqual(ours.caps, caps, file: file, line: line)
        XCTAssertEqual(ours.maxDetections, caps.last, file: file, line: line)
        let classes = try XCTUnwrap(expected["classes"] as? [String: [String: Any]])
        let dataset = try COCOReader.read(try XCTUnwrap(Bundle.module.url(forResource: "gt", withExtension: "json", subdirectory: "Fixtures/pycocotools")))
        XCTAssertEqual(Set(classes.keys), Set(dataset.classes), file: file, line: line)
        for (c, name) in dataset.classes.enumerated() {
            let theirs = try XCTUnwrap(classes[name]), mine = ours.classes[c]
            assertOptional(mine.ap, theirs["ap"], "\(key) \(name) AP@0.5:0.95", file: file, line: line)
            assertOptional(mine.ap50, theirs["ap50"], "\(key) \(name) AP50", file: file, line: line)
            assertOptional(mine.ap75, theirs["ap75"], "\(key) \(name) AP75", file: file, line: line)
            let perIoU = try XCTUnwrap(theirs["ap_per_iou"] as? [Any])
            for (t, value) in perIoU.enumerated() { assertOptional(mine.apPerIoU?[t], value, "\(key) \(name) AP at IoU index \(t)", file: file, line: line) }
            let recall = try XCTUnwrap(theirs["ar"] as? [String: Any])
            for (i, k) in caps.enumerated() { assertOptional(mine.recall?[i], recall[String(k)], "\(key) \(name) AR@\(k)", file: file, line: line) }
        }
        let mean = try XCTUnwrap(expected["mean"] as? [String: Any])
        assertOptional(ours.map, mean["map"], "\(key) mAP@0.5:0.95", file: file, line: line)
        assertOptional(ours.map50, mean["map50"], "\(key) mAP50", file: file, line: line)
        assertOptional(ours.map75, mean["map75"], "\(key) mAP75", file: file, line: line)
        let mar = try XCTUnwrap(mean["mar"] as? [String: Any])
        for (i, k) in caps.enumerated() { assertOptional(ours.mar(i), mar[String(k)], "\(key) mAR@\(k)", file: file, line: line) }
    }

    func testCOCODefaultCapsMatchSummarize() throws {
        try assertEqualsCOCOeval("maxdets_1_10_100", cap: 100)
        // summarize()'s own printed numbers: AP, AP50, AP75, then AR@1, AR@10, AR@100.
        let stats = try XCTUnwrap(try reference("maxdets_1_10_100")["stats"] as? [Double])
        let ours = try summary(cocoMaxDetections: 100)
        let mine = [ours.map, ours.map50, ours.map75, ours.mar(0), ours.mar(1), ours.mar(2)]
        for (i, j) in [0, 1, 2, 6, 7, 8].enumerated() {
            XCTAssertEqual(try XCTUnwrap(mine[i]), stats[j], accuracy: tolerance, "stats[\(j)]")
        }
    }

    func testScreenLabDefaultCap300() throws {
        try assertEqualsCOCOeval("maxdets_1_10_100_300", cap: EvaluationOptions.defaultCOCOMaxDetections)
        // The cap matters on this fixture: 100 cuts detections that 300 keeps.
        XCTAssertNotEqual(try summary(cocoMaxDetections: 100).map, try summary(cocoMaxDetections: 300).map)
    }

    func testSmallCapCutsBeforeMatching() throws {
        try assertEqualsCOCOeval("maxdets_1_5", cap: 5)
        // --max-detections below the summary's cap lowers it: those detections are gone.
        try assertEqualsCOCOeval("maxdets_1_5", cap: 300, maxDetections: 5)
    }

    /// The existing single-threshold coco101 AP and the summary's AP50 are the same computation.
    func testAP50AgreesWithTheSingleThresholdPath() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "expected", withExtension: "json", subdirectory: "Fixtures/pycocotools"))
        let old = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])?["ap_coco101_maxdets_5"] as? [String: Any])
        let ours = try summary(cocoMaxDetections: 5)
        let dataset = try COCOReader.read(try XCTUnwrap(Bundle.module.url(forResource: "gt", withExtension: "json", subdirectory: "Fixtures/pycocotools")))
        for (c, name) in dataset.classes.enumerated() { assertOptional(ours.classes[c].ap50, old[name], "\(name) AP50 at maxDets 5") }
    }

    func testIoUThresholdsAreNumpysLinspace() {
        // repr() of np.linspace(.5, 0.95, 10) in numpy 2.4.6.
        XCTAssertEqual(COCOSummary.iouThresholds, [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.8999999999999999, 0.95])
    }
}
