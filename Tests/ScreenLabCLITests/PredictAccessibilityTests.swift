import Data
import Detection
import Foundation
import Imaging
import TestSupport
import Weights
import XCTest
@testable import Accessibility

/// `screenlab predict --accessibility` end to end: the real binary on a small untrained
/// detector (random weights give hundreds of arbitrary boxes of every class, a harsh input for
/// the heuristics) and two screenshots.
final class PredictAccessibilityTests: XCTestCase {
    func testWritesAViewPerScreenThatAccountsForEveryDetection() throws {
        let base = try TestFolders.make("accessibility")
        let weights = base.appendingPathComponent("tiny.slw")
        let options = ["width_multiplier": "0.25", "fpn_channels": "8", "head_convolutions": "1"]
        let model = try UIDetector(configuration: UIDetectorConfiguration(options: options, classCount: Taxonomy.screenRecognition.classes.count, inputHeight: 64, inputWidth: 32), seed: 4)
        let header = WeightsHeader(architecture: ModelArchitecture(name: "ui-detector", options: options), input: InputSpec(width: 32, height: 64),
                                   normalization: InputNormalization(mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]), classes: Taxonomy.screenRecognition.classes,
                                   provenance: Provenance(created: "2026-11-24T00:00:00Z"))
        try WeightsFile(header: header, tensors: model.stateTensors()).write(to: weights)
        var random = SystemRandomNumberGenerator()
        for name in ["home", "settings"] {
            let pixels = (0..<(90 * 160 * 3)).map { _ in UInt8.random(in: 0...255, using: &random) }
            try ImageIO.writePNG(RGBImage(width: 90, height: 160, pixels: pixels), to: base.appendingPathComponent("\(name).png"))
        }
        let out = base.appendingPathComponent("out")
        let (status, output) = try ScreenlabProcess.run(["predict", "--weights", weights.path, "--confidence", "0", "--accessibility",
                                                         base.appendingPathComponent("home.png").path, base.appendingPathComponent("settings.png").path, "--out", out.path])
        XCTAssertEqual(status, 0, output)

        let predictions = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("predictions.json"))) as? [[String: Any]])
        for name in ["home", "settings"] {
            let view = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("accessibility/\(name).json"))) as? [String: Any])
            let elements = try XCTUnwrap(view["elements"] as? [[String: Any]])
            let members = elements.flatMap { $0["members"] as? [[String: Any]] ?? [] }
            let detected = predictions.filter { $0["image_id"] as? String == name }
            XCTAssertGreaterThan(detected.count, 0, "confidence 0 keeps boxes")
            XCTAssertEqual(view["detections"] as? Int, detected.count)
            XCTAssertEqual(members.count, detected.count, "\(name): every detection in exactly one element")
            XCTAssertEqual(elements.map { $0["order"] as? Int ?? 0 }, Array(1..<(elements.count + 1)))
            XCTAssertEqual(view["width"] as? Int, 90)
            let picture = try ImageIO.read(out.appendingPathComponent("accessibility/\(name).png"))
            XCTAssertEqual(picture.width, 90)
            XCTAssertEqual(picture.height, 160)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: base.appendingPathComponent("accessibility").path), "writes stay in --out")
    }

    /// The shipped model on the README's sample screen (Reports/samples/vins-screen.jpg): the
    /// elements read from the navigation bar down to the tab bar, whose items come last, left to
    /// right — as the tab buttons of §5.5 ("tab 1 of 5" …) when the model finds each item's icon
    /// or title, else grouped in the bar's container (the model shipped before 2026-11-27).
    func testTheShippedModelsViewOfTheSampleScreenReadsTopDownAndEndsWithTheTabBar() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = try TestFolders.make("accessibility-sample")
        let (status, output) = try ScreenlabProcess.run(["predict", "--weights", root.appendingPathComponent("Reports/models/ui-detector-vins.slw").path,
                                                         "--accessibility", root.appendingPathComponent("Reports/samples/vins-screen.jpg").path, "--out", out.path])
        XCTAssertEqual(status, 0, output)
        let view = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("accessibility/vins-screen.json"))) as? [String: Any])
        let elements = try XCTUnwrap(view["elements"] as? [[String: Any]])
        let boxes = elements.map { ($0["bbox"] as? [Double]) ?? [] }
        XCTAssertTrue(boxes.allSatisfy { $0.count == 4 })
        let detections = try XCTUnwrap(view["detections"] as? Int)
        XCTAssertEqual(elements.flatMap { $0["members"] as? [[String: Any]] ?? [] }.count, detections)
        XCTAssertLessThan(elements.count, detections, "something was grouped")
        // The navigation bar (title, two icons) comes first: as three elements, or grouped into
        // its container (the model shipped on 2026-11-27 evening finds that container).
        let leading = elements.prefix { (($0["bbox"] as? [Double]) ?? [0, 999])[1] < 50 }
        let leadingDetections = leading.reduce(0) { $0 + max(1, ($1["members"] as? [[String: Any]])?.count ?? 1) }
        XCTAssertGreaterThanOrEqual(leadingDetections, 3, "the navigation bar (title, two icons) comes first: \(boxes.prefix(3))")
        let tops = boxes.map { $0[1] }
        XCTAssertTrue(zip(tops, tops.dropFirst()).allSatisfy { $1 > $0 - 30 }, "top down, within a row's height: \(boxes)")
        let bar = try XCTUnwrap(elements.last)
        let barBox = try XCTUnwrap(bar["bbox"] as? [Double])
        XCTAssertGreaterThan(barBox[1], 580, "the tab bar comes last: \(barBox)")
        let tabButtons = elements.filter { $0["kind"] as? String == "Tab Button" }
        let items: [[Double]]
        if tabButtons.count >= 4 {
            XCTAssertEqual(elements.suffix(tabButtons.count).map { $0["kind"] as? String }, Array(repeating: "Tab Button", count: tabButtons.count),
                           "the tab buttons are the last elements")
            XCTAssertEqual(tabButtons.last?["label_hint"] as? String, "tab \(tabButtons.count) of \(tabButtons.count), not selected")
            items = tabButtons.compactMap { $0["bbox"] as? [Double] }
        } else {
            items = (bar["members"] as? [[String: Any]] ?? []).compactMap { $0["bbox"] as? [Double] }.filter { $0[2] < 100 }
        }
        XCTAssertGreaterThanOrEqual(items.count, 4, "the bar's items: \(elements.suffix(6))")
        XCTAssertTrue(items.allSatisfy { $0[1] > 580 }, "every item in the bar: \(items)")
        XCTAssertEqual(items.map { $0[0] }, items.map { $0[0] }.sorted(), "read left to right")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("accessibility/vins-screen.png").path))
    }
}
