import Foundation
import Tensor
import XCTest
@testable import Weights

/// Float16 storage (format 1.2): rounding once on request, then exact round trips; the version
/// rules of FORMAT.md for the new element type.
final class Float16StorageTests: XCTestCase {
    private func weights() -> WeightsFile {
        WeightsFile(header: Sample.header(), tensors: [
            ("conv.weight", try! Tensor(shape: [2, 3], values: [1, 1.0 / 3, -65504, -0.0, 1e-8, 0.1])),
            ("bn.running_var", try! Tensor(shape: [2], values: [1e5, 0.5])),
            ("empty", try! Tensor(zeros: [0, 4])),
            ("scale", Tensor.scalar(2.5)),
        ])
    }

    /// Analytic: each value becomes its nearest float16; a tensor holding 1e5 (beyond ±65504)
    /// stays float32 and is named; the reported errors are the ones computed by hand.
    func testRoundingIsToTheNearestFloat16AndOutOfRangeTensorsStayFloat32() throws {
        let (rounded, conversion) = weights().storingFloat16()
        XCTAssertEqual(rounded.float16Tensors, ["conv.weight", "empty", "scale"])
        XCTAssertEqual(conversion.keptFloat32.map(\.name), ["bn.running_var"])
        XCTAssertEqual(conversion.keptFloat32.first?.value, 1e5)
        let values = try XCTUnwrap(rounded.tensor(named: "conv.weight")).values
        // 1/3 in float16 is 0x3555 = 1365/4096; 0.1 is 0x2E66 = 1638/16384; 1e-8 is below the smallest subnormal (2^-24).
        XCTAssertEqual(values.map(\.bitPattern), [1, 1365.0 / 4096, -65504, -0.0, 0, 1638.0 / 16384].map { Float($0).bitPattern })
        XCTAssertEqual(rounded.tensor(named: "bn.running_var")?.values, [1e5, 0.5], "kept tensors keep their values")
        let change = try XCTUnwrap(conversion.rounded.first { $0.name == "conv.weight" })
        XCTAssertEqual(change.flushedToZero, 1)
        XCTAssertEqual(change.maxAbsoluteError, Float(1.0 / 3) - Float(1365.0 / 4096), accuracy: 1e-12)
        XCTAssertLessThanOrEqual(change.maxRelativeError, 1.0 / 2048, "round to nearest: at most half a unit in the last of 11 bits")
        XCTAssertGreaterThan(change.maxRelativeError, 0)
    }

    /// Written, read and written again: the same floats bit for bit, the same bytes, half the
    /// data bytes, format 1.2; widening back to float32 changes no value and gives the oldest
    /// version the header needs.
    func testFloat16FilesRoundTripExactly() throws {
        let (rounded, _) = weights().storingFloat16()
        let bytes = try WeightsFormat.encode(rounded, file: "half.slw")
        let loaded = try decode(bytes)
        XCTAssertEqual(loaded.layout?.version, .v1_2)
        XCTAssertEqual(loaded.float16Tensors, rounded.float16Tensors)
        XCTAssertEqual(loaded.layout?.entries.map(\.dtype), [.float16, .float32, .float16, .float16])
        XCTAssertEqual(loaded.layout?.entries.first?.byteLength, 12)
        for (a, b) in zip(loaded.tensors, rounded.tensors) { XCTAssertEqual(bitPatterns(a.tensor), bitPatterns(b.tensor), a.name) }
        XCTAssertEqual(try WeightsFormat.encode(loaded, file: "again.slw"), bytes)
        XCTAssertEqual(loaded.dataByteCount, 6 * 2 + 2 * 4 + 0 + 2)

        let widened = loaded.storingFloat32()
        let wideBytes = try WeightsFormat.encode(widened, file: "wide.slw")
        let wide = try decode(wideBytes)
        XCTAssertEqual(wide.layout?.version, .v1_0, "no float16 and no training field: the oldest version")
        for (a, b) in zip(wide.tensors, rounded.tensors) { XCTAssertEqual(bitPatterns(a.tensor), bitPatterns(b.tensor), a.name) }
        // Converting a float16 file again rounds nothing.
        let (again, conversion) = loaded.storingFloat16()
        XCTAssertEqual(try WeightsFormat.encode(again, file: "x"), bytes)
        XCTAssertTrue(conversion.rounded.allSatisfy { $0.maxAbsoluteError == 0 && $0.flushedToZero == 0 })
    }

