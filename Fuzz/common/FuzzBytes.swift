import Foundation

/// Reads a fuzzer's input as a stream of choices: boundary values first (where arithmetic and
/// conversions break), raw bits otherwise. An exhausted input reads as zeros.
public struct FuzzBytes {
    private let data: [UInt8]
    private var position = 0

    public init(_ data: Data) { self.data = Array(data) }

    public var isEmpty: Bool { position >= data.count }

    public mutating func byte() -> UInt8 {
        guard position < data.count else { return 0 }
        defer { position += 1 }
        return data[position]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    public mutating func index(_ count: Int) -> Int { Int(byte()) % max(count, 1) }

    public mutating func raw64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    public static let boundaryInts: [Int] = [
        0, 1, -1, 2, 11, 12, 13, 99, 100, 101, 271, 272, 273, 3264, 3265, 100_000, 100_001, Int(Int32.max), Int(Int32.max) + 1,
        Int(Int32.min), Int(UInt32.max), 1 << 53, 99_999_999_999, Int.max, Int.max - 1, Int.min, Int.min + 1,
    ]

    public mutating func int() -> Int {
        let choice = byte()
        if Int(choice) < Self.boundaryInts.count { return Self.boundaryInts[Int(choice)] }
        return choice < 200 ? Int(Int8(bitPattern: byte())) : Int(bitPattern: UInt(raw64()))
    }

    public static let boundaryDoubles: [Double] = [
        0, -0.0, 1, -1, 0.5, 1.0000001, -1e-300, 5e-324, 1e9, 1e9 - 1, 1e300, 1e308, -1e308, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .nan, .infinity, -.infinity, 9.223372036854775807e18, 4e9,
    ]

    public mutating func double() -> Double {
        let choice = byte()
        if Int(choice) < Self.boundaryDoubles.count { return Self.boundaryDoubles[Int(choice)] }
        return choice < 200 ? Double(Int8(bitPattern: byte())) / 8 : Double(bitPattern: raw64())
    }

    /// A short text: one of the names a run writes, or input bytes (any UTF-8, lossily).
    public mutating func name() -> String {
        let known = ["cls", "giou", "dfl", "adam.step/head.outputs.0.bias", "", "..", "a\u{0}b", "images/x.jpg", "é", "1e308"]
        let choice = byte()
        if Int(choice) < known.count { return known[Int(choice)] }
        let length = Int(byte() % 24)
        return String(decoding: (0..<length).map { _ in byte() }, as: UTF8.self)
    }

    /// Raw input bytes for a text or blob value.
    public mutating func bytes(_ limit: Int) -> [UInt8] {
        let length = Int(byte()) % (limit + 1)
        return (0..<length).map { _ in byte() }
    }
}

public enum FuzzPaths {
    /// The Fuzz package folder (seeds are read from there).
    public static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// A scratch folder in memory (/dev/shm when it exists), one per process.
    public static func scratch(_ name: String) -> URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("\(name)-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
