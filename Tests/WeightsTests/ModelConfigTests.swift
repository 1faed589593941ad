import Foundation
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

    func testTyposAndBadValuesNameTheKeyAndLine() {
        let cases: [(String, String, String)] = [
            (yaml.replacingOccurrences(of: "classes:", with: "clases:"), "clases", "unknown key"),
            (yaml.replacingOccurrences(of: "width: 64", with: "widht: 64"), "input.widht", "unknown key"),
            (yaml.replacingOccurrences(of: "height: 32", with: "height: tall"), "input.height", "expected an integer"),
            (yaml.replacingOccurrences(of: "0.224, ", with: ""), "normalization.mean", "has 3 values"),
            (yaml.replacingOccurrences(of: "[Button, Text, Icon]", with: "[Button, Text, Text]"), "classes[2]", "listed twice"),
        ]
        for (text, key, reason) in cases {
            XCTAssertThrowsError(try ModelConfig.parse(text, file: "tiny.yaml"), key) { error in
                guard case let .invalidConfig(file, errorKey, errorReason)? = error as? WeightsError else { return XCTFail("\(error)") }
                XCTAssertEqual(file, "tiny.yaml")
                XCTAssertEqual(errorKey, key == "normalization.mean" ? "normalization.std" : key)
                XCTAssertTrue(errorReason.contains(key == "normalization.mean" ? "has 2 values" : reason), "\(key): \(errorReason)")
            }
        }
        XCTAssertThrowsError(try ModelConfig.parse(yaml.replacingOccurrences(of: "classes:", with: "clases:"), file: "tiny.yaml")) { error in
            XCTAssertTrue("\(error)".contains("(line 8)"), "\(error)")
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
