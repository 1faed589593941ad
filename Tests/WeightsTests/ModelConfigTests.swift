import Foundation
import Support
import Tensor
import XCTest
@testable import Weights

final class ModelConfigTests: XCTestCase {
    let yaml = """
    architecture:
      name: tiny-detector
      options: {width_multiplier: 0.5, fpn_channels: 8}
    input: {width: 64, height: 32}
    normalization:
      mean: [0.485, 0.456, 0.406]
      std: [0.229, 0.224, 0.225]
    classes: [Button, Text, Icon]
    """

    func testParsesConfigMatchingTheSampleHeader() throws {
        let config = try ModelConfig.parse(yaml, file: "tiny.yaml")
        XCTAssertEqual(config.architecture, Sample.header().architecture)
        XCTAssertEqual(config.input, InputSpec(width: 64, height: 32, channels: 3))
        XCTAssertEqual(config.classes, Sample.classes)
        XCTAssertNoThrow(try config.check(Sample.header(), weightsFile: "w.slw", configFile: "tiny.yaml"))
        var other = Sample.header()
        other.classes = ["Button", "Icon", "Text"]
        XCTAssertThrowsError(try config.check(other, weightsFile: "w.slw", configFile: "tiny.yaml")) { error in
            guard case .invalidConfig("tiny.yaml", "classes", let reason)? = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("w.slw has classes [\"Button\", \"Icon\", \"Text\"]"), reason)
        }
    }

    /// Model configs are read by Support's strict reader, so their mistakes read like every
    /// other config's: file, line, dotted key, and the closest known key for a typo.
    func testTyposAndBadValuesNameTheKeyAndLine() {
        let cases: [(String, String)] = [
            (yaml.replacingOccurrences(of: "classes:", with: "clases:"),
             "tiny.yaml:8 (clases): unknown key — did you mean 'classes'? (known here: architecture, classes, input, normalization)"),
            (yaml.replacingOccurrences(of: "width: 64", with: "widht: 64"),
             "tiny.yaml:4 (input.widht): unknown key — did you mean 'width'? (known here: channels, height, width)"),
            (yaml.replacingOccurrences(of: "height: 32", with: "height: tall"), "tiny.yaml:4 (input.height): expected an integer, found 'tall'"),
            (yaml.replacingOccurrences(of: "0.224, ", with: ""), "tiny.yaml:7 (normalization.std): has 2 values but the input has 3 channels"),
            (yaml.replacingOccurrences(of: "[Button, Text, Icon]", with: "[Button, Text, Text]"),
             "tiny.yaml:8 (classes[2]): 'Text' is listed twice (also classes[1]); keep one"),
            (yaml.replacingOccurrences(of: "fpn_channels: 8", with: "fpn_channels: 9000"),
             "tiny.yaml:3 (architecture.options.fpn_channels): 9000 is beyond 4096; sizes this large are a typo (the reference model uses 64 FPN channels)"),
            (yaml.replacingOccurrences(of: "input: {width: 64, height: 32}", with: "input: ~"), "tiny.yaml:4 (input): expected a mapping of key: value, found '~'"),
            ("", "tiny.yaml: empty model config; it needs architecture, input, normalization and classes"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ModelConfig.parse(text, file: "tiny.yaml"), expected) { error in
                XCTAssertEqual(error as? YAMLError != nil ? "\(error)" : "not a YAMLError: \(error)", expected)
            }
        }
    }

    func testReferenceDetectorConfigLoads() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Configs/models/reference-detector.yaml")
        let config = try ModelConfig.load(contentsOf: url)
        XCTAssertEqual(config.architecture.name, "reference-detector")
        XCTAssertEqual(config.input, InputSpec(width: 256, height: 512, channels: 3))
        XCTAssertEqual(config.classes.count, 13)
        XCTAssertEqual(config.classes.first, "Checkbox (Selected)")
    }

    func testImportUsesConfigHeaderOrExportedHeaderAndModelOrder() throws {
        let config = try ModelConfig.parse(yaml, file: "tiny.yaml")
        let plain = SafetensorsFile(tensors: Sample.tensors().reversed(), metadata: ["format": "pt"])
        let expected = Sample.tensors().map { (name: $0.name, shape: $0.tensor.shape) }
        let imported = try WeightsFile.importing(plain, file: "in.safetensors", config: config, configFile: "tiny.yaml",
                                                 expected: expected, created: "2026-11-22T09:00:00Z")
        XCTAssertEqual(imported.header, config.header(provenance: Provenance(created: "2026-11-22T09:00:00Z")))
        XCTAssertEqual(imported.tensors.map(\.name), expected.map(\.name), "model order, not file order")

        let exported = Sample.file(header: Sample.header(thresholds: Sample.thresholds)).safetensors()
        let back = try WeightsFile.importing(exported, file: "in.safetensors", config: config, configFile: "tiny.yaml",
                                             expected: nil, created: "ignored")
        XCTAssertEqual(back.header, Sample.header(thresholds: Sample.thresholds), "export → import keeps provenance and thresholds")

        var wrongShapes = expected
        wrongShapes[2].shape = [13]
        XCTAssertThrowsError(try WeightsFile.importing(plain, file: "in.safetensors", config: config, configFile: "tiny.yaml",
                                                       expected: wrongShapes, created: "x")) { error in
            XCTAssertEqual(error as? WeightsError, .shapeMismatch(file: "in.safetensors", tensor: "head.cls.bias", expected: [13], found: [3]))
        }
    }
}
