import Foundation
import Tensor
import TestSupport
import Weights
import XCTest

/// `screenlab weights convert`: float16 at half the bytes (tensors beyond float16's range kept and
/// named), float32 back without changing a value, and the input never overwritten.
final class WeightsConvertCommandTests: XCTestCase {
    private func write(_ tensors: [(name: String, tensor: Tensor)], to url: URL) throws {
        let header = WeightsHeader(architecture: ModelArchitecture(name: "tiny-detector", options: [:]), input: InputSpec(width: 32, height: 64),
                                   normalization: InputNormalization(mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]), classes: ["Icon"],
                                   provenance: Provenance(created: "2026-11-28T00:00:00Z"))
        try WeightsFile(header: header, tensors: tensors).write(to: url)
    }

    func testConvertsToFloat16AndBackNamingWhatStaysFloat32() throws {
        let base = try TestFolders.make("weights-convert")
        let input = base.appendingPathComponent("model.slw")
        try write([("w", try Tensor(shape: [2, 2], values: [1.0 / 3, -2, 0.1, 7])), ("big", try Tensor(shape: [1], values: [1e5]))], to: input)

        let (status, output) = try ScreenlabProcess.run(["weights", "convert", input.path, "--dtype", "float16"])
        XCTAssertEqual(status, 0, output)
        let half = base.appendingPathComponent("model.float16.slw")
        XCTAssertTrue(output.contains("format 1.2") && output.contains("1 stored as float16"), output)
        XCTAssertTrue(output.contains("kept float32: big (holds 100000.0"), output)
        let converted = try WeightsFile.read(contentsOf: half)
        XCTAssertEqual(converted.float16Tensors, ["w"])
        XCTAssertEqual(converted.tensor(named: "w")?.values, [1.0 / 3, -2, 0.1, 7].map { Float(Float16(Float($0))) })
        XCTAssertEqual(converted.tensor(named: "big")?.values, [1e5])
        let (inspected, inspectOutput) = try ScreenlabProcess.run(["weights", "inspect", half.path])
        XCTAssertEqual(inspected, 0, inspectOutput)
        XCTAssertTrue(inspectOutput.contains("float16 (1 tensors) and float32 (1)"), inspectOutput)

        let wide = base.appendingPathComponent("wide.slw")
        let (back, backOutput) = try ScreenlabProcess.run(["weights", "convert", half.path, "--dtype", "float32", "--out", wide.path])
        XCTAssertEqual(back, 0, backOutput)
        let widened = try WeightsFile.read(contentsOf: wide)
        XCTAssertEqual(widened.layout?.version, FormatVersion(1, 0))
        XCTAssertEqual(widened.tensor(named: "w")?.values.map(\.bitPattern), converted.tensor(named: "w")?.values.map(\.bitPattern))
    }

    func testTheInputIsNeverOverwrittenAndNonFiniteWeightsAreRefused() throws {
        let base = try TestFolders.make("weights-convert")
        let input = base.appendingPathComponent("model.slw")
        try write([("w", try Tensor(shape: [2], values: [1, .nan]))], to: input)
        let before = try Data(contentsOf: input)
        let (same, sameOutput) = try ScreenlabProcess.run(["weights", "convert", input.path, "--dtype", "float16", "--out", input.path])
        XCTAssertNotEqual(same, 0)
        XCTAssertTrue(sameOutput.contains("--out must differ"), sameOutput)
        let (status, output) = try ScreenlabProcess.run(["weights", "convert", input.path, "--dtype", "float16"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("w") && output.lowercased().contains("nan"), output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: base.appendingPathComponent("model.float16.slw").path), "nothing written")
        XCTAssertEqual(try Data(contentsOf: input), before)
        let (bad, badOutput) = try ScreenlabProcess.run(["weights", "convert", input.path, "--dtype", "bfloat16"])
        XCTAssertNotEqual(bad, 0)
        XCTAssertTrue(badOutput.contains("bfloat16"), badOutput)
    }

    /// `weights average`: a new file holding the mean, the inputs kept, and --out never an input.
    func testAverageWritesTheMeanAndKeepsTheInputs() throws {
        let base = try TestFolders.make("weights-average")
        let a = base.appendingPathComponent("a.slw"), b = base.appendingPathComponent("b.slw")
        try write([("w", try Tensor(shape: [2], values: [1, -3]))], to: a)
        try write([("w", try Tensor(shape: [2], values: [2, 5]))], to: b)
        let before = try Data(contentsOf: a)
        let soup = base.appendingPathComponent("soup.slw")
        let (status, output) = try ScreenlabProcess.run(["weights", "average", a.path, b.path, "--out", soup.path])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("the mean of 2 models"), output)
        XCTAssertEqual(try WeightsFile.read(contentsOf: soup).tensor(named: "w")?.values, [1.5, 1])
        XCTAssertEqual(try Data(contentsOf: a), before)
        let (refused, message) = try ScreenlabProcess.run(["weights", "average", a.path, b.path, "--out", a.path])
        XCTAssertEqual(refused, 64, message)
        XCTAssertTrue(message.contains("--out must differ from the inputs"), message)
        XCTAssertEqual(try Data(contentsOf: a), before)
    }
}
