import XCTest
@testable import Weights

/// Every way a file can be damaged gives the one right error, never a crash.
final class WeightsCorruptionTests: XCTestCase {
    let file = "sample.slw"
    var bytes: [UInt8] = []
    var fileSize: Int { bytes.count }

    override func setUpWithError() throws { bytes = try Sample.encoded() }

    func testEveryTruncationIsReported() {
        for length in 0..<bytes.count {
            let needed: UInt64 = length < 12 ? 12 : length < 64 ? 64 : UInt64(fileSize)
            let what = length < 12 ? "signature and version" : length < 64 ? "64-byte preamble" : "file (as its preamble declares)"
            assertDecodeFails(Array(bytes[0..<length]), .truncated(file: file, fileSize: length, needed: needed, what: what))
        }
        XCTAssertEqual(WeightsError.truncated(file: file, fileSize: 100, needed: 4096, what: "file (as its preamble declares)").description,
                       "sample.slw: truncated at byte 100: the file (as its preamble declares) needs 4096 bytes; the copy is incomplete, copy the file again")
    }

    func testBadMagic() {
        bytes[3] = 0x00
        assertDecodeFails(bytes, .badMagic(file: file, found: [0x53, 0x4C, 0x57, 0x00, 0x0D, 0x0A, 0x1A, 0x0A]))
        assertDecodeFails(Array("{\"a\": 1}".utf8), .badMagic(file: file, found: Array("{\"a\": 1}".utf8)))
    }

    func testNewerMajorVersionIsRefusedNamingBothVersions() {
        var raw = RawLayout(bytes: bytes)
        raw.set(UInt16(2), at: 8)
        raw.set(UInt16(3), at: 10)
        assertDecodeFails(raw.bytes, .newerMajorVersion(file: file, found: FormatVersion(2, 3), supported: .current))
        let message = WeightsError.newerMajorVersion(file: file, found: FormatVersion(2, 3), supported: .current).description
        XCTAssertTrue(message.contains("2.3") && message.contains("1.2"), message)
        // Refused from the version alone, even when the rest of a 2.x file is unreadable to us.
        assertDecodeFails(Array(raw.bytes[0..<12]), .newerMajorVersion(file: file, found: FormatVersion(2, 3), supported: .current))
        raw.set(UInt16(0), at: 8)
        assertDecodeFails(raw.bytes, .unsupportedVersion(file: file, found: FormatVersion(0, 3)))
    }

    func testFlippedBytesInPreambleHeaderAndData() throws {
        var preamble = bytes
        preamble[20] ^= 0x01
        assertDecodeFails(preamble, .preambleChecksumMismatch(file: file, stored: RawLayout(bytes: bytes).u32(at: 60),
                                                              computed: preamble[0..<60].withUnsafeBytes { CRC32.checksum($0) }))
        var header = bytes
        header[70] ^= 0x20
        XCTAssertThrowsError(try decode(header)) { error in
            guard case .metadataChecksumMismatch(file, _, _)? = error as? WeightsError else { return XCTFail("\(error)") }
        }
        let layout = try XCTUnwrap(try decode(bytes).layout)
        for (index, entry) in layout.entries.enumerated() where entry.byteLength > 0 {
            var data = bytes
            data[Int(entry.offset + entry.byteLength) - 1] ^= 0x80
            let computed = data[Int(entry.offset)..<Int(entry.offset + entry.byteLength)].withUnsafeBytes { CRC32.checksum($0) }
            assertDecodeFails(data, .checksumMismatch(file: file, tensor: layout.entries[index].name, stored: entry.checksum, computed: computed))
        }
    }

