import Foundation
import Tensor
import XCTest
@testable import Weights

/// `weights export w.slw --safetensors w.slw` overwrote its own source (issue 15).
final class HostileWriteTests: XCTestCase {
    func testExportOrWriteOverTheInputIsRefusedAndTheInputKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weights-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("w.slw")
        try Sample.file().write(to: input)
        let before = try Data(contentsOf: input)
        let weights = try WeightsFile.read(contentsOf: input)
        XCTAssertThrowsError(try weights.safetensors().write(to: input, notReplacing: [input])) { error in
            XCTAssertTrue("\(error)".contains("is the input"), "\(error)")
        }
        XCTAssertThrowsError(try weights.write(to: folder.appendingPathComponent("./w.slw"), notReplacing: [input]))
        XCTAssertEqual(try Data(contentsOf: input), before)
        XCTAssertThrowsError(try weights.write(to: URL(fileURLWithPath: "/dev/null"))) { error in
            XCTAssertTrue("\(error)".contains("character device"), "\(error)")
        }
    }
}

/// Issue 15, hostile weights inputs: no hang, no huge allocation, no NaN accepted.
final class HostileInputTests: XCTestCase {
    let config = """
    architecture:
      name: reference-detector
      options: {backbone: mobilenet_v1, width_multiplier: 0.5, fpn_channels: 64, anchors_per_cell: 3}
    input: {width: 256, height: 512}
    normalization: {mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225]}
    classes: [Button, Text, Icon]
    """

    func testModelSizesAreBoundedBeforeAnythingIsAllocated() throws {
        XCTAssertNoThrow(try ModelConfig.parse(config, file: "m.yaml"))
        for (value, expected) in [("99999999999", "beyond 4096"), ("4000", "GB of parameters"), ("1e400", "finite")] {
            // Parsing builds no model: the size check is what refuses it (no clock needed to show that).
            XCTAssertThrowsError(try ModelConfig.parse(config.replacingOccurrences(of: "fpn_channels: 64", with: "fpn_channels: \(value)"),
                                                       file: "m.yaml")) { error in
                XCTAssertTrue("\(error)".contains("fpn_channels") || "\(error)".contains("options"), "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    func testARepeatedKeyInAModelConfigIsAnError() {
        let repeated = config.replacingOccurrences(of: "fpn_channels: 64,", with: "fpn_channels: 64, fpn_channels: 32,")
        XCTAssertThrowsError(try ModelConfig.parse(repeated, file: "m.yaml")) { XCTAssertTrue("\($0)".contains("appears twice"), "\($0)") }
        XCTAssertThrowsError(try ModelConfig.parse(config + "\nclasses: [A]\n", file: "m.yaml")) { XCTAssertTrue("\($0)".contains("appears twice"), "\($0)") }
    }

    func testDeeplyNestedModelConfigIsAnError() {
        let deep = config + "\nextra: " + String(repeating: "[", count: 30_000)
        XCTAssertThrowsError(try ModelConfig.parse(deep, file: "m.yaml")) { XCTAssertTrue("\($0)".contains("nested more than"), "\($0)") }
    }

    func testAFIFOGivenAsWeightsIsRefusedAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weights-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("w.slw")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try WeightsFile.read(contentsOf: fifo)) { XCTAssertTrue("\($0)".contains("named pipe"), "\($0)") }
        XCTAssertThrowsError(try SafetensorsFile.read(contentsOf: fifo)) { XCTAssertTrue("\($0)".contains("named pipe"), "\($0)") }
        XCTAssertThrowsError(try ModelConfig.load(contentsOf: fifo)) { XCTAssertTrue("\($0)".contains("named pipe"), "\($0)") }
        XCTAssertThrowsError(try WeightsFile.read(contentsOf: URL(fileURLWithPath: "/dev/zero"))) { XCTAssertTrue("\($0)".contains("device"), "\($0)") }
    }

    func testNaNOrInfiniteTensorsAreRefusedNamingTheTensor() throws {
        var weights = Sample.file()
        weights.tensors[1].tensor = try Tensor(shape: weights.tensors[1].tensor.shape,
                                               values: [Float](repeating: .nan, count: weights.tensors[1].tensor.count))
        weights.tensors[0].tensor = try Tensor(zeros: weights.tensors[0].tensor.shape)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nan-\(UUID().uuidString).slw")
        defer { try? FileManager.default.removeItem(at: url) }
        try weights.write(to: url)
        let shapes = Dictionary(weights.tensors.map { ($0.name, $0.tensor.shape) }, uniquingKeysWith: { a, _ in a })
        XCTAssertThrowsError(try WeightsFile.load(contentsOf: url, expectedShapes: shapes)) { error in
            XCTAssertTrue("\(error)".contains("tensor \(weights.tensors[1].name) holds nan at element 0"), "\(error)")
        }
        let exported = SafetensorsFile(tensors: [("head.bias", try Tensor(shape: [2], values: [1, .infinity]))], metadata: [:]).encoded()
        let decoded = try exported.withUnsafeBytes { try SafetensorsFile.decode($0, file: "w.safetensors") }
        XCTAssertThrowsError(try decoded.checkFinite(file: "w.safetensors")) { error in
            XCTAssertEqual(error as? WeightsError, .nonFiniteTensor(file: "w.safetensors", tensor: "head.bias", index: 1, value: .infinity))
        }
    }
}
