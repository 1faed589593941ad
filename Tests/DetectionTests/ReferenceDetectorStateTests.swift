import Detection
import XCTest

/// The tensors `weights import` expects for a `reference-detector` model config.
final class ReferenceDetectorStateTests: XCTestCase {
    static let referenceOptions = ["backbone": "mobilenet_v1", "width_multiplier": "0.5", "fpn_channels": "64",
                                   "anchors_per_cell": "3"]

    func testReferenceOptionsGiveTheReferenceModel() throws {
        let state = try XCTUnwrap(try ReferenceDetector.expectedState(architecture: "reference-detector",
                                                                      options: Self.referenceOptions, classCount: 13))
        let reference = try ReferenceDetector(configuration: .reference).stateShapes()
        XCTAssertEqual(state.map(\.name), reference.map(\.name))
        XCTAssertEqual(state.map(\.shape), reference.map(\.shape))
        let shapes = Dictionary(uniqueKeysWithValues: state.map { ($0.name, $0.shape) })
        // Analytic: head outputs anchors · (classes + 4) = 3 · 17; width 0.5 makes the last stage 512 wide.
        XCTAssertEqual(shapes["head.conv2.weight"], [51, 64, 3, 3])
        XCTAssertEqual(shapes["fpn.lateral.2.weight"], [64, 512, 1, 1])
        // Options left out take the reference values.
        let defaults = try XCTUnwrap(try ReferenceDetector.expectedState(architecture: "reference-detector", options: [:],
                                                                         classCount: 13))
        XCTAssertEqual(defaults.map(\.shape), reference.map(\.shape))
    }

    func testOptionsChangeTheShapes() throws {
        let state = try XCTUnwrap(try ReferenceDetector.expectedState(
            architecture: "reference-detector",
            options: ["width_multiplier": "1.0", "fpn_channels": "32", "anchors_per_cell": "2"], classCount: 5))
        let shapes = Dictionary(uniqueKeysWithValues: state.map { ($0.name, $0.shape) })
        XCTAssertEqual(shapes["head.conv2.weight"], [18, 32, 3, 3], "2 anchors · (5 classes + 4)")
        XCTAssertEqual(shapes["head.conv2.bias"], [18])
        XCTAssertEqual(shapes["fpn.lateral.2.weight"], [32, 1024, 1, 1], "width 1.0: the last stage has 1024 channels")
        XCTAssertEqual(shapes["backbone.stem.weight"], [32, 3, 3, 3], "stem: 32 · 1.0 channels, 3×3 on RGB")
    }

    /// `weights import` checks a ui-detector file against the model too: a transposed stem or an
    /// extra tensor imported with exit 0, and predict then refused the file.
    func testTheUIDetectorsStateIsItsModels() throws {
        let options = ["width_multiplier": "0.25", "fpn_channels": "16", "head_convolutions": "1", "distribution_bins": "8"]
        let state = try XCTUnwrap(try ExpectedModelState.shapes(architecture: "ui-detector", options: options, classCount: 13,
                                                                inputHeight: 128, inputWidth: 64))
        let model = try UIDetector(configuration: try UIDetectorConfiguration(options: options, classCount: 13, inputHeight: 128, inputWidth: 64))
        XCTAssertEqual(state.map(\.name), model.stateShapes().map(\.name))
        XCTAssertEqual(state.map(\.shape), model.stateShapes().map(\.shape))
        let stem = try XCTUnwrap(state.first { $0.name.hasSuffix("weight") })
        XCTAssertEqual(stem.shape.count, 4)
        XCTAssertEqual(stem.shape[1], 3, "the first convolution reads RGB")
        XCTAssertThrowsError(try ExpectedModelState.shapes(architecture: "ui-detector", options: ["fpn_channels": "0"], classCount: 13,
                                                           inputHeight: 128, inputWidth: 64))
        XCTAssertNil(try ExpectedModelState.shapes(architecture: "yolo-nano", options: [:], classCount: 13, inputHeight: 128, inputWidth: 64))
    }

    func testOtherArchitecturesHaveNoModel() throws {
        XCTAssertNil(try ReferenceDetector.expectedState(architecture: "yolo-nano", options: ["depth": "3"], classCount: 13))
    }

    func testBadOptionsNameTheKeyAndWhatIsExpected() {
        func assertFails(_ options: [String: String], _ expected: ReferenceDetectorOptionError, line: UInt = #line) {
            XCTAssertThrowsError(try ReferenceDetector.expectedState(architecture: "reference-detector", options: options,
                                                                     classCount: 13), line: line) { error in
                XCTAssertEqual(error as? ReferenceDetectorOptionError, expected, line: line)
            }
        }
        assertFails(["backbone": "resnet18"], .invalidValue(key: "backbone", value: "resnet18",
                                                            expected: "mobilenet_v1 (the only backbone of reference-detector)"))
        assertFails(["width_multiplier": "0.01"], .invalidValue(
            key: "width_multiplier", value: "0.01", expected: "a number in [0.03125, 4] (at least one channel in the narrowest layer)"))
        assertFails(["fpn_channels": "-8"], .invalidValue(key: "fpn_channels", value: "-8", expected: "a positive integer"))
        assertFails(["anchors_per_cell": "three"], .invalidValue(key: "anchors_per_cell", value: "three", expected: "a positive integer"))
        assertFails(["fpn_channel": "64"], .unknownOption(key: "fpn_channel",
                                                          known: ["anchors_per_cell", "backbone", "fpn_channels", "width_multiplier"]))
        XCTAssertEqual("\(ReferenceDetectorOptionError.unknownOption(key: "x", known: ["a", "b"]))",
                       "architecture.options.x is not an option of reference-detector (known: a, b)")
    }
}
