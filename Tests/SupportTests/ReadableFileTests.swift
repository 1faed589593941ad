import XCTest
@testable import Support

final class ReadableFileTests: XCTestCase {
    func testSystemErrorsAreKindsWithPlainReasons() {
        XCTAssertEqual(FileReadError.kind(errno: EACCES), .permissionDenied)
        XCTAssertEqual(FileReadError(path: "a", kind: FileReadError.kind(errno: EACCES)).reason, "permission denied")
        XCTAssertEqual(FileReadError.kind(errno: ENOENT), .notFound)
        XCTAssertEqual(FileReadError.kind(errno: ENOTDIR), .pathPartNotDirectory)
        XCTAssertEqual(FileReadError(path: "x/y.txt", kind: .notFound).description, "x/y.txt: no such file")
    }

    func testReadsWholeAndInPiecesAndRefusesFolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("bytes.bin")
        let bytes = (0..<300).map { UInt8($0 % 251) }
        try Data(bytes).write(to: url)

        XCTAssertEqual(try ReadableFile.contents(of: url), bytes)
        let file = try ReadableFile(url)
        XCTAssertEqual(file.size, 300)
        XCTAssertEqual(try file.read(offset: 290, count: 50), Array(bytes[290...]), "clamped to the end")
        XCTAssertEqual(try file.readAll(after: Array(bytes[0..<10])), bytes)

        XCTAssertThrowsError(try ReadableFile(folder)) { error in
            XCTAssertEqual(error as? FileReadError, FileReadError(path: folder.path, kind: .isDirectory))
        }
        XCTAssertThrowsError(try ReadableFile(URL(fileURLWithPath: "no-such-folder/x.bin"))) { error in
            XCTAssertEqual(error as? FileReadError, FileReadError(path: "no-such-folder/x.bin", kind: .notFound))
        }
    }
}
