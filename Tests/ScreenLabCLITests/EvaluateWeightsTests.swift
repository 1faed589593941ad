import Detection
import Foundation
import Imaging
import Support
import TestSupport
import Weights
import XCTest

/// `screenlab evaluate --weights`: predicts and scores in one step, and writes the detector's
/// predictions with the report — all or nothing, so a failure leaves no half report behind.
final class EvaluateWeightsTests: XCTestCase {
    /// A 3-image YOLO folder with two classes, and a tiny untrained model for them.
    func fixture(classes: [String] = ["Icon", "Text"]) throws -> (data: URL, weights: URL, base: URL) {
        let base = try TestFolders.make("evaluate-weights")
        let data = base.appendingPathComponent("screens")
        for folder in ["images", "labels"] { try FileManager.default.createDirectory(at: data.appendingPathComponent(folder), withIntermediateDirectories: true) }
        try (classes.joined(separator: "\n") + "\n").write(to: data.appendingPathComponent("classes.txt"), atomically: true, encoding: .utf8)
        var random = SeededRandom(seed: 9)
        for name in ["a", "b", "c"] {
            let pixels = (0..<(40 * 80 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            try ImageIO.writePNG(RGBImage(width: 40, height: 80, pixels: pixels), to: data.appendingPathComponent("images/\(name).png"))
            try "0 0.5 0.25 0.4 0.2\n1 0.5 0.75 0.8 0.1\n".write(to: data.appendingPathComponent("labels/\(name).txt"), atomically: true, encoding: .utf8)
        }
        let options = ["width_multiplier": "0.25", "fpn_channels": "8", "head_convolutions": "1"]
        let model = try UIDetector(configuration: UIDetectorConfiguration(options: options, classCount: 2, inputHeight: 64, inputWidth: 32), seed: 4)
        let header = WeightsHeader(architecture: ModelArchitecture(name: "ui-detector", options: options), input: InputSpec(width: 32, height: 64),
                                   normalization: InputNormalization(mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]), classes: classes,
                                   provenance: Provenance(created: "2026-11-24T00:00:00Z"))
        let weights = base.appendingPathComponent("tiny.slw")
        try WeightsFile(header: header, tensors: model.stateTensors()).write(to: weights)
        return (data, weights, base)
    }

    func testPredictsAndScoresWithThePredictionsBesideTheReport() throws {
        let (data, weights, base) = try fixture()
        let out = base.appendingPathComponent("report")
        let (status, output) = try ScreenlabProcess.run(["evaluate", "--data", data.path, "--weights", weights.path, "--out", out.path])
        XCTAssertEqual(status, 0, output)
        for file in ["predictions.json", "metrics.json", "report.md"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file): \(output)")
        }
        let predictions = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("predictions.json"))) as? [[String: Any]])
        XCTAssertGreaterThan(predictions.count, 0, "an untrained model at the scoring threshold still boxes something")
        let metrics = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("metrics.json"))) as? [String: Any])
        XCTAssertNotNil(metrics["map50"], "\(metrics.keys.sorted())")
    }

    /// AP is scored on class-wise NMS alone; `predict` also removes one of two near-identical boxes
    /// of similar classes (Icon/Picture) for the screen reader. Both can be set; the flags need a model.
    func testScoringKeepsCrossClassDuplicatesThatPredictRemoves() throws {
        let (data, weights, base) = try fixture(classes: ["Icon", "Picture"])
        func evaluated(_ flags: [String]) throws -> Int {
            let out = base.appendingPathComponent("report-\(flags.joined(separator: "_"))")
            let (status, output) = try ScreenlabProcess.run(["evaluate", "--data", data.path, "--weights", weights.path, "--score-threshold", "0",
                                                             "--out", out.path] + flags)
            XCTAssertEqual(status, 0, output)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("predictions.json"))) as? [Any]).count
        }
        func predicted(_ flags: [String]) throws -> Int {
            let out = base.appendingPathComponent("predict-\(flags.joined(separator: "_"))")
            let (status, output) = try ScreenlabProcess.run(["predict", "--weights", weights.path, data.appendingPathComponent("images").path,
                                                             "--confidence", "0", "--out", out.path] + flags)
            XCTAssertEqual(status, 0, output)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("predictions.json"))) as? [Any]).count
        }
        // Every candidate kept (score ≥ 0): an untrained model's boxes pile up on the same spots.
        let scored = try evaluated([])
        XCTAssertEqual(scored, try evaluated(["--cross-class-iou", "1"]), "evaluate's default removes no cross-class duplicates")
        XCTAssertLessThan(try evaluated(["--cross-class-iou", "0"]), scored, "an untrained model boxes one spot as both classes")
        XCTAssertEqual(try predicted(["--cross-class-iou", "1"]), scored, "the same detections as evaluate's at the same settings")
        XCTAssertEqual(try predicted([]), try evaluated(["--cross-class-iou", "0.8"]), "predict removes duplicates at 0.8 by default")
        XCTAssertGreaterThan(try evaluated(["--nms-iou", "1"]), scored, "class-wise NMS that removes nothing")

        let (refused, message) = try ScreenlabProcess.run(["evaluate", "--data", data.path, "--predictions", base.appendingPathComponent("x.json").path,
                                                           "--nms-iou", "0.5", "--out", base.appendingPathComponent("never").path])
        XCTAssertEqual(refused, 64, message)
        XCTAssertTrue(message.contains("need --weights"), message)
        let (outOfRange, rangeMessage) = try ScreenlabProcess.run(["predict", "--weights", weights.path, data.path, "--cross-class-iou", "1.5",
                                                                  "--out", base.appendingPathComponent("never").path])
        XCTAssertEqual(outOfRange, 64, rangeMessage)
        XCTAssertTrue(rangeMessage.contains("--cross-class-iou must lie in 0...1, got 1.5"), rangeMessage)
    }

    /// A thresholds file for other classes fails after the detector ran: --out must not exist.
    func testAFailureAfterPredictingLeavesNothingInTheOutputFolder() throws {
        let (data, weights, base) = try fixture()
        let thresholds = base.appendingPathComponent("other.yaml")
        try "strategy: max-f1\niou_threshold: 0.5\npicked_on: {dataset: d, split: val}\nclasses:\n  - name: Button\n    confidence: 0.3\n"
            .write(to: thresholds, atomically: true, encoding: .utf8)
        let out = base.appendingPathComponent("report")
        let (status, output) = try ScreenlabProcess.run(["evaluate", "--data", data.path, "--weights", weights.path, "--thresholds", thresholds.path,
                                                         "--out", out.path])
        XCTAssertNotEqual(status, 0, output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing half-written: \(output)")
    }
    /// Cuts `names`' PNGs after their headers (signature and IHDR read, no pixel data), as a
    /// copy interrupted mid-file leaves them: the dataset loads, decoding fails.
    func truncate(_ names: [String], in data: URL) throws {
        for name in names {
            let file = data.appendingPathComponent("images/\(name).png")
            try Data(try Data(contentsOf: file).prefix(60)).write(to: file)
        }
    }

    func testScreensNoneOfWhichDecodeAreAnErrorNotAReportOfZero() throws {
        let (data, weights, base) = try fixture()
        try truncate(["a", "b", "c"], in: data)
        let out = base.appendingPathComponent("report")
        let (status, output) = try ScreenlabProcess.run(["evaluate", "--data", data.path, "--weights", weights.path, "--out", out.path])
        XCTAssertNotEqual(status, 0, output)
        XCTAssertTrue(output.contains("none of the 3 image(s)"), output)
        XCTAssertTrue(output.contains("a.png"), "the broken files are named: \(output)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing half-written: \(output)")
    }

    func testScreensThatDoNotDecodeAreNamedInTheReport() throws {
        let (data, weights, base) = try fixture()
        try truncate(["b"], in: data)
        let out = base.appendingPathComponent("report")
        let (status, output) = try ScreenlabProcess.run(["evaluate", "--data", data.path, "--weights", weights.path, "--out", out.path])
        XCTAssertEqual(status, 0, output)
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        XCTAssertTrue(report.contains("1 of 3 images could not be decoded"), report)
        XCTAssertTrue(report.contains("b.png"), report)
    }
}
