import Data
import Detection
import Foundation
import TestSupport
import Weights
import XCTest

/// `screenlab evaluate-order` on a few synthetic screens, checked for what must hold whatever the
/// heuristics do (the metric itself: `Tests/AccessibilityTests/OrderEvaluationTests`).
final class EvaluateOrderCommandTests: XCTestCase {
    /// The real binary on 8 synthetic screens: every screen scored, each produced order a
    /// permutation of its true elements, steps fewer than elements.
    func testEvaluateOrderOnSyntheticScreens() throws {
        let out = try TestFolders.make("evaluate-order").appendingPathComponent("out")
        let (status, output) = try ScreenlabProcess.run(["evaluate-order", "--synthetic", "8", "--seed", "3", "--out", out.path, "--worst", "2"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("perfect order:"), output)
        let rows = try String(contentsOf: out.appendingPathComponent("order.tsv"), encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.count, 8)
        for row in rows {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let trueElements = try XCTUnwrap(Int(fields[1])), insertions = try XCTUnwrap(Int(fields[3])), reproduced = try XCTUnwrap(Int(fields[4]))
            XCTAssertGreaterThan(trueElements, 0, String(row))
            XCTAssertLessThan(insertions, trueElements, String(row))
            XCTAssertLessThanOrEqual(reproduced, trueElements, String(row))
            XCTAssertEqual(fields[5].split(separator: ",").compactMap { Int($0) }.sorted(), Array(1...trueElements), String(row))
        }
    }

    /// Alerts on half the screens: read first and grouped on their own layer, they cost the
    /// order nothing on true boxes (before alerts were modal, 61 % of rare-controls screens
    /// with 12 % alerts were in perfect order; now 98 %, as without alerts).
    func testScreensWithAlertsAreInOrder() throws {
        let out = try TestFolders.make("evaluate-order-alerts").appendingPathComponent("out")
        let (status, output) = try ScreenlabProcess.run(["evaluate-order", "--synthetic", "80", "--seed", "5", "--class-mix", "rare-controls",
                                                         "--dialog-probability", "0.5", "--out", out.path, "--worst", "0"])
        XCTAssertEqual(status, 0, output)
        let rows = try String(contentsOf: out.appendingPathComponent("order.tsv"), encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.count, 80)
        let perfect = rows.filter { $0.split(separator: "\t", omittingEmptySubsequences: false)[3] == "0" }.count
        XCTAssertGreaterThanOrEqual(perfect, 72, "at least 90 % of screens in perfect order: \(output)")
    }

    /// `evaluate-order --weights`: the view built on a detector's output for the rendered screens
    /// (a tiny untrained model: arbitrary boxes, so only the plumbing is checked), and a model for
    /// other classes refused by name.
    func testEvaluateOrderOnADetectorsOutput() throws {
        let base = try TestFolders.make("evaluate-order-weights")
        func write(classes: [String], to name: String) throws -> URL {
            let url = base.appendingPathComponent(name)
            let options = ["width_multiplier": "0.25", "fpn_channels": "8", "head_convolutions": "1"]
            let model = try UIDetector(configuration: UIDetectorConfiguration(options: options, classCount: classes.count, inputHeight: 64, inputWidth: 32), seed: 2)
            let header = WeightsHeader(architecture: ModelArchitecture(name: "ui-detector", options: options), input: InputSpec(width: 32, height: 64),
                                       normalization: InputNormalization(mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]), classes: classes,
                                       provenance: Provenance(created: "2026-11-24T00:00:00Z"))
            try WeightsFile(header: header, tensors: model.stateTensors()).write(to: url)
            return url
        }
        let tiny = try write(classes: Taxonomy.screenRecognition.classes, to: "tiny.slw")
        let out = base.appendingPathComponent("out")
        let (status, output) = try ScreenlabProcess.run(["evaluate-order", "--synthetic", "3", "--weights", tiny.path, "--confidence", "0.3",
                                                         "--out", out.path, "--worst", "1"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("on the detections of \(tiny.path)"), output)
        let rows = try String(contentsOf: out.appendingPathComponent("order.tsv"), encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.count, 3)

        let other = try write(classes: ["Icon", "Text"], to: "other.slw")
        let refused = try ScreenlabProcess.run(["evaluate-order", "--synthetic", "3", "--weights", other.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.output.contains("detects Icon, Text, not the synthetic screens' classes"), refused.output)
        let usage = try ScreenlabProcess.run(["evaluate-order", "--synthetic", "3", "--confidence", "0.5"])
        XCTAssertEqual(usage.status, 64, usage.output)
    }
}
