import Foundation
import XCTest
@testable import Support

/// Issue 15, crashes and hangs: the one input opener and the one YAML entry point.
final class HostileInputTests: XCTestCase {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-in-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testAFIFOIsRefusedAtOnceInsteadOfWaitingForAWriter() throws {
        let fifo = try temporaryFolder().appendingPathComponent("pipe.json")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        // Judged by its kind before any open: opening a FIFO to read would wait for a writer forever
        // (a hang, which a clock checked afterwards would never see).
        XCTAssertThrowsError(try ReadableFile.contents(of: fifo)) { error in
            XCTAssertEqual((error as? FileReadError)?.kind, .fifo)
            XCTAssertTrue("\(error)".contains("named pipe"), "\(error)")
        }
    }

    func testEachKindOfNonFileIsNamed() throws {
        let folder = try temporaryFolder()
        XCTAssertThrowsError(try ReadableFile.contents(of: URL(fileURLWithPath: "/dev/zero"))) {
            XCTAssertEqual(($0 as? FileReadError)?.kind, .device)
        }
        XCTAssertThrowsError(try ReadableFile.contents(of: folder)) { XCTAssertEqual(($0 as? FileReadError)?.kind, .isDirectory) }
        let loop = folder.appendingPathComponent("loop.txt")
        XCTAssertEqual(symlink(loop.path, loop.path), 0)
        XCTAssertThrowsError(try ReadableFile.contents(of: loop)) {
            XCTAssertEqual(($0 as? FileReadError)?.kind, .symlinkLoop)
            XCTAssertTrue("\($0)".contains("loops back"), "\($0)")
        }
        let big = folder.appendingPathComponent("big.yaml")
        try Data(count: 100).write(to: big)
        XCTAssertThrowsError(try ReadableFile.contents(of: big, maximumBytes: 10)) {
            XCTAssertEqual(($0 as? FileReadError)?.kind, .tooLarge(bytes: 100, limit: 10))
        }
        let latin1 = folder.appendingPathComponent("latin1.txt")
        try Data([0x61, 0x62, 0xE9, 0x0A]).write(to: latin1)
        XCTAssertThrowsError(try ReadableFile.text(of: latin1)) { XCTAssertEqual(($0 as? FileReadError)?.kind, .notUTF8(byteOffset: 2)) }
        try Data([0xEF, 0xBB, 0xBF, 0x61]).write(to: latin1)
        XCTAssertEqual(try ReadableFile.text(of: latin1), "a", "a byte-order mark is dropped")
    }

    func testDeepNestingIsRefusedBeforeTheParserRecursesIntoIt() {
        let flow = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        var block = ""
        for level in 0..<300 { block += String(repeating: " ", count: level) + "k:\n" }
        let dashes = String(repeating: "- ", count: 5000) + "x\n"
        // Closing brackets in a plain scalar must not let a later deep flow through.
        let closers = "a: x" + String(repeating: "]", count: 5000) + "\nb: " + flow
        // A quote inside a plain scalar is text: it must not hide what follows from the count.
        let apostrophe = "a: it's\nb: " + flow, glued = "a:'x\nb: " + flow, doubleQuote = "a: say \"hi\nb: " + flow
        for text in [flow, "a: " + flow, block, dashes, closers, apostrophe, glued, doubleQuote] {
            XCTAssertThrowsError(try YAMLDocument.parse(text, file: "deep.yaml")) { error in
                XCTAssertTrue("\(error)".contains("nested more than 64 levels"), "\(error)")
            }
        }
    }

    func testBillionLaughsIsRefusedQuickly() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...20 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 3).joined(separator: ", ") + "]\n"
        }
        let start = Date()
        XCTAssertThrowsError(try YAMLDocument.parse(text, file: "laughs.yaml")) { error in
            XCTAssertTrue("\(error)".contains("expands to more than"), "\(error)")
        }
        var many = "a: &a x\nb: ["
        many += Array(repeating: "*a", count: 100).joined(separator: ", ") + "]\n"
        XCTAssertThrowsError(try YAMLDocument.parse(many, file: "aliases.yaml")) { XCTAssertTrue("\($0)".contains("aliases"), "\($0)") }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testOrdinaryDocumentsPassAndStrictAccessorsNameFileLineAndKey() throws {
        let text = """
        # comment with [ and { and *star
        description: |
          text with [[[[ and - - - and *x
        picked_on: {dataset: "a [b", split: val}
        classes:
          - name: Text
            confidence: 1e-05
          - name: Icon
            confidence: 0.5
            confidence: 0.7
        """
        let root = try XCTUnwrap(try YAMLDocument.parse(text, file: "t.yaml"))
        let top = try root.mapping(allowed: ["description", "picked_on", "classes"])
        XCTAssertEqual(try top.required("picked_on").mapping()["dataset"]?.string(), "a [b")
        let classes = try top.required("classes").list()
        XCTAssertEqual(try classes[0].mapping().required("confidence").double(in: 0...1), 1e-05)
        XCTAssertThrowsError(try classes[1].mapping()) { error in
            XCTAssertEqual((error as? YAMLError)?.line, 10)
            XCTAssertEqual((error as? YAMLError)?.key, "classes[1].confidence")
            XCTAssertTrue("\(error)".contains("appears twice (first on line 9)"), "\(error)")
        }
        XCTAssertThrowsError(try root.mapping(allowed: ["classes"])) { XCTAssertTrue("\($0)".contains("unknown key"), "\($0)") }
        // Yams traps on an overflowing base-60 integer; such values are not numbers here (found by yaml-fuzz).
        let sexagesimal = try XCTUnwrap(try YAMLDocument.parse("x: 1:0:0:0:0:0:0:0:0:0:0:0:0\n", file: "s.yaml")).mapping().required("x")
        XCTAssertThrowsError(try sexagesimal.int()) { XCTAssertTrue("\($0)".contains("expected an integer"), "\($0)") }
        XCTAssertThrowsError(try sexagesimal.double())
        XCTAssertThrowsError(try YAMLDocument.parse("x: .nan\n", file: "n.yaml")!.mapping().required("x").double()) {
            XCTAssertTrue("\($0)".contains("finite"), "\($0)")
        }
    }
}