    /// The writer never rounds behind a caller's back: a value float16 does not hold, in a
    /// tensor marked for float16, is an error naming the tensor, the value and its index.
    func testTheWriterRefusesAValueFloat16DoesNotHold() {
        var marked = weights()
        marked.float16Tensors = ["conv.weight"]
        XCTAssertThrowsError(try WeightsFormat.encode(marked, file: "half.slw")) { error in
            guard case let .invalidContent(file, reason)? = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, "half.slw")
            XCTAssertTrue(reason.contains("conv.weight") && reason.contains("index 1") && reason.contains("storingFloat16"), reason)
        }
    }

    /// A float16 entry in a file labelled 1.1 is refused by the element type's own version, as
    /// a header field newer than the file's label is.
    func testFloat16InAFileLabelledOlderThan1_2IsRefused() throws {
        let (rounded, _) = weights().storingFloat16()
        var raw = RawLayout(bytes: try WeightsFormat.encode(rounded, file: "half.slw"))
        raw.set(UInt16(1), at: 10)
        raw.reseal()
        XCTAssertThrowsError(try decode(raw.bytes)) { error in
            guard case let .invalidTensorEntry(_, index, tensor, reason)? = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertEqual(index, 0)
            XCTAssertEqual(tensor, "conv.weight")
            XCTAssertTrue(reason.contains("F16") && reason.contains("from format 1.2") && reason.contains("says it is 1.1"), reason)
        }
    }

    /// A float16 entry whose byte length counts 4 bytes a value is refused like any length
    /// that disagrees with its shape.
    func testAFloat16EntryMustHaveTwoBytesAValue() throws {
        let (rounded, _) = weights().storingFloat16()
        var raw = RawLayout(bytes: try WeightsFormat.encode(rounded, file: "half.slw"))
        raw.set(UInt64(24), at: raw.entryFields(0).byteLength)
        raw.reseal()
        XCTAssertThrowsError(try decode(raw.bytes)) { error in
            guard case let .byteLengthMismatch(_, tensor, _, byteLength, expected)? = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertEqual(tensor, "conv.weight")
            XCTAssertEqual(byteLength, 24)
            XCTAssertEqual(expected, 12)
        }
    }

    /// safetensors: F16 tensors are written as F16 and read back exactly, so export → import
    /// keeps a float16 file's bytes; an F16 file from elsewhere (`model.half()` in PyTorch) is read.
    func testSafetensorsCarryFloat16BothWays() throws {
        let (rounded, _) = weights().storingFloat16()
        let exported = rounded.safetensors()
        XCTAssertEqual(exported.metadata["format_version"], "1.2")
        let bytes = exported.encoded()
        let text = String(decoding: bytes[8..<(8 + Int(bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))], as: UTF8.self)
        XCTAssertTrue(text.contains(#""conv.weight":{"dtype":"F16","shape":[2,3],"data_offsets":[0,12]}"#), text)
        XCTAssertTrue(text.contains(#""bn.running_var":{"dtype":"F32""#), text)
        let read = try bytes.withUnsafeBytes { try SafetensorsFile.decode($0, file: "half.safetensors") }
        XCTAssertEqual(read.float16Tensors, rounded.float16Tensors)
        for (a, b) in zip(read.tensors, rounded.tensors) { XCTAssertEqual(bitPatterns(a.tensor), bitPatterns(b.tensor), a.name) }
        // Two bytes a value: an F16 entry whose shape needs more than its span is refused, naming the tensor.
        let wrong = Array(text.replacingOccurrences(of: #""shape":[2,3],"data_offsets":[0,12]"#, with: #""shape":[3,3],"data_offsets":[0,12]"#).utf8)
        var mangled: [UInt8] = []
        withUnsafeBytes(of: UInt64(wrong.count).littleEndian) { mangled += $0 }
        mangled += wrong + bytes[(8 + text.utf8.count)...]
        XCTAssertThrowsError(try mangled.withUnsafeBytes { try SafetensorsFile.decode($0, file: "bad.safetensors") }) { error in
            XCTAssertTrue("\(error)".contains("conv.weight") && "\(error)".contains("needs 18 bytes but data_offsets span 12"), "\(error)")
        }
    }
}
