import Foundation
import Tensor
import XCTest
@testable import Weights

/// Every released format version stays readable: a small file of each is committed under
/// Fixtures/ and must load with the exact content below. Regenerate only when adding a new
/// version: `SCREENLAB_WRITE_WEIGHTS_FIXTURES=1 swift test --filter VersionFixtureTests`.
final class VersionFixtureTests: XCTestCase {
    /// Content frozen with the 1.0 fixture; never edit (add a new version's fixture instead).
    static func v1_0Content() -> WeightsFile {
        let header = WeightsHeader(
            architecture: ModelArchitecture(name: "reference-detector", options: ["backbone": "mobilenet_v1", "width_multiplier": "0.5"]),
            input: InputSpec(width: 512, height: 256, channels: 3),
            normalization: InputNormalization(mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]),
            classes: ["Text", "Icon", "Toggle (Selected)"],
            thresholds: [ClassThreshold(className: "Text", confidence: 0.3, precision: 0.88, recall: 0.89, f1: 0.885, split: "val")],
            provenance: Provenance(runID: "fixture-1.0", experiment: "format-fixtures", dataset: "vins-ui", trainSplit: "train",
                                   valSplit: "val", testSplit: "test", gitCommit: "b10f00e", created: "2026-11-22T08:15:00Z",
                                   valMAP50: 0.5, testMAP50: 0.25))
        return WeightsFile(header: header, tensors: [
            ("backbone.conv1.weight", try! Tensor(shape: [2, 1, 1, 3], values: [1, -2, 0.5, -0.0, 1e-3, 65504])),
            ("backbone.bn1.running_var", try! Tensor(shape: [2], values: [1, 0.25])),
            ("head.cls.bias", try! Tensor(shape: [3], values: [-4.59512, -4.59512, -4.59512])),
        ])
    }

    /// 1.1 adds the optional `training` field.
    static func v1_1Content() -> WeightsFile {
        var weights = v1_0Content()
        weights.header.provenance.runID = "fixture-1.1"
        weights.header.training = TrainingInfo(seed: 20_261_122, epochs: 90, config: "Configs/train/reference.yaml")
        return weights
    }

    /// 1.2 adds float16 storage: the 1.1 content rounded to float16, except the tensor holding
    /// 1e5 (beyond float16's range), which stays float32.
    static func v1_2Content() -> WeightsFile {
        var weights = v1_1Content()
        weights.header.provenance.runID = "fixture-1.2"
        weights.tensors.append(("head.scale", try! Tensor(shape: [2], values: [1e5, 0.5])))
        return weights.storingFloat16().weights
    }

    func fixture(_ name: String) throws -> [UInt8] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "slw", subdirectory: "Fixtures"), "\(name).slw missing")
        return Array(try Data(contentsOf: url))
    }

    func testWriteFixturesWhenAsked() throws {
        guard ProcessInfo.processInfo.environment["SCREENLAB_WRITE_WEIGHTS_FIXTURES"] == "1" else {
            throw XCTSkip("set SCREENLAB_WRITE_WEIGHTS_FIXTURES=1 to rewrite the version fixtures")
        }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        try Self.v1_0Content().write(to: folder.appendingPathComponent("weights-v1.0.slw"))
        try Self.v1_1Content().write(to: folder.appendingPathComponent("weights-v1.1.slw"))
        try Self.v1_2Content().write(to: folder.appendingPathComponent("weights-v1.2.slw"))
    }

    /// A released fixture loads as its version with the frozen content, and today's writer still
    /// produces its bytes for that content. Returns the loaded file for version-specific checks.
    @discardableResult
    private func assertReleasedFixture(_ name: String, version: FormatVersion, content expected: WeightsFile,
                                       file: StaticString = #filePath, line: UInt = #line) throws -> WeightsFile {
        let bytes = try fixture(name)
        let loaded = try decode(bytes)
        XCTAssertEqual(loaded.layout?.version, version, file: file, line: line)
        XCTAssertEqual(loaded.header, expected.header, file: file, line: line)
        assertSameTensors(loaded, expected, file: file, line: line)
        XCTAssertEqual(try WeightsFormat.encode(expected, file: "x"), bytes, file: file, line: line)
        return loaded
    }

    func testVersion1_0FixtureLoads() throws {
        let loaded = try assertReleasedFixture("weights-v1.0", version: FormatVersion(1, 0), content: Self.v1_0Content())
        XCTAssertNil(loaded.header.training)
    }

    func testVersion1_1FixtureLoads() throws {
        try assertReleasedFixture("weights-v1.1", version: FormatVersion(1, 1), content: Self.v1_1Content())
    }

    func testVersion1_2FixtureLoads() throws {
        let loaded = try assertReleasedFixture("weights-v1.2", version: FormatVersion(1, 2), content: Self.v1_2Content())
        XCTAssertEqual(loaded.float16Tensors, ["backbone.conv1.weight", "backbone.bn1.running_var", "head.cls.bias"])
        XCTAssertEqual(loaded.layout?.entries.map(\.dtype), [.float16, .float16, .float16, .float32])
    }

    /// A 1.0 reader opens the 1.1 file: it skips the `training` field it does not know.
    func testVersion1_0ReaderIgnoresFieldsAddedIn1_1() throws {
        let loaded = try decode(try fixture("weights-v1.1"), readerVersion: .v1_0)
        var expected = Self.v1_1Content().header
        expected.training = nil
        XCTAssertEqual(loaded.header, expected)
        assertSameTensors(loaded, Self.v1_1Content())
        // But a 1.0 file carrying that field is corrupt for a 1.0 reader.
        let raw = RawLayout(bytes: try fixture("weights-v1.1"))
        XCTAssertThrowsError(try decode(raw.rebuilt(version: .v1_0), readerVersion: .v1_0)) { error in
            guard case .invalidHeader(_, "training", _)? = error as? WeightsError else { return XCTFail("\(error)") }
        }
    }

    /// A file labelled 1.0 that carries the 1.1-only `training` field is refused by every
    /// reader (a field is allowed from the version that introduced it, judged by the file's
    /// label, not the reader's), naming the key and both versions.
    func testFieldNewerThanTheFilesOwnVersionIsRefused() throws {
        let mislabelled = RawLayout(bytes: try fixture("weights-v1.1")).rebuilt(version: .v1_0)
        for reader in [FormatVersion.v1_0, .v1_1, .current] {
            XCTAssertThrowsError(try decode(mislabelled, readerVersion: reader), "reader \(reader)") { error in
                guard case let .invalidHeader(_, key, reason)? = error as? WeightsError else { return XCTFail("\(error)") }
                XCTAssertEqual(key, "training")
                XCTAssertTrue(reason.contains("introduced in format 1.1") && reason.contains("format 1.0"), reason)
            }
        }
        // Even as JSON null (which otherwise counts as absent).
        let raw = RawLayout(bytes: try fixture("weights-v1.0"))
        let withNull = raw.headerJSON.replacingOccurrences(of: "\"provenance\":", with: "\"training\":null,\"provenance\":")
        XCTAssertThrowsError(try decode(raw.rebuilt(header: withNull))) { error in
            guard case .invalidHeader(_, "training", _)? = error as? WeightsError else { return XCTFail("\(error)") }
        }
    }

    /// A file from a future minor version (new header keys, longer table entries) loads.
    func testFutureMinorVersionLoadsIgnoringNewFields() throws {
        let raw = RawLayout(bytes: try fixture("weights-v1.1"))
        let header = raw.headerJSON.replacingOccurrences(of: "\"classes\":", with: "\"anchors\":{\"sizes\":[16,32]},\"classes\":")
            .replacingOccurrences(of: "\"created\":", with: "\"host\":\"ci-7\",\"created\":")
        let future = raw.rebuilt(header: header, entryExtra: [7, 7, 7, 7, 7], version: FormatVersion(1, 7))
        let loaded = try decode(future)
        XCTAssertEqual(loaded.layout?.version, FormatVersion(1, 7))
        XCTAssertEqual(loaded.header, Self.v1_1Content().header)
        assertSameTensors(loaded, Self.v1_1Content())
        // The same additions in a file claiming 1.1 are refused, naming the key.
        XCTAssertThrowsError(try decode(raw.rebuilt(header: header))) { error in
            guard case .invalidHeader(_, "anchors", _)? = error as? WeightsError else { return XCTFail("\(error)") }
        }
    }

    private func assertSameTensors(_ a: WeightsFile, _ b: WeightsFile, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.tensors.map(\.name), b.tensors.map(\.name), file: file, line: line)
        for (x, y) in zip(a.tensors, b.tensors) {
            XCTAssertEqual(x.tensor.shape, y.tensor.shape, x.name, file: file, line: line)
            XCTAssertEqual(bitPatterns(x.tensor), bitPatterns(y.tensor), x.name, file: file, line: line)
        }
    }
}
