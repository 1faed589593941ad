import Foundation
import Tensor
import XCTest
@testable import Weights

final class WeightsRoundTripTests: XCTestCase {
    func testRoundTripIsBitExactWithHeaderAndOrder() throws {
        let original = Sample.file(header: Sample.header(thresholds: Sample.thresholds))
        let bytes = try Sample.encoded(original)
        let decoded = try decode(bytes)
        XCTAssertEqual(decoded.header, original.header)
        XCTAssertEqual(decoded.tensors.map(\.name), original.tensors.map(\.name))
        for (read, written) in zip(decoded.tensors, original.tensors) {
            XCTAssertEqual(read.tensor.shape, written.tensor.shape, read.name)
            XCTAssertEqual(bitPatterns(read.tensor), bitPatterns(written.tensor), read.name)
        }
        XCTAssertEqual(decoded.layout?.version, .v1_0)
        XCTAssertEqual(decoded.layout?.fileSize, bytes.count)
    }

    func testLayoutIsAlignedAndDeterministic() throws {
        let bytes = try Sample.encoded()
        XCTAssertEqual(bytes, try Sample.encoded(), "same content must give the same bytes")
        let layout = try XCTUnwrap(try decode(bytes).layout)
        XCTAssertEqual(Array(bytes[0..<8]), [0x53, 0x4C, 0x57, 0x54, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(layout.dataOffset % 64, 0)
        for entry in layout.entries {
            XCTAssertEqual(entry.offset % 64, 0, entry.name)
            XCTAssertEqual(entry.byteLength, UInt64(entry.shape.reduce(1, *) * 4), entry.name)
            XCTAssertEqual(entry.dtype, .float32)
        }
        // Tensor 0 holds 12 floats: its bytes are exactly the little-endian floats.
        let first = layout.entries[0]
        let raw = Array(bytes[Int(first.offset)..<Int(first.offset) + 8])
        XCTAssertEqual(raw, [0, 0, 0, 0, 0, 0, 0, 0x80], "0.0 then -0.0 in little-endian IEEE 754")
        XCTAssertEqual(first.checksum, CRC32.checksum(of: bytes[Int(first.offset)..<Int(first.offset + first.byteLength)]))
    }

    func testWritesOldestVersionHoldingTheHeader() throws {
        XCTAssertEqual(try decode(try Sample.encoded()).layout?.version, .v1_0)
        let withTraining = Sample.file(header: Sample.header(training: TrainingInfo(seed: 42, epochs: 3)))
        let decoded = try decode(try Sample.encoded(withTraining))
        XCTAssertEqual(decoded.layout?.version, .v1_1)
        XCTAssertEqual(decoded.header.training, TrainingInfo(seed: 42, epochs: 3))
    }

    func testAtomicFileWriteAndRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weights-test-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("model.slw")
        try Sample.file().write(to: url)
        let read = try WeightsFile.read(contentsOf: url)
        XCTAssertEqual(read.header, Sample.header())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["model.slw"], "no temporary file left")
        XCTAssertThrowsError(try WeightsFile.read(contentsOf: folder.appendingPathComponent("absent.slw"))) { error in
            guard case .unreadable(let file, _)? = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertTrue(file.hasSuffix("absent.slw"))
        }
    }

    func testSettingThresholdsKeepsTensorsIdentical() throws {
        let original = Sample.file()
        let updated = try original.settingThresholds(Sample.thresholds.reversed(), file: "new.slw")
        let before = try decode(try Sample.encoded(original))
        let after = try decode(try Sample.encoded(updated))
        XCTAssertNil(before.header.thresholds)
        XCTAssertEqual(after.header.thresholds, Sample.thresholds)
        XCTAssertEqual(after.header.threshold(forClass: "Icon")?.confidence, 0.5)
        XCTAssertNil(after.header.threshold(forClass: "Text"))
        XCTAssertEqual(after.header.confidenceThresholds(default: 0.25), [0.35, 0.25, 0.5], "Button, Text (default), Icon")
        XCTAssertEqual(before.header.confidenceThresholds(default: 0.25), [0.25, 0.25, 0.25])
        XCTAssertEqual(after.layout?.entries.map(\.checksum), before.layout?.entries.map(\.checksum))
        for (a, b) in zip(before.tensors, after.tensors) { XCTAssertEqual(bitPatterns(a.tensor), bitPatterns(b.tensor)) }
        var unknown = Sample.thresholds
        unknown[0].className = "Slider"
        XCTAssertThrowsError(try original.settingThresholds(unknown, file: "new.slw")) { error in
            XCTAssertEqual(error as? WeightsError, .invalidHeader(file: "new.slw", key: "thresholds[0].class",
                                                                  reason: "\"Slider\" is not one of the model's classes"))
        }
    }

