import XCTest
import Data
@testable import Evaluation

/// COCO's summary in metrics.json, report.md/html, the terminal table and compare (ReportTests'
/// two screens: every detection has IoU 1 or 0, so AP is the same at every threshold).
final class COCOReportTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-coco-report-tests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func report(cap: Int = EvaluationOptions.defaultCOCOMaxDetections) throws -> EvaluationOutcome {
        let dataset = twoScreens(), list = twoScreensPredictions()
        let job = EvaluationJob(dataset: dataset, data: .init(dataset: "/data/screens.yaml", split: "val"), predictionsPath: "preds.json",
                                options: EvaluationOptions(cocoMaxDetections: cap))
        return try job.run(predictions: PredictionSet(predictions: list, entries: list.count, skipped: [:], notes: []))
    }

    func testMetricsJSONHasTheSummaryAndItsCap() throws {
        let outcome = try report()
        try ReportFiles.write(outcome, to: folder)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("metrics.json"))) as! [String: Any]
        let coco = try XCTUnwrap(json["coco"] as? [String: Any])
        XCTAssertEqual(coco["max_detections_per_image_and_class"] as? Int, 300)
        XCTAssertEqual(coco["caps"] as? [Int], [1, 10, 100, 300])
        XCTAssertEqual((coco["iou_thresholds"] as? [Double])?.count, 10)
        // Text ranks TP, TP, FP, TP (3 boxes); Icon TP, FP (2 boxes).
        let text = AveragePrecision.coco101([true, true, false, true], groundTruthCount: 3)
        let icon = AveragePrecision.coco101([true, false], groundTruthCount: 2)
        XCTAssertEqual(coco["map50_95"] as! Double, (text + icon) / 2, accuracy: 1e-12)
        XCTAssertEqual(coco["map75"] as! Double, (text + icon) / 2, accuracy: 1e-12)
        // AR@1: each image's best detection: Text a .9 TP, b .8 TP (2 of 3); Icon a .7 TP, b .3 FP (1 of 2).
        let mar = try XCTUnwrap(coco["mar"] as? [String: Double])
        XCTAssertEqual(mar["1"]!, (2.0 / 3 + 0.5) / 2, accuracy: 1e-12)
        XCTAssertEqual(mar["300"]!, (1 + 0.5) / 2, accuracy: 1e-12)
        let classes = json["classes"] as! [[String: Any]]
        let textCOCO = try XCTUnwrap(classes[0]["coco"] as? [String: Any])
        XCTAssertEqual(textCOCO["ap50_95"] as! Double, text, accuracy: 1e-12)
        XCTAssertEqual((textCOCO["ap_per_iou"] as? [Double])?.count, 10)
        XCTAssertEqual((textCOCO["ar"] as? [String: Double])?["10"], 1)
        XCTAssertTrue(classes[2]["coco"] is NSNull, "Slider has no ground truth (pycocotools: -1)")
        // Existing fields are unchanged and the report reads back.
        XCTAssertEqual(json["map50"] as! Double, ((1 + 1 + 0.75) / 3 + 0.5) / 2, accuracy: 1e-12)
        XCTAssertEqual(try EvaluationReport.load(folder.path).report, outcome.report)

        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        XCTAssertTrue(markdown.contains("## COCO summary (mAP@0.5:0.95, AR@300)"), markdown)
        XCTAssertTrue(markdown.contains("at most 300 detections per image and class"), markdown)
        XCTAssertTrue(markdown.contains("| UI type | AP@0.5:0.95 | AP50 | AP75 | AR@1 | AR@10 | AR@100 | AR@300 |"), markdown)
        XCTAssertTrue(markdown.contains("| Slider | — |"), markdown)
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<th>AR@300</th>"))
        let terminal = ReportFiles.summary(outcome)
        XCTAssertTrue(terminal.contains("at most 300 detections per image and class"), terminal)
        XCTAssertTrue(terminal.contains("AR@300"), terminal)
    }

    func testCOCOsOwnCapIsNamed() throws {
        let outcome = try report(cap: 100)
        XCTAssertEqual(outcome.report.coco?.caps, [1, 10, 100])
        XCTAssertTrue(ReportFiles.summary(outcome).contains("at most 100 detections per image and class"))
    }

    /// metrics.json written before the summary has no `coco` keys: it still loads and compares.
    func testReportsWithoutTheSummaryStillLoadAndCompare() throws {
        let outcome = try report()
        try ReportFiles.write(outcome, to: folder)
        let url = folder.appendingPathComponent("metrics.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        json["coco"] = nil
        json["classes"] = (json["classes"] as! [[String: Any]]).map { var c = $0; c["coco"] = nil; return c }
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        let old = try EvaluationReport.load(folder.path).report
        XCTAssertNil(old.coco)
        XCTAssertNil(old.classes[0].coco)
        let comparison = ReportComparison(labels: ["old", "new"], reports: [old, outcome.report])
        let markdown = comparison.markdown()
        XCTAssertTrue(markdown.contains("AP50:95 A"), markdown)
        XCTAssertTrue(markdown.contains("at 300 detections per image and class"), markdown)
        XCTAssertTrue(comparison.terminal(color: false).contains("AP50:95 B"))
        // Only old reports: no AP50:95 column.
        XCTAssertFalse(ReportComparison(labels: ["a", "b"], reports: [old, old]).markdown().contains("AP50:95"))
    }

    func testCompareWarnsWhenCapsDiffer() throws {
        let comparison = ReportComparison(labels: ["a", "b"], reports: [try report(cap: 100).report, try report().report])
        XCTAssertTrue(comparison.warnings.contains { $0.contains("different detection caps (100 vs 300") }, "\(comparison.warnings)")
    }
}
