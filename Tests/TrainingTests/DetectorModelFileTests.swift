import Foundation
import Weights
import XCTest
@testable import Training

/// Training model files (`Configs/models/ui-detector*.yaml`) go through Support's strict reader
/// like experiment files: values its old walker dropped without a word are errors now.
final class DetectorModelFileTests: XCTestCase {
    let good = """
        architecture:
          name: ui-detector
          options: {width_multiplier: 0.5, fpn_channels: 64}
        input: {width: 256, height: 512}
        normalization:
          mean: [0.485, 0.456, 0.406]
          std: [0.229, 0.224, 0.225]
        """

    func load(_ text: String) throws -> DetectorModelFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try DetectorModelFile.load(contentsOf: url)
    }

    func testShippedFilesAndDefaultsLoad() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for name in ["ui-detector", "ui-detector-ssd"] {
            XCTAssertNoThrow(try DetectorModelFile.load(contentsOf: root.appendingPathComponent("Configs/models/\(name).yaml")), name)
        }
        let model = try load(good + "\nclasses: [Text, Icon]\n")
        XCTAssertEqual(model.options, ["width_multiplier": "0.5", "fpn_channels": "64"])
        XCTAssertEqual(model.classes, ["Text", "Icon"])
        XCTAssertEqual(try load("architecture: {name: ui-detector}\nnormalization: null\n").normalization.std, [1, 1, 1],
                       "a null section takes its defaults, as in experiment files")
    }

    /// One reader for both uses (`ModelFile`): the same mistake reads the same for training and
    /// for weights; only presence and defaults differ (training leaves classes to the data).
    func testTrainingAndWeightsShareTheReader() throws {
        let typo = good.replacingOccurrences(of: "options:", with: "optons:") + "\nclasses: [Text]\n"
        var messages: [String] = []
        for use in [ModelFile.Use.training, .weights] {
            XCTAssertThrowsError(try ModelFile.parse(typo, file: "m.yaml", for: use)) { messages.append("\($0)") }
        }
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages.first, messages.last)
        XCTAssertTrue(messages[0].contains("m.yaml:3 (architecture.optons): unknown key — did you mean 'options'?"), messages[0])
        XCTAssertNil(try ModelFile.parse(good, file: "m.yaml", for: .training).classes)
        XCTAssertThrowsError(try ModelFile.parse(good, file: "m.yaml", for: .weights)) { XCTAssertTrue("\($0)".contains("(classes): missing"), "\($0)") }
    }

    func testMistakesNameTheLineAndKey() {
        let cases: [(String, String)] = [
            (good.replacingOccurrences(of: "[0.485, 0.456, 0.406]", with: "[0.485, x, 0.456, 0.406]"), ":6 (normalization.mean[1]): expected a number, found 'x'"),
            (good.replacingOccurrences(of: "fpn_channels: 64}", with: "fpn_channels: 64, fpn_channels: 32}"), ":3 (architecture.options.fpn_channels): appears twice"),
            (good.replacingOccurrences(of: "height: 512", with: "hieght: 512"), ":4 (input.hieght): unknown key — did you mean 'height'?"),
            (good + "\nclasses: [Text, [Icon]]\n", ":8 (classes[1]): expected a name, found a list"),
            (good + "\nclasses: [Text, Text]\n", ":8 (classes[1]): 'Text' is listed twice (also classes[0]); keep one"),
            (good.replacingOccurrences(of: "ui-detector", with: "reference-detector"), ":2 (architecture.name): 'reference-detector' cannot be trained"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try load(text), expected) { XCTAssertTrue("\($0)".contains(expected), "\($0)") }
        }
    }
}