    /// FORMAT.md: thresholds are stored in class order; a file that lists them otherwise is
    /// refused by the reader (and the writer never produces one).
    func testReaderRefusesThresholdsOutOfClassOrder() throws {
        let raw = RawLayout(bytes: try Sample.encoded(Sample.file(header: Sample.header(thresholds: Sample.thresholds))))
        let json = raw.headerJSON
        let button = try XCTUnwrap(json.range(of: #"{"class":"Button""#))
        let icon = try XCTUnwrap(json.range(of: #"{"class":"Icon""#))
        let buttonEntry = String(json[button.lowerBound..<json.index(before: icon.lowerBound)])
        let iconEntry = String(json[icon.lowerBound...].prefix { $0 != "}" }) + "}"
        let swapped = json.replacingOccurrences(of: buttonEntry + "," + iconEntry, with: iconEntry + "," + buttonEntry)
        XCTAssertNotEqual(swapped, json)
        XCTAssertThrowsError(try decode(raw.rebuilt(header: swapped))) { error in
            XCTAssertEqual(error as? WeightsError, .invalidHeader(
                file: "sample.slw", key: "thresholds[1].class",
                reason: "\"Button\" (class 0) comes after \"Icon\" (class 2); thresholds must be in class order"))
        }
        var header = Sample.header(thresholds: Sample.thresholds)
        header.thresholds?.reverse()
        XCTAssertThrowsError(try Sample.encoded(Sample.file(header: header)), "the writer runs the same check")
    }

    func testValidateAgainstModelShapesReportsFirstProblem() throws {
        let weights = Sample.file()
        var expected = Dictionary(weights.tensors.map { ($0.name, $0.tensor.shape) }, uniquingKeysWith: { a, _ in a })
        XCTAssertNoThrow(try weights.validate(expectedShapes: expected, file: "m.slw"))
        expected["head.cls.bias"] = [13]
        XCTAssertThrowsError(try weights.validate(expectedShapes: expected, file: "m.slw")) { error in
            XCTAssertEqual(error as? WeightsError, .shapeMismatch(file: "m.slw", tensor: "head.cls.bias", expected: [13], found: [3]))
            XCTAssertEqual("\(error)", "m.slw: shape of head.cls.bias does not match the model: expected [13], found [3]")
        }
        expected["head.box.weight"] = [4, 8]
        XCTAssertThrowsError(try weights.validate(expectedShapes: expected, file: "m.slw")) { error in
            XCTAssertEqual(error as? WeightsError, .missingTensors(file: "m.slw", names: ["head.box.weight"]))
        }
        expected["head.box.weight"] = nil
        expected["scale"] = nil
        XCTAssertThrowsError(try weights.validate(expectedShapes: expected, file: "m.slw")) { error in
            XCTAssertEqual(error as? WeightsError, .unexpectedTensors(file: "m.slw", names: ["scale"]))
        }
    }

    func testTimestampIsISO8601UTC() {
        XCTAssertEqual(Provenance.timestamp(Date(timeIntervalSince1970: 1_795_334_400)), "2026-11-22T08:00:00Z")
    }

    func testLoadChecksShapesFromDisk() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(getpid()).slw")
        defer { try? FileManager.default.removeItem(at: url) }
        var finite = Sample.file()  // load refuses the sample's infinities (HostileInputTests)
        finite.tensors[0].tensor = try Tensor(zeros: finite.tensors[0].tensor.shape)
        try finite.write(to: url)
        var shapes = Dictionary(Sample.tensors().map { ($0.name, $0.tensor.shape) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(try WeightsFile.load(contentsOf: url, expectedShapes: shapes).tensors.count, 5)
        shapes["scale"] = [1]
        XCTAssertThrowsError(try WeightsFile.load(contentsOf: url, expectedShapes: shapes)) { error in
            XCTAssertEqual(error as? WeightsError, .shapeMismatch(file: url.path, tensor: "scale", expected: [1], found: []))
        }
    }

    func testWriterRefusesInvalidContent() {
        var duplicate = Sample.file()
        duplicate.tensors.append(duplicate.tensors[0])
        XCTAssertThrowsError(try Sample.encoded(duplicate)) { error in
            XCTAssertEqual(error as? WeightsError, .duplicateTensor(file: "sample.slw", tensor: "backbone.stem.conv.weight"))
        }
        var badHeader = Sample.header()
        badHeader.normalization.std = [0.2, 0, 0.2]
        XCTAssertThrowsError(try Sample.encoded(Sample.file(header: badHeader))) { error in
            XCTAssertEqual(error as? WeightsError, .invalidHeader(file: "sample.slw", key: "normalization.std", reason: "values must be positive"))
        }
        var repeated = Sample.header()
        repeated.classes = ["Text", "Text"]
        XCTAssertThrowsError(try Sample.encoded(Sample.file(header: repeated)))
    }
}
