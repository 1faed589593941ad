import Foundation
import XCTest
@testable import Support

/// Hostile-input cases of issue 15 for writing: nothing outside the output folder, nothing that
/// is not a regular file replaced, no input overwritten, nothing half-written.
final class OutputFolderTests: XCTestCase {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testPathsThatLeaveTheFolderAreRefusedNamingThem() throws {
        let root = try temporaryFolder()
        let output = try OutputFolder(root.appendingPathComponent("out"), existing: .mustBeEmpty)
        for bad in ["../x", "images/../../x", "/etc/passwd", "a//b", "./a", "", "a/."] {
            XCTAssertThrowsError(try output.write("x", to: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("'\(bad)'") && "\(error)".contains("inside the output folder"), "\(error)")
            }
        }
        output.discard()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), [])
    }

    func testAnExistingLinkOnTheWayIsNotFollowed() throws {
        let root = try temporaryFolder()
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let output = try OutputFolder(root.appendingPathComponent("out"), existing: .mustBeEmpty)
        try output.link("images", to: elsewhere)
        XCTAssertThrowsError(try output.write("x", to: "images/escape.txt")) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    func testNothingReachesTheDestinationBeforeCommitAndAFailureLeavesNothing() throws {
        let root = try temporaryFolder()
        let destination = root.appendingPathComponent("split")
        do {
            let output = try OutputFolder(destination, existing: .mustBeEmpty)
            try output.write("Text\n", to: "classes.txt")
            XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
            // The command fails here; the output is dropped without commit.
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), [], "staging folder left behind")
        // A rerun is not refused as "not empty".
        let output = try OutputFolder(destination, existing: .mustBeEmpty)
        try output.write("Text\n", to: "classes.txt")
        try output.write("a\n", to: "labels/sub/a.txt")
        try output.commit()
        XCTAssertEqual(try String(contentsOf: destination.appendingPathComponent("labels/sub/a.txt"), encoding: .utf8), "a\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), ["split"])
        XCTAssertThrowsError(try OutputFolder(destination, existing: .mustBeEmpty)) { XCTAssertTrue("\($0)".contains("not empty"), "\($0)") }
    }

    func testMergeReplacesFilesAndKeepsOthers() throws {
        let destination = try temporaryFolder()
        try "old".write(to: destination.appendingPathComponent("metrics.json"), atomically: true, encoding: .utf8)
        try "mine".write(to: destination.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let output = try OutputFolder(destination, existing: .merge)
        try output.write("new", to: "metrics.json")
        try output.write("p", to: "plots/a.svg")
        XCTAssertEqual(try String(contentsOf: destination.appendingPathComponent("metrics.json"), encoding: .utf8), "old")
        try output.commit()
        XCTAssertEqual(try String(contentsOf: destination.appendingPathComponent("metrics.json"), encoding: .utf8), "new")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.path).sorted(), ["metrics.json", "notes.txt", "plots"])
    }

    func testAMergeNeverReplacesAnInput() throws {
        let destination = try temporaryFolder()
        let input = destination.appendingPathComponent("metrics.json")
        try "predictions".write(to: input, atomically: true, encoding: .utf8)
        let output = try OutputFolder(destination, existing: .merge, notReplacing: [input])
        try output.write("new", to: "metrics.json")
        XCTAssertThrowsError(try output.commit()) { XCTAssertTrue("\($0)".contains("is the input"), "\($0)") }
        XCTAssertEqual(try String(contentsOf: input, encoding: .utf8), "predictions")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.path), ["metrics.json"], "staging left behind")
    }

    func testAFolderOutputThatIsADeviceOrFileIsRefused() throws {
        XCTAssertThrowsError(try OutputFolder(URL(fileURLWithPath: "/dev/null"), existing: .merge)) { error in
            XCTAssertTrue("\(error)".contains("character device"), "\(error)")
        }
        XCTAssertEqual(FileKind.of("/dev/null"), .characterDevice)
    }

    func testAtomicWriteRefusesToReplaceWhatIsNotARegularFile() throws {
        // As root the rename would turn /dev/null into a regular file: the check comes first.
        XCTAssertThrowsError(try AtomicFile.checkReplaceable(URL(fileURLWithPath: "/dev/null"))) { error in
            XCTAssertTrue("\(error)".contains("/dev/null") && "\(error)".contains("character device"), "\(error)")
        }
        let root = try temporaryFolder()
        let fifo = root.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try AtomicFile.write("x", to: fifo)) { XCTAssertTrue("\($0)".contains("named pipe"), "\($0)") }
        XCTAssertEqual(FileKind.of(fifo.path), .fifo)
        let target = root.appendingPathComponent("target.txt"), link = root.appendingPathComponent("link.txt")
        try "keep".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        XCTAssertThrowsError(try AtomicFile.write("x", to: link)) { XCTAssertTrue("\($0)".contains("symbolic link"), "\($0)") }
        XCTAssertThrowsError(try AtomicFile.write("x", to: root)) { XCTAssertTrue("\($0)".contains("folder"), "\($0)") }
    }

    func testAtomicWriteRefusesToOverwriteAnInputUnderAnySpelling() throws {
        let root = try temporaryFolder()
        let input = root.appendingPathComponent("w.slw")
        try "weights".write(to: input, atomically: true, encoding: .utf8)
        let hardLink = root.appendingPathComponent("same.slw")
        try FileManager.default.linkItem(at: input, to: hardLink)
        for spelling in [input, root.appendingPathComponent("./w.slw"), hardLink] {
            XCTAssertThrowsError(try AtomicFile.write("x", to: spelling, notReplacing: [input])) { error in
                XCTAssertTrue("\(error)".contains("input"), "\(error)")
            }
        }
        XCTAssertEqual(try String(contentsOf: input, encoding: .utf8), "weights")
        try AtomicFile.write("x", to: root.appendingPathComponent("other.slw"), notReplacing: [input])
    }
}