    /// Every byte outside the checksummed parts is zero padding, so changing any of them is
    /// found too: before the data offset, between tensors and after the last one.
    func testNonZeroPaddingIsReported() throws {
        let layout = try XCTUnwrap(try decode(bytes).layout)
        let tensors = layout.entries.filter { $0.byteLength > 0 }.sorted { $0.offset < $1.offset }
        var gaps = [Int(layout.dataOffset) - 1]  // the last byte before the data
        for (previous, next) in zip(tensors, tensors.dropFirst()) where previous.offset + previous.byteLength < next.offset {
            gaps.append(Int(previous.offset + previous.byteLength))  // the first byte after a tensor
        }
        XCTAssertGreaterThan(gaps.count, 1, "the sample has padding between tensors")
        for index in gaps {
            XCTAssertEqual(bytes[index], 0)
            var changed = bytes
            changed[index] = 0x5A
            assertDecodeFails(changed, .invalidLayout(file: file, reason: "padding byte \(index) is 0x5A, not zero: "
                                                            + "the file was changed after it was written, or its writer is broken"))
        }
    }

    func testTrailingBytesAreReported() {
        assertDecodeFails(bytes + [0], .trailingBytes(file: file, fileSize: fileSize + 1, declared: UInt64(fileSize)))
    }

    func testOffsetBeyondEndOfFile() {
        var raw = RawLayout(bytes: bytes)
        let fields = raw.entryFields(1)
        raw.set(UInt64(fileSize + 64), at: fields.offset)
        raw.reseal()
        assertDecodeFails(raw.bytes, .tensorOutOfBounds(file: file, tensor: "backbone.stem.bn.running_mean",
                                                        offset: UInt64(fileSize + 64), byteLength: 8, fileSize: fileSize))
        // An offset so large that offset + length wraps around 2^64 is caught, not wrapped.
        raw.set(UInt64.max - 3, at: fields.offset)
        raw.reseal()
        assertDecodeFails(raw.bytes, .tensorOutOfBounds(file: file, tensor: "backbone.stem.bn.running_mean",
                                                        offset: UInt64.max - 3, byteLength: 8, fileSize: fileSize))
        // Pointing into the header or table is out of the data section, too.
        raw.set(UInt64(0), at: fields.offset)
        raw.reseal()
        assertDecodeFails(raw.bytes, .tensorOutOfBounds(file: file, tensor: "backbone.stem.bn.running_mean", offset: 0,
                                                        byteLength: 8, fileSize: fileSize))
    }

    func testOverlappingAndUnalignedOffsets() {
        var overlap = RawLayout(bytes: bytes)
        overlap.set(overlap.u64(at: overlap.entryFields(0).offset), at: overlap.entryFields(1).offset)
        overlap.reseal()
        assertDecodeFails(overlap.bytes, .overlappingTensors(file: file, first: "backbone.stem.conv.weight", second: "backbone.stem.bn.running_mean"))

        var unaligned = RawLayout(bytes: bytes)
        let offset = unaligned.u64(at: unaligned.entryFields(2).offset)
        unaligned.set(offset + 4, at: unaligned.entryFields(2).offset)
        unaligned.reseal()
        assertDecodeFails(unaligned.bytes, .unalignedTensor(file: file, tensor: "head.cls.bias", offset: offset + 4))
    }

    func testShapeAndByteLengthInconsistency() {
        var raw = RawLayout(bytes: bytes)
        raw.set(UInt64(16), at: raw.entryFields(2).byteLength)
        raw.reseal()
        assertDecodeFails(raw.bytes, .byteLengthMismatch(file: file, tensor: "head.cls.bias", shape: [3], byteLength: 16, expected: 12))
        var wrongShape = RawLayout(bytes: bytes)
        wrongShape.set(UInt64(4), at: wrongShape.entryFields(2).shape)
        wrongShape.reseal()
        assertDecodeFails(wrongShape.bytes, .byteLengthMismatch(file: file, tensor: "head.cls.bias", shape: [4], byteLength: 12, expected: 16))
    }

