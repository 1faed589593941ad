import Foundation
import Tensor
import XCTest
@testable import Weights

/// Small weights used across tests: values chosen so a bit-exact round trip is meaningful
/// (signed zero, subnormal, infinities, a NaN with a payload, an empty tensor).
enum Sample {
    static let classes = ["Button", "Text", "Icon"]

    static func header(thresholds: [ClassThreshold]? = nil, training: TrainingInfo? = nil) -> WeightsHeader {
        WeightsHeader(
            architecture: ModelArchitecture(name: "tiny-detector", options: ["width_multiplier": "0.5", "fpn_channels": "8"]),
            input: InputSpec(width: 64, height: 32, channels: 3),
            normalization: InputNormalization(mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225]),
            classes: classes,
            thresholds: thresholds,
            provenance: Provenance(runID: "run-0007", experiment: "fixture", dataset: "vins-ui", trainSplit: "train",
                                   valSplit: "val", testSplit: "test", gitCommit: "a2cb0a2", created: "2026-11-22T08:00:00Z",
                                   valMAP50: 0.625, testMAP50: 0.5),
            training: training)
    }

    static let thresholds = [
        ClassThreshold(className: "Button", confidence: 0.35, precision: 0.9, recall: 0.8, f1: 0.847, split: "val"),
        ClassThreshold(className: "Icon", confidence: 0.5, precision: 0.75, recall: 0.6, f1: 0.667, split: "val"),
    ]

    static func tensors() -> [(name: String, tensor: Tensor)] {
        let special: [Float] = [0, -0.0, 1, -1.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity,
                                Float(bitPattern: 0x7FC0_1234), 3.25, 1e-20, -7]
        return [
            ("backbone.stem.conv.weight", try! Tensor(shape: [2, 3, 1, 2], values: special)),
            ("backbone.stem.bn.running_mean", try! Tensor(shape: [2], values: [0.125, -0.25])),
            ("head.cls.bias", try! Tensor(shape: [3], values: [-4.59512, 0, 1])),
            ("head.empty", try! Tensor(zeros: [0, 4])),
            ("scale", Tensor.scalar(2.5)),
        ]
    }

    static func file(header: WeightsHeader = header()) -> WeightsFile { WeightsFile(header: header, tensors: tensors()) }

    static func encoded(_ weights: WeightsFile = file()) throws -> [UInt8] {
        try WeightsFormat.encode(weights, file: "sample.slw")
    }
}

func decode(_ bytes: [UInt8], readerVersion: FormatVersion = .current) throws -> WeightsFile {
    try bytes.withUnsafeBytes { try WeightsFormat.decode($0, file: "sample.slw", readerVersion: readerVersion) }
}

/// Asserts that decoding throws exactly `expected`.
func assertDecodeFails(_ bytes: [UInt8], _ expected: WeightsError, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try decode(bytes), file: file, line: line) { error in
        XCTAssertEqual(error as? WeightsError, expected, file: file, line: line)
    }
}

func bitPatterns(_ tensor: Tensor) -> [UInt32] { tensor.values.map(\.bitPattern) }

/// Byte positions inside an encoded file, so tests can corrupt one field and re-seal the
/// checksums (to reach checks behind them).
struct RawLayout {
    var bytes: [UInt8]

    func u64(at offset: Int) -> UInt64 { bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) } }
    func u32(at offset: Int) -> UInt32 { bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) } }

    mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + MemoryLayout<T>.size), with: $0) }
    }

    var headerLength: Int { Int(clamping: u64(at: 24)) }
    var tableLength: Int { Int(clamping: u64(at: 40)) }
    var tableStart: Int { 64 &+ headerLength }

    /// Start of entry `index` (its u32 length field).
    func entryStart(_ index: Int) -> Int {
        var position = tableStart
        for _ in 0..<index { position += 4 + Int(u32(at: position)) }
        return position
    }

    /// Offsets of the offset, byteLength and checksum fields of entry `index`.
    func entryFields(_ index: Int) -> (shape: Int, offset: Int, byteLength: Int, checksum: Int) {
        let start = entryStart(index)
        let nameLength = Int(bytes[start + 4]) | Int(bytes[start + 5]) << 8
        let rank = Int(bytes[start + 6 + nameLength + 1])
        let shape = start + 6 + nameLength + 2
        let offset = shape + 8 * rank
        return (shape, offset, offset + 8, offset + 16)
    }

    /// Recomputes the metadata and preamble checksums after an edit.
    mutating func reseal() {
        let end = tableStart &+ tableLength
        let metadataCRC = bytes[64..<(end > 64 && end <= bytes.count ? end : 64)].withUnsafeBytes { CRC32.checksum($0) }
        set(metadataCRC, at: 56)
        let preambleCRC = bytes[0..<60].withUnsafeBytes { CRC32.checksum($0) }
        set(preambleCRC, at: 60)
    }
}

extension RawLayout {
    /// The same file with a new header JSON and/or extra bytes appended to every table entry
    /// (as a later minor version might add per-tensor fields), offsets shifted to match.
    func rebuilt(header newHeader: String? = nil, entryExtra: [UInt8] = [], version: FormatVersion? = nil) -> [UInt8] {
        let headerBytes = newHeader.map { Array($0.utf8) } ?? Array(bytes[64..<tableStart])
        let count = Int(u64(at: 32))
        let oldDataOffset = Int(u64(at: 48))
        var bodies: [(body: [UInt8], offsetField: Int)] = []
        for index in 0..<count {
            let start = entryStart(index)
            let body = Array(bytes[(start + 4)..<(start + 4 + Int(u32(at: start)))])
            bodies.append((body, entryFields(index).offset - start - 4))
        }
        let tableLength = bodies.reduce(0) { $0 + 4 + $1.body.count + entryExtra.count }
        let newDataOffset = (64 + headerBytes.count + tableLength + 63) / 64 * 64
        let shift = UInt64(newDataOffset - oldDataOffset)
        var table: [UInt8] = []
        for (body, offsetField) in bodies {
            var entry = RawLayout(bytes: body + entryExtra)
            entry.set(entry.u64(at: offsetField) + shift, at: offsetField)
            withUnsafeBytes(of: UInt32(entry.bytes.count).littleEndian) { table.append(contentsOf: $0) }
            table += entry.bytes
        }
        var output = RawLayout(bytes: Array(bytes[0..<64]) + headerBytes + table)
        output.bytes += [UInt8](repeating: 0, count: newDataOffset - output.bytes.count)
        output.bytes += bytes[oldDataOffset...]
        output.set(UInt64(output.bytes.count), at: 16)
        output.set(UInt64(headerBytes.count), at: 24)
        output.set(UInt64(tableLength), at: 40)
        output.set(UInt64(newDataOffset), at: 48)
        if let version {
            output.set(version.major, at: 8)
            output.set(version.minor, at: 10)
        }
        output.reseal()
        return output.bytes
    }

    var headerJSON: String { String(decoding: bytes[64..<tableStart], as: UTF8.self) }
}
