import XCTest
import Data
@testable import Evaluation

/// AP and recall by box size: pycocotools' areaRng rule on hand-worked scenes, the letterbox
/// scale of the UI-size buckets, and COCO's AP_small / AP_medium / AP_large on the committed
/// pycocotools fixture.
final class SizeBreakdownTests: XCTestCase {
    func breakdown(_ samples: [Sample], _ predictions: [PredictedBox], scheme: SizeScheme = .coco, cap: Int = 300) throws -> SizeBreakdown {
        let options = EvaluationOptions(cocoMaxDetections: cap, sizeSchemes: [scheme])
        let result = try DetectionEvaluator(classNames: ["A", "B"], samples: samples, predictions: predictions, options: options).evaluate()
        XCTAssertEqual(result.sizes.count, 1)
        return try XCTUnwrap(result.sizes.first)
    }

    /// A 20×20 box S (small) and a 200×200 box L (large); d1 (0.9) is exactly L, d2 (0.8) a 20×20
    /// box on nothing, d3 (0.7) exactly S. Small: d1 takes the ignored L and is ignored, d2 is a
    /// false positive of small size, d3 a hit → ranks [miss, hit], AP 0.5, recall 1. Large: d1 is
    /// a hit, d2 is unmatched and not large (ignored), d3 takes the ignored S → AP 1.
    func testBoxesOfOtherSizesAndTheirDetectionsAreIgnored() throws {
        let s = try breakdown([sample("s", [(0, box(0, 0, 20, 20)), (0, box(500, 500, 200, 200))])], [
            prediction(0, 0, box(500, 500, 200, 200), 0.9), prediction(0, 0, box(300, 0, 20, 20), 0.8), prediction(0, 0, box(0, 0, 20, 20), 0.7),
        ])
        XCTAssertEqual(s.scheme.buckets.map(\.name), ["small", "medium", "large"])
        let small = s.scores[0][0], medium = s.scores[1][0], large = s.scores[2][0]
        XCTAssertEqual(small.groundTruth, 1)
        XCTAssertEqual(try XCTUnwrap(small.ap50), 0.5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(small.ap50to95), 0.5, accuracy: 1e-12)
        XCTAssertEqual(small.recall50, 1)
        XCTAssertEqual(medium, SizeBucketScores(groundTruth: 0, ap50: nil, ap50to95: nil, recall50: nil))
        XCTAssertEqual(large.groundTruth, 1)
        XCTAssertEqual(try XCTUnwrap(large.ap50), 1, accuracy: 1e-12)
        XCTAssertNil(s.scores[0][1].ap50, "class B has no boxes")
        XCTAssertNil(s.meanAP50(bucket: 1), "no class has a medium box")
        XCTAssertEqual(try XCTUnwrap(s.meanAP50(bucket: 2)), 1, accuracy: 1e-12)
        XCTAssertEqual(s.groundTruth(bucket: 0), 1)
    }

    /// A counted box wins over an ignored one of higher IoU (pycocotools sorts ignored boxes last
    /// and stops at them once it has a match): d (38×38) has IoU 0.9025 with the 40×40 medium box
    /// M and 0.623 with the 30×30 small box S; on the small bucket it is S's hit, on the medium M's.
    func testACountedBoxIsPreferredToAnIgnoredOne() throws {
        let s = try breakdown([sample("s", [(0, box(0, 0, 30, 30)), (0, box(0, 0, 40, 40))])], [prediction(0, 0, box(0, 0, 38, 38), 0.9)])
        XCTAssertEqual(s.scores[0][0].recall50, 1)
        XCTAssertEqual(try XCTUnwrap(s.scores[0][0].ap50), 1, accuracy: 1e-12)
        XCTAssertEqual(s.scores[1][0].recall50, 1)
        XCTAssertEqual(s.scores[1][0].groundTruth, 1)
    }

    /// UI sizes are measured after the letterbox: a 1000×2000 screen into 256×512 scales by 0.256,
    /// so a 100×100 box is 25.6 px (16–32) and a 20×20 one 5.12 px (< 8).
    func testUISizesUseTheLetterboxScale() throws {
        var screen = sample("s", [(0, box(0, 0, 100, 100)), (0, box(500, 500, 20, 20))])
        screen.width = 1000; screen.height = 2000
        let s = try breakdown([screen], [prediction(0, 0, box(0, 0, 100, 100), 0.9)], scheme: .input(width: 256, height: 512))
        XCTAssertEqual(s.scheme.buckets.map(\.name), ["< 8 px", "8–16 px", "16–32 px", "32–64 px", "64–128 px", "≥ 128 px"])
        XCTAssertEqual(s.scores.map { $0[0].groundTruth }, [1, 0, 1, 0, 0, 0])
        XCTAssertEqual(s.scores[0][0].recall50, 0)
        XCTAssertEqual(s.scores[2][0].recall50, 1)
        XCTAssertEqual(SizeScheme.input(width: 256, height: 512).areaScale(imageWidth: 1000, imageHeight: 2000), 0.256 * 0.256, accuracy: 1e-15)
        XCTAssertEqual(SizeScheme.coco.areaScale(imageWidth: 1000, imageHeight: 2000), 1)
    }