    func testHugeClaimedLengthsAreRefusedBeforeUse() {
        var header = RawLayout(bytes: bytes)
        header.set(UInt64.max, at: 24)
        header.reseal()
        XCTAssertThrowsError(try decode(header.bytes)) { error in
            guard case .invalidLayout(file, let reason)? = error as? WeightsError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("do not fit"), reason)
        }
        var count = RawLayout(bytes: bytes)
        count.set(UInt64(1) << 60, at: 32)
        count.reseal()
        assertDecodeFails(count.bytes, .invalidLayout(file: file, reason: "\(UInt64(1) << 60) tensors cannot fit in a \(count.tableLength)-byte tensor table"))
        // A shape whose element count overflows 64 bits.
        var shape = RawLayout(bytes: bytes)
        let fields = shape.entryFields(0)
        for dimension in 0..<4 { shape.set(UInt64(Int32.max), at: fields.shape + 8 * dimension) }
        shape.reseal()
        assertDecodeFails(shape.bytes, .byteLengthMismatch(file: file, tensor: "backbone.stem.conv.weight",
                                                           shape: Array(repeating: Int(Int32.max), count: 4), byteLength: 48, expected: .max))
        var length = RawLayout(bytes: bytes)
        length.set(UInt32.max, at: length.entryStart(1))
        length.reseal()
        assertDecodeFails(length.bytes, .invalidTensorEntry(file: file, index: 1, tensor: nil, reason: "runs past the end of the tensor table"))
    }

    func testBadDataOffsetAndUnknownDType() {
        var offset = RawLayout(bytes: bytes)
        offset.set(offset.u64(at: 48) + 1, at: 48)
        offset.reseal()
        assertDecodeFails(offset.bytes, .invalidLayout(file: file, reason: "data offset \(offset.u64(at: 48)) is not a multiple of 64"))
        var dtype = RawLayout(bytes: bytes)
        let nameLength = "backbone.stem.conv.weight".utf8.count
        dtype.bytes[dtype.entryStart(0) + 6 + nameLength] = 9
        dtype.reseal()
        assertDecodeFails(dtype.bytes, .invalidTensorEntry(file: file, index: 0, tensor: "backbone.stem.conv.weight",
                                                           reason: "element type code 9 is unknown (1 = float32, 2 = float16); written by a newer ScreenLab?"))
    }

    func testHeaderProblemsNameTheKey() {
        let raw = RawLayout(bytes: bytes)
        let json = raw.headerJSON
        let cases: [(String, String, String)] = [
            (json.replacingOccurrences(of: "\"classes\"", with: "\"clases\""), "clases", "unknown key"),
            (json.replacingOccurrences(of: "\"width\":64", with: "\"width\":\"64\""), "input.width", "expected an integer, found a string"),
            (json.replacingOccurrences(of: "\"created\"", with: "\"made\""), "provenance.made", "unknown key"),
            (json.replacingOccurrences(of: "\"Icon\"]", with: "\"Icon\",\"Text\"]"), "classes[3]", "class \"Text\" is listed twice"),
            (json.replacingOccurrences(of: "{\"architecture\"", with: "[{\"architecture\""), "header", "invalid JSON"),
        ]
        for (header, key, reason) in cases {
            XCTAssertNotEqual(header, json, "test edit did not apply for \(key)")
            XCTAssertThrowsError(try decode(raw.rebuilt(header: header)), key) { error in
                guard case let .invalidHeader(errorFile, errorKey, errorReason)? = error as? WeightsError else { return XCTFail("\(error)") }
                XCTAssertEqual(errorFile, file)
                XCTAssertEqual(errorKey, key)
                XCTAssertTrue(errorReason.contains(reason), "\(key): \(errorReason)")
            }
        }
    }

    func testEntryWithExtraBytesIsRefusedInAKnownVersion() {
        assertDecodeFails(RawLayout(bytes: bytes).rebuilt(entryExtra: [1, 2]),
                          .invalidTensorEntry(file: file, index: 0, tensor: "backbone.stem.conv.weight", reason: "2 unexpected bytes at the end of the entry"))
    }
}
