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
            normalization: PixelNormalization(mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225]),
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
            ("head.empty", Tensor(zeros: [0, 4])),
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

    var headerLength: Int { Int(u64(at: 24)) }
    var tableLength: Int { Int(u64(at: 40)) }
    var tableStart: Int { 64 + headerLength }

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
        let metadataCRC = bytes[64..<(tableStart + tableLength)].withUnsafeBytes { CRC32.checksum($0) }
        set(metadataCRC, at: 56)
        let preambleCRC = bytes[0..<60].withUnsafeBytes { CRC32.checksum($0) }
        set(preambleCRC, at: 60)
    }
}
