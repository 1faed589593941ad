import Foundation
import XCTest
import Support

final class SupportTests: XCTestCase {
    func testSeededRandomIsReproducibleAndSeedDependent() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42), c = SeededRandom(seed: 43)
        let xa = (0..<8).map { _ in a.next() }, xb = (0..<8).map { _ in b.next() }, xc = (0..<8).map { _ in c.next() }
        XCTAssertEqual(xa, xb)
        XCTAssertNotEqual(xa, xc)
    }

    func testSavedStateContinuesTheExactStream() throws {
        var original = SeededRandom(seed: 5)
        for _ in 0..<37 { _ = original.next() }
        _ = original.normal()
        var resumed = try SeededRandom(state: original.state)
        XCTAssertEqual((0..<64).map { _ in resumed.next() }, (0..<64).map { _ in original.next() })
        XCTAssertEqual(resumed.state, original.state)
    }

    func testInvalidSavedStatesAreRefused() {
        XCTAssertThrowsError(try SeededRandom(state: [0, 0, 0, 0])) { XCTAssertEqual($0 as? SeededRandomStateError, .allZero) }
        XCTAssertThrowsError(try SeededRandom(state: [1, 2, 3])) { XCTAssertTrue("\($0)".contains("4 words"), "\($0)") }
        XCTAssertNoThrow(try SeededRandom(state: [0, 0, 0, 1]))
    }

    func testUniformAndNormalMoments() {
        var rng = SeededRandom(seed: 7)
        let n = 200_000
        var sum = 0.0, sumNormal = 0.0, sumSquares = 0.0
        for _ in 0..<n {
            let u = rng.uniform()
            XCTAssert(u >= 0 && u < 1)
            sum += u
            let z = rng.normal()
            sumNormal += z; sumSquares += z * z
        }
        XCTAssertEqual(sum / Double(n), 0.5, accuracy: 0.005)
        XCTAssertEqual(sumNormal / Double(n), 0, accuracy: 0.01)
        XCTAssertEqual(sumSquares / Double(n), 1, accuracy: 0.02)
    }

    func testAtomicWriteReplacesWholeFileAndLeavesNoTemporary() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.txt")
        try AtomicFile.write("first", to: file)
        try AtomicFile.write("second version", to: file)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "second version")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.txt"])
    }

    func testAtomicWriteIntoUnwritablePlaceThrowsNamingPath() {
        XCTAssertThrowsError(try AtomicFile.write("x", to: URL(fileURLWithPath: "/proc/no-such-dir/file.txt"))) { error in
            XCTAssertTrue("\(error)".contains("/proc/no-such-dir/file.txt"))
        }
    }

    func testClockFormatting() {
        XCTAssertEqual(ProgressLine.clock(65), "01:05")
        XCTAssertEqual(ProgressLine.clock(3725), "1:02:05")
        XCTAssertEqual(ProgressLine.clock(.infinity), "--:--")
    }
}
