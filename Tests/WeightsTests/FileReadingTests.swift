import Foundation
import XCTest
@testable import Weights

/// Reading from disk: plain-word system errors naming the path as given, the preamble checked
/// before the body is read, and files of another kind recognised.
final class FileReadingTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("weights-reading-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func assertReadFails(_ url: URL, _ expected: WeightsError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try WeightsFile.read(contentsOf: url), file: file, line: line) { error in
            XCTAssertEqual(error as? WeightsError, expected, file: file, line: line)
        }
    }

    func testSystemErrorsInPlainWordsWithThePathAsGiven() throws {
        // A relative path stays relative in the message.
        assertReadFails(URL(fileURLWithPath: "no-such-folder/model.slw"), .unreadable(file: "no-such-folder/model.slw", reason: "no such file"))
        assertReadFails(folder, .unreadable(file: folder.path, reason: "it is a directory; give the path of a file"))
        XCTAssertThrowsError(try SafetensorsFile.read(contentsOf: URL(fileURLWithPath: "missing.safetensors"))) { error in
            XCTAssertEqual("\(error)", "missing.safetensors: cannot read: no such file")
        }
        let locked = folder.appendingPathComponent("locked.slw")
        try Sample.file().write(to: locked)
        chmod(locked.path, 0)
        if geteuid() != 0 {  // root reads it anyway
            assertReadFails(locked, .unreadable(file: locked.path, reason: "permission denied"))
        }
    }

    /// A huge file that is not weights (sparse: no disk, no memory) is refused from its first
    /// 64 bytes; reading it whole would take gigabytes and seconds.
    func testHugeFileIsJudgedByItsPreamble() throws {
        let png = folder.appendingPathComponent("screenshot.png")
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try makeSparseFile(png, prefix: pngSignature + [0, 0, 0, 13], size: 3 << 30)
        let start = Date()
        assertReadFails(png, .badMagic(file: png.path, found: pngSignature))
        XCTAssertThrowsError(try WeightsFile.read(contentsOf: png)) { error in
            XCTAssertTrue("\(error)".contains("this is a PNG image, not a ScreenLab weights file"), "\(error)")
        }

        // A real preamble followed by 3 GB it does not declare: refused as appended bytes.
        let bytes = try Sample.encoded()
        let appended = folder.appendingPathComponent("appended.slw")
        try makeSparseFile(appended, prefix: bytes, size: 3 << 30)
        assertReadFails(appended, .trailingBytes(file: appended.path, fileSize: 3 << 30, declared: UInt64(bytes.count)))
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "the bodies were read")

        // Truncated: the declared length is checked against the real size before the body is read.
        let truncated = folder.appendingPathComponent("truncated.slw")
        try Data(bytes.prefix(100)).write(to: truncated)
        assertReadFails(truncated, .truncated(file: truncated.path, fileSize: 100, needed: UInt64(bytes.count),
                                              what: "file (as its preamble declares)"))
    }

    func testSafetensorsReaderRecognisesOtherFiles() throws {
        let weights = folder.appendingPathComponent("model.slw")
        try Sample.file().write(to: weights)
        XCTAssertThrowsError(try SafetensorsFile.read(contentsOf: weights)) { error in
            XCTAssertEqual(error as? WeightsError, .invalidSafetensors(
                file: weights.path, reason: "it is a ScreenLab weights file (.slw); `screenlab weights inspect` reads it as it is"))
        }
        let png = folder.appendingPathComponent("screen.png")
        try makeSparseFile(png, prefix: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], size: 1 << 30)
        XCTAssertThrowsError(try SafetensorsFile.read(contentsOf: png)) { error in
            XCTAssertEqual(error as? WeightsError, .invalidSafetensors(file: png.path, reason: "it is a PNG image"))
            XCTAssertEqual("\(error)", "\(png.path): not a valid safetensors file: it is a PNG image")
        }
        // A header length beyond the file is refused before the body is read.
        let short = folder.appendingPathComponent("short.safetensors")
        try Data([0x00, 0x10, 0, 0, 0, 0, 0, 0] + Array("{}".utf8)).write(to: short)
        XCTAssertThrowsError(try SafetensorsFile.read(contentsOf: short)) { error in
            XCTAssertEqual(error as? WeightsError, .truncated(file: short.path, fileSize: 10, needed: 8 + 4096, what: "safetensors header"))
        }
    }

    func testReadingFromDiskGivesWhatWasWritten() throws {
        let url = folder.appendingPathComponent("model.slw")
        try Sample.file().write(to: url)
        let loaded = try WeightsFile.read(contentsOf: url)
        XCTAssertEqual(loaded.header, Sample.header())
        XCTAssertEqual(loaded.tensors.map { bitPatterns($0.tensor) }, Sample.tensors().map { bitPatterns($0.tensor) })
    }

    private func makeSparseFile(_ url: URL, prefix: [UInt8], size: Int) throws {
        try Data(prefix).write(to: url)
        XCTAssertEqual(truncate(url.path, off_t(size)), 0, "sparse file")
    }
}
