import Foundation
import Tensor
import XCTest
@testable import Weights

final class SafetensorsTests: XCTestCase {
    func fixture(_ name: String, _ ext: String) throws -> [UInt8] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"), "\(name).\(ext)")
        return Array(try Data(contentsOf: url))
    }

    func decodeSafetensors(_ bytes: [UInt8]) throws -> SafetensorsFile {
        try bytes.withUnsafeBytes { try SafetensorsFile.decode($0, file: "x.safetensors") }
    }

    /// Written by Peers/safetensors/interop.py make-fixture with Python's
    /// `safetensors.numpy.save_file`; the values are the script's `fixture_tensors()`.
    func testReadsPythonWrittenFile() throws {
        let file = try decodeSafetensors(try fixture("python-written", "safetensors"))
        XCTAssertEqual(file.metadata, ["format": "pt", "source": "interop.py make-fixture"])
        // Python sorts by name, so the buffer (and our order) is alphabetical.
        XCTAssertEqual(file.tensors.map(\.name), ["backbone.bn1.running_var", "backbone.conv1.weight", "head.cls.bias"])
        XCTAssertEqual(file.tensors[0].tensor.values, [1, 0.25])
        XCTAssertEqual(file.tensors[1].tensor.shape, [2, 1, 1, 3])
        XCTAssertEqual(file.tensors[1].tensor.values, [-0.5, -0.25, 0, 0.25, 0.5, 0.75])  // arange(6) * 0.25 - 0.5
        XCTAssertEqual(file.tensors[2].tensor.values, [-4.59512, -4.59512, -4.59512])
    }

    /// The committed export of the 1.1 fixture, which interop.py validate opened with Python's
    /// safetensors and found bit-identical; today's exporter must still produce those bytes.
    func testExportMatchesThePythonValidatedFixtureAndImportsBack() throws {
        let exported = try fixture("screenlab-exported", "safetensors")
        let content = VersionFixtureTests.v1_1Content()
        XCTAssertEqual(content.safetensors().encoded(), exported)
        let read = try decodeSafetensors(exported)
        XCTAssertEqual(read.metadata["format"], "screenlab-weights")
        XCTAssertEqual(read.metadata["format_version"], "1.1")
        XCTAssertEqual(try WeightsFile.headerFromMetadata(read.metadata, file: "x"), content.header)
        XCTAssertEqual(read.tensors.map(\.name), content.tensors.map(\.name))
        for (a, b) in zip(read.tensors, content.tensors) { XCTAssertEqual(bitPatterns(a.tensor), bitPatterns(b.tensor)) }
        // The header length is a multiple of 8 (space padded), as Python writes it.
        XCTAssertEqual(RawLayout(bytes: exported).u64(at: 0) % 8, 0)
    }

    func testRoundTripKeepsSpecialValuesAndEmptyTensors() throws {
        let original = Sample.file(header: Sample.header(thresholds: Sample.thresholds))
        let read = try decodeSafetensors(original.safetensors().encoded())
        XCTAssertEqual(read.tensors.map(\.name), original.tensors.map(\.name))
        for (a, b) in zip(read.tensors, original.tensors) {
            XCTAssertEqual(a.tensor.shape, b.tensor.shape)
            XCTAssertEqual(bitPatterns(a.tensor), bitPatterns(b.tensor))
        }
        XCTAssertEqual(try WeightsFile.headerFromMetadata(read.metadata, file: "x"), original.header)
    }

    func testRejectsMalformedFiles() throws {
        func file(_ header: String, data: [UInt8] = [UInt8](repeating: 0, count: 16)) -> [UInt8] {
            var bytes = ByteWriter()
            bytes.write(UInt64(header.utf8.count))
            bytes.write(Array(header.utf8))
            return bytes.bytes + data
        }
        func reason(_ bytes: [UInt8]) -> String {
            do {
                _ = try decodeSafetensors(bytes)
                return "accepted"
            } catch let WeightsError.invalidSafetensors(_, reason) {
                return reason
            } catch {
                return "\(error)"
            }
        }
        let t = #""a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}"#
        XCTAssertEqual(reason(file("{\(t)}")), "accepted")
        XCTAssertTrue(reason([1, 2, 3]).contains("truncated at byte 3"), reason([1, 2, 3]))
        XCTAssertTrue(reason(file("{\(t)}", data: [0, 0])).contains("data_offsets [0, 16] are not [begin, end] inside the 2-byte"))
        XCTAssertTrue(reason(file(#"{"a":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}}"#)).contains("has dtype BF16"))
        XCTAssertTrue(reason(file(#"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}"#)).contains("needs 12 bytes but data_offsets span 16"))
        XCTAssertTrue(reason(file(#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}"#))
            .contains("overlap"))
        XCTAssertTrue(reason(file(#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"extra":1}}"#)).contains("unknown key \"extra\""))
        XCTAssertTrue(reason(file(#"{"__metadata__":{"k":1}}"#)).contains("must be a string"))
        XCTAssertTrue(reason(file("[1]")).contains("not a JSON object"))
        XCTAssertTrue(reason(file(#"{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}}"#)).contains("huge dimension"))
        var huge = ByteWriter()
        huge.write(UInt64.max)
        XCTAssertTrue(reason(huge.bytes).contains("exceeds 100 MB"))
        var long = ByteWriter()
        long.write(UInt64(1000))
        XCTAssertEqual(try? decodeSafetensors(long.bytes + [0x7B]).tensors.count, nil)
        XCTAssertThrowsError(try decodeSafetensors(long.bytes + [0x7B])) { error in
            XCTAssertEqual(error as? WeightsError, .truncated(file: "x.safetensors", fileSize: 9, needed: 1008, what: "safetensors header"))
        }
    }

    func testMetadataFromANewerMajorVersionIsRefused() {
        var metadata = Sample.file().safetensors().metadata
        metadata["format_version"] = "2.0"
        XCTAssertThrowsError(try WeightsFile.headerFromMetadata(metadata, file: "x")) { error in
            XCTAssertEqual(error as? WeightsError, .newerMajorVersion(file: "x", found: FormatVersion(2, 0), supported: .current))
        }
        metadata["format_version"] = "1.x"
        XCTAssertThrowsError(try WeightsFile.headerFromMetadata(metadata, file: "x"))
    }
}
