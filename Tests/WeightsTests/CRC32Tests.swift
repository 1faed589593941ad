import XCTest
@testable import Weights

final class CRC32Tests: XCTestCase {
    /// The standard check value of CRC-32/ISO-HDLC (the catalogue of parametrised CRCs) and
    /// a value zlib.crc32 prints for the pangram.
    func testKnownVectors() {
        XCTAssertEqual(CRC32.checksum(of: Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum(of: Array("The quick brown fox jumps over the lazy dog".utf8)), 0x414F_A339)
        XCTAssertEqual(CRC32.checksum(of: [UInt8]()), 0)
        XCTAssertEqual(CRC32.checksum(of: [0x00]), 0xD202_EF8D)
    }

    /// The 8-byte fast path and the byte tail must agree with a bitwise reference at every
    /// length and every split point.
    func testSlicingMatchesBitwiseReferenceAndChunking() {
        var generator = SplitMix(seed: 7)
        let data = (0..<97).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for length in 0...data.count {
            let prefix = Array(data[0..<length])
            XCTAssertEqual(CRC32.checksum(of: prefix), bitwiseCRC32(prefix), "length \(length)")
        }
        let whole = CRC32.checksum(of: data)
        for split in [0, 1, 7, 8, 9, 50, 97] {
            let first = data[0..<split].withUnsafeBytes { CRC32.checksum($0) }
            let both = data[split...].withUnsafeBytes { CRC32.checksum($0, continuing: first) }
            XCTAssertEqual(both, whole, "split at \(split)")
        }
    }

    private func bitwiseCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// SplitMix64 (Steele et al. 2014), for test data only.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
