import XCTest
import Data
@testable import Evaluation

final class ReportTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-report-tests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func dataset() -> Dataset { twoScreens() }

    /// With one skipped entry, as a --lenient read reports it.
    func predictions() -> PredictionSet {
        let list = twoScreensPredictions()
        return PredictionSet(predictions: list, entries: list.count + 1, skipped: ["unknown image": 1], notes: [])
    }

    func job(split: String, thresholds: ThresholdFile? = nil) -> EvaluationJob {
        EvaluationJob(dataset: dataset(), data: .init(dataset: "/data/screens.yaml", split: split), predictionsPath: "preds.json",
                      options: EvaluationOptions(), thresholds: thresholds, thresholdsPath: thresholds == nil ? nil : "t.yaml")
    }

    func testMetricsJSONHasTheDocumentedShape() throws {
        let outcome = try job(split: "val").run(predictions: predictions())
        let written = try ReportFiles.write(outcome, to: folder)
        XCTAssertTrue(written.contains("report.html") && written.contains("curves/text.csv") && written.contains("plots/pr-icon.svg"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("metrics.json"))) as! [String: Any]
        XCTAssertEqual(json["iou_threshold"] as? Double, 0.5)
        XCTAssertEqual(json["interpolation"] as? String, "all-point")
        XCTAssertEqual(json["images"] as? Int, 2)
        for key in ["map50", "map_center", "weighted_map50", "weighted_map_center"] { XCTAssertNotNil(json[key] as? Double, key) }
        let classes = json["classes"] as! [[String: Any]]
        XCTAssertEqual(classes.map { $0["name"] as? String }, ["Text", "Icon", "Slider"])
        XCTAssertEqual(classes[0]["ground_truth"] as? Int, 3)
        XCTAssertEqual(classes[0]["detections"] as? Int, 4)
        // Text ranks: TP .9, TP .8, FP .6, TP .4 → AP = 1/3 + 1/3 + (1/3)(3/4).
        XCTAssertEqual(classes[0]["ap50"] as! Double, (1 + 1 + 0.75) / 3, accuracy: 1e-12)
        XCTAssertTrue(classes[2]["ap50"] is NSNull, "no ground truth → null, not 0 and not missing")
        XCTAssertTrue(classes[2]["ap_center"] is NSNull)
        XCTAssertNil(classes[0]["threshold"], "P/R/F1 only with thresholds")
        XCTAssertEqual(json["map50"] as! Double, ((1 + 1 + 0.75) / 3 + 0.5) / 2, accuracy: 1e-12, "Slider is left out of the mean")
        XCTAssertEqual(json["weighted_map50"] as! Double, ((1 + 1 + 0.75) / 3 * 3 + 0.5 * 2) / 5, accuracy: 1e-12)
        XCTAssertEqual((json["predictions_skipped"] as? [String: Int]), ["unknown image": 1])
        let confusion = json["confusion"] as! [String: Any]
        XCTAssertEqual(confusion["labels"] as? [String], ["Text", "Icon", "Slider", "background"])
        let counts = confusion["counts"] as! [[Int]]
        XCTAssertEqual(counts.map { $0.reduce(0, +) }.prefix(3), [3, 2, 0], "row sums are ground-truth counts")

        let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        XCTAssertTrue(markdown.contains("| Text | 91.7% |"), markdown)
        XCTAssertTrue(markdown.contains("| **Weighted mean** |"))
        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertGreaterThanOrEqual(html.components(separatedBy: "<svg ").count - 1, 5)
        XCTAssertFalse(html.contains("<script") || html.contains("src=") || html.contains("href="), "self-contained")
        let csv = try String(contentsOf: folder.appendingPathComponent("curves/text.csv"), encoding: .utf8)
        XCTAssertEqual(csv.split(separator: "\n").count, 5, "header + one line per distinct score")
        // The report reads back.
        XCTAssertEqual(try EvaluationReport.load(folder.path).report, outcome.report)
        // A hand-edited report with two classes of one name is refused, naming both (compare read the first for both).
        var edited = json
        var twice = classes
        twice[1]["name"] = "Text"
        edited["classes"] = twice
        try JSONSerialization.data(withJSONObject: edited).write(to: folder.appendingPathComponent("metrics.json"))
        XCTAssertThrowsError(try EvaluationReport.load(folder.path)) { error in
            XCTAssertTrue("\(error)".contains("classes[0] and classes[1] are both named 'Text'"), "\(error)")
        }
    }

    func testPickOnValReportOnTestKeepsTheSplitsApart() throws {
        let valFolder = folder.appendingPathComponent("val")
        try ReportFiles.write(try job(split: "val").run(predictions: predictions()), to: valFolder)
        let (file, warnings) = try ThresholdFile.pick(fromReport: valFolder.path, strategy: .maxF1)
        XCTAssertEqual(file.pickedOn, .init(dataset: "/data/screens.yaml", split: "val"))
        // Text max F1: conf .8 → P 1, R 2/3, F1 .8 (conf .4 also has F1 .857: P 3/4, R 1).
        let text = file.entry(named: "Text")!
        XCTAssertEqual(text.confidence, 0.4)
        XCTAssertEqual(text.f1!, 2 * 0.75 / 1.75, accuracy: 1e-12)
        XCTAssertNil(file.entry(named: "Slider")!.confidence, "no ground truth → no threshold")
        XCTAssertTrue(warnings.contains { $0.contains("Slider") })
        let path = folder.appendingPathComponent("thresholds.yaml")
        try file.yaml().write(to: path, atomically: true, encoding: .utf8)
        let loaded = try ThresholdFile.load(path)
        XCTAssertEqual(loaded, file, "YAML round trip")

        let test = try job(split: "test", thresholds: loaded).run(predictions: predictions())
        XCTAssertEqual(test.report.thresholds?.pickedOn.split, "val")
        XCTAssertEqual(test.report.thresholds?.reportedOn.split, "test")
        XCTAssertEqual(test.report.thresholds?.sameSplit, false)
        XCTAssertEqual(test.report.classes[0].threshold, 0.4)
        XCTAssertEqual(test.report.classes[0].precision!, 0.75, accuracy: 1e-12)
        XCTAssertFalse(test.warnings.contains { $0.contains("picked on the split") })
        XCTAssertEqual(test.report.confusion.thresholds[0], 0.4)
        // Text at .4 keeps all 4 detections on this data; Slider had no ground truth on val: no threshold.
        XCTAssertEqual(test.report.classes[0].keptDetections, 4)
        XCTAssertEqual(test.report.confusion.thresholds[2], nil)
        XCTAssertTrue(test.warnings.contains { $0.contains("'Slider' has no threshold") && $0.contains("no ground truth on /data/screens.yaml split 'val'") },
                      "the reason names the pick split, not the reported one: \(test.warnings)")
        let confusion = try XCTUnwrap((try JSONSerialization.jsonObject(with: test.report.jsonData()) as? [String: Any])?["confusion"] as? [String: Any])
        let thresholds = try XCTUnwrap(confusion["thresholds"] as? [Any])
        XCTAssertEqual(thresholds[0] as? Double, 0.4)
        XCTAssertTrue(thresholds[2] is NSNull, "no threshold is null in metrics.json, not 1e300")
        let testFolder = folder.appendingPathComponent("test")
        try ReportFiles.write(test, to: testFolder)
        XCTAssertEqual(try EvaluationReport.load(testFolder.path).report, test.report, "null thresholds read back")
        let markdown = try String(contentsOf: testFolder.appendingPathComponent("report.md"), encoding: .utf8)
        XCTAssertTrue(markdown.contains("| Text | 0.400 | 0.750 | 1.000 | 0.857 | 4 / 4 |"), markdown)
        XCTAssertTrue(markdown.contains("7 scored, 1 skipped (unknown image: 1)"), markdown)
        let html = try String(contentsOf: testFolder.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("7 scored, 1 skipped (unknown image: 1)") && html.contains("<td>4 / 4</td>"), "report.html shows skipped and kept counts")
        let same = try job(split: "val", thresholds: loaded).run(predictions: predictions())
        XCTAssertTrue(same.warnings.contains { $0.contains("picked on the split they are reported on") })
        let json = String(decoding: try test.report.jsonData(), as: UTF8.self)
        XCTAssertTrue(json.contains("\"picked_on\"") && json.contains("\"reported_on\""))
    }

    /// picked_on / reported_on are absolute, so the same split is recognised from any working
    /// folder, and a config counts as the data folder it points to.
    func testSameSplitDoesNotDependOnTheWorkingFolderAndSeesThroughConfigs() throws {
        let data = folder.appendingPathComponent("screens")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try "path: screens\n".write(to: folder.appendingPathComponent("screens.yaml"), atomically: true, encoding: .utf8)
        let saved = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(saved) }
        typealias Reference = EvaluationReport.SplitReference
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
        let viaConfig = Reference(resolving: DatasetReference(path: "screens.yaml", split: "val"))
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(data.path))
        let viaFolder = Reference(resolving: DatasetReference(path: ".", split: "val"))
        let testSplit = Reference(resolving: DatasetReference(path: "../screens.yaml", split: "test"))
        let resolvedData = data.resolvingSymlinksInPath().path
        XCTAssertEqual(viaConfig.dataset, resolvedData)
        XCTAssertEqual(viaConfig.config, folder.appendingPathComponent("screens.yaml").resolvingSymlinksInPath().path)
        XCTAssertEqual(viaFolder, Reference(dataset: resolvedData, split: "val"))
        XCTAssertTrue(viaConfig.isSameSplit(as: viaFolder), "a config and its folder are the same data")
        XCTAssertFalse(testSplit.isSameSplit(as: viaFolder))
        XCTAssertTrue(Reference(dataset: "../screens.yaml", split: "val").isSameSplit(as: viaFolder), "older relative paths: from the current folder")

        // End to end: picked through the config, reported on the folder (from another working folder).
        var file = ThresholdFile(strategy: "max-f1", iouThreshold: 0.5, pickedOn: viaConfig, report: "",
                                 classes: ["Text", "Icon", "Slider"].map { .init(name: $0, confidence: 0.5, precision: 1, recall: 1, f1: 1, fallback: false, note: nil) })
        let yaml = folder.appendingPathComponent("thresholds.yaml")
        try file.yaml().write(to: yaml, atomically: true, encoding: .utf8)
        file = try ThresholdFile.load(yaml)
        XCTAssertEqual(file.pickedOn, viaConfig, "YAML keeps dataset, config and split")
        var reported = job(split: "val", thresholds: file)
        reported.data = viaFolder
        let outcome = try reported.run(predictions: predictions())
        XCTAssertEqual(outcome.report.thresholds?.sameSplit, true)
        XCTAssertTrue(outcome.warnings.contains { $0.contains("picked on the split they are reported on") }, "\(outcome.warnings)")
    }

    func testThresholdFileErrorsNameTheKeyOrClass() throws {
        let path = folder.appendingPathComponent("bad.yaml")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "strategy: max-f1\niou_threshold: 0.5\npicked_on: {dataset: d, split: val}\nclasses:\n  - name: Text\n    confidnce: 0.3\n"
            .write(to: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ThresholdFile.load(path)) { XCTAssertTrue("\($0)".contains("confidnce"), "\($0)") }
        let partial = ThresholdFile(strategy: "max-f1", iouThreshold: 0.5, pickedOn: .init(dataset: "d", split: "val"), report: "",
                                    classes: [.init(name: "Text", confidence: 0.5, precision: nil, recall: nil, f1: nil, fallback: false, note: nil)])
        XCTAssertThrowsError(try job(split: "test", thresholds: partial).run(predictions: predictions())) {
            XCTAssertTrue("\($0)".contains("'Icon'"), "\($0)")
        }
    }

    /// `thresholds merge`: the listed classes come from the other file, each marked with where
    /// and how it was picked; the rest stay; the result reads back; unknown classes are refused
    /// naming the file.
    func testMergeTakesTheListedClassesWithWhereTheyWerePicked() throws {
        func entry(_ name: String, _ confidence: Double?) -> ThresholdFile.Entry {
            .init(name: name, confidence: confidence, precision: confidence.map { _ in 0.9 }, recall: confidence.map { _ in 0.8 },
                  f1: confidence.map { _ in 0.85 }, fallback: false, note: confidence == nil ? "no ground truth" : nil)
        }
        let real = ThresholdFile(strategy: "max-f1", iouThreshold: 0.5, pickedOn: .init(dataset: "/data/vins", split: "val"), report: "",
                                 classes: [entry("Slider", nil), entry("Text", 0.4)])
        let synthetic = ThresholdFile(strategy: "precision:0.9", iouThreshold: 0.5, pickedOn: .init(dataset: "/data/synth", split: nil),
                                      report: "", classes: [entry("Slider", 0.6), entry("Text", 0.2)])
        let merged = try real.merging(synthetic, classes: ["Slider"], file: "real.yaml", otherFile: "synthetic.yaml")
        XCTAssertEqual(merged.entry(named: "Text"), real.entry(named: "Text"))
        let slider = try XCTUnwrap(merged.entry(named: "Slider"))
        XCTAssertEqual(slider.confidence, 0.6)
        XCTAssertEqual(slider.pickedOn, "/data/synth (all images)")
        XCTAssertEqual(slider.strategy, "precision:0.9")
        XCTAssertEqual(try ThresholdFile.parse(merged.yaml(), file: "m.yaml"), merged)
        XCTAssertThrowsError(try real.merging(synthetic, classes: ["Toggle"], file: "real.yaml", otherFile: "synthetic.yaml")) {
            XCTAssertTrue("\($0)".contains("real.yaml") && "\($0)".contains("'Toggle' is not one of its classes"), "\($0)")
        }
        let fewer = ThresholdFile(strategy: "max-f1", iouThreshold: 0.5, pickedOn: .init(dataset: "/d", split: nil), report: "", classes: [entry("Text", 0.3)])
        XCTAssertThrowsError(try real.merging(fewer, classes: ["Slider"], file: "real.yaml", otherFile: "few.yaml")) {
            XCTAssertTrue("\($0)".contains("few.yaml"), "\($0)")
        }
        XCTAssertThrowsError(try real.merging(synthetic, classes: [], file: "real.yaml", otherFile: "synthetic.yaml"))
    }

    func testCompareDeltasColoursAndConfusionDifference() throws {
        let a = try job(split: "val").run(predictions: predictions()).report
        var better = predictions()
        better.predictions.removeAll { $0.score == 0.6 }  // drop Text's false positive
        let b = try job(split: "val").run(predictions: better).report
        let comparison = ReportComparison(labels: ["runs/a", "runs/b"], reports: [a, b])
        let plain = comparison.terminal(color: false)
        XCTAssertFalse(plain.contains("\u{1B}["))
        // Text: 91.7% → 100%: +8.3 points.
        XCTAssertTrue(plain.contains("+8.3"), plain)
        XCTAssertTrue(comparison.terminal(color: true).contains("\u{1B}[32m"))
        XCTAssertTrue(plain.contains("background → Text: -1"), plain)
        let markdown = comparison.markdown()
        XCTAssertTrue(markdown.contains("| Text | 91.7% | 100.0% | +8.3 |"), markdown)
        XCTAssertTrue(comparison.html().contains("class=\"pos\""))
    }

    func testCompareShowsAndWarnsAboutDifferentConfusionThresholds() throws {
        let a = try job(split: "val").run(predictions: predictions()).report  // --confidence 0.5
        var lower = job(split: "val")
        lower.confidence = 0.3
        let b = try lower.run(predictions: predictions()).report
        let file = ThresholdFile(strategy: "max-f1", iouThreshold: 0.5, pickedOn: .init(dataset: "/data/screens.yaml", split: "val"), report: "", classes: [
            .init(name: "Text", confidence: 0.4, precision: 0.75, recall: 1, f1: 0.857, fallback: false, note: nil),
            .init(name: "Icon", confidence: nil, precision: nil, recall: nil, f1: nil, fallback: false, note: "no detection matches"),
            .init(name: "Slider", confidence: 0.5, precision: nil, recall: nil, f1: nil, fallback: false, note: nil),
        ])
        let c = try job(split: "test", thresholds: file).run(predictions: predictions()).report
        XCTAssertTrue(ReportComparison(labels: ["a", "a2"], reports: [a, a]).warnings.isEmpty)
        let comparison = ReportComparison(labels: ["runs/a", "runs/b", "runs/c"], reports: [a, b, c])
        XCTAssertTrue(comparison.warnings.contains { $0.contains("different confidence thresholds") }, "\(comparison.warnings)")
        XCTAssertEqual(comparison.thresholdRows(), [
            ["Text", "0.500", "0.300", "0.400 (P 0.75, R 1.00)"],
            ["Icon", "0.500", "0.300", "—"],
            ["Slider", "0.500", "0.300", "0.500 (P —, R —)"],
        ], "no 'nan' for a class without ground truth")
        let plain = comparison.terminal(color: false)
        let block = plain.components(separatedBy: "\n").drop { !$0.hasPrefix("Thresholds") }.dropFirst().prefix(4)
        XCTAssertEqual(block.first, "  Class       A      B                       C", plain)
        XCTAssertEqual(Set(block.map(\.count)).count, 1, "aligned rows, also where a value is —:\n\(block.joined(separator: "\n"))")
        XCTAssertTrue(block.contains("  Icon    0.500  0.300                       —"), plain)
        XCTAssertTrue(comparison.markdown().contains("| Icon | 0.500 | 0.300 | — |"))
        XCTAssertTrue(comparison.html().contains("different confidence thresholds") && comparison.html().contains("<td>0.300</td>"))
    }
}