    /// COCOeval.summarize()'s AP_small, AP_medium and AP_large (maxDets 100) on the fixture.
    func testCOCOBucketsMatchPycocotools() throws {
        let fixtures = "Fixtures/pycocotools"
        let summary = try XCTUnwrap(Bundle.module.url(forResource: "expected_summary", withExtension: "json", subdirectory: fixtures))
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: Any])
        let stats = try XCTUnwrap((all["maxdets_1_10_100"] as? [String: Any])?["stats"] as? [Double])
        let dataset = try COCOReader.read(try XCTUnwrap(Bundle.module.url(forResource: "gt", withExtension: "json", subdirectory: fixtures)))
        let reader = COCOResultsReader(samples: dataset.samples, cocoImageIDs: dataset.samples.map(\.cocoImageID),
                                       classNames: dataset.classes, cocoCategoryIDs: dataset.cocoCategoryIDs)
        let set = try reader.read(try XCTUnwrap(Bundle.module.url(forResource: "predictions", withExtension: "json", subdirectory: fixtures)), lenient: false)
        let options = EvaluationOptions(interpolation: .coco101, cocoMaxDetections: 100, sizeSchemes: [.coco])
        let sizes = try XCTUnwrap(try DetectionEvaluator(classNames: dataset.classes, samples: dataset.samples, predictions: set.predictions,
                                                         options: options).evaluate().sizes.first)
        for (b, name) in ["AP_small", "AP_medium", "AP_large"].enumerated() {
            XCTAssertEqual(try XCTUnwrap(sizes.meanAP50to95(bucket: b)), stats[3 + b], accuracy: 1e-9, name)
        }
    }

    /// The breakdown reaches metrics.json (and reads back) and report.md.
    func testReportCarriesTheBreakdown() throws {
        let dataset = twoScreens()
        let job = EvaluationJob(dataset: dataset, data: .init(dataset: "/data", split: "val"), predictionsPath: "p.json",
                                options: EvaluationOptions(sizeSchemes: [.coco, .input(width: 256, height: 512)]))
        let outcome = try job.run(predictions: PredictionSet(predictions: twoScreensPredictions(), entries: 7, skipped: [:], notes: []))
        let sizes = try XCTUnwrap(outcome.report.sizes)
        XCTAssertEqual(sizes.map(\.scheme.space), [.source, .input])
        let decoded = try JSONDecoder().decode(EvaluationReport.self, from: try outcome.report.jsonData())
        XCTAssertEqual(decoded.sizes, outcome.report.sizes)
        let markdown = ReportMarkdown.render(outcome)
        XCTAssertTrue(markdown.contains("## By box size"))
        XCTAssertTrue(markdown.contains("| UI type | small | medium | large |"))
        XCTAssertNil(try EvaluationJob(dataset: dataset, data: .init(dataset: "/data", split: "val"), predictionsPath: "p.json",
                                       options: EvaluationOptions()).run(predictions: PredictionSet(predictions: [], entries: 0, skipped: [:], notes: [])).report.sizes)
    }

    /// compare puts the per-size means of its reports side by side with deltas (only buckets with boxes).
    func testCompareShowsTheSizeBreakdownWithDeltas() throws {
        func report(_ predictions: [PredictedBox]) throws -> EvaluationReport {
            try EvaluationJob(dataset: twoScreens(), data: .init(dataset: "/data", split: "val"), predictionsPath: "p.json",
                              options: EvaluationOptions(sizeSchemes: [.coco]))
                .run(predictions: PredictionSet(predictions: predictions, entries: predictions.count, skipped: [:], notes: [])).report
        }
        let a = try report(twoScreensPredictions())
        let b = try report(twoScreensPredictions().filter { $0.score != 0.6 })  // without Text's false positive
        let comparison = ReportComparison(labels: ["a", "b"], reports: [a, b])
        let tables = comparison.sizeTables()
        XCTAssertEqual(tables.count, 1)
        XCTAssertEqual(tables[0].rows.map { $0.cells[0] }, ["small (5)"], "medium and large have no boxes")
        XCTAssertEqual(tables[0].rows[0].signs.last, 1, "b gains")
        XCTAssertTrue(comparison.markdown().contains("## Mean AP@0.5 by size: COCO sizes (source pixels)"))
        XCTAssertTrue(comparison.terminal(color: false).contains("small (5)"))
        XCTAssertEqual(ReportComparison(labels: ["a", "b"], reports: [a, try report([])].map { var r = $0; r.sizes = nil; return r }).sizeTables().count, 0,
                       "no table unless every report has the scheme")
    }
}
