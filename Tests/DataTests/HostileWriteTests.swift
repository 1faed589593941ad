import Foundation
import XCTest
@testable import Data
import Support

/// Issue 15, writes where they must not go and half-written folders: `data convert`,
/// `data split` and `check --fix` write through one confined, all-or-nothing output folder.
final class HostileWriteTests: XCTestCase {
    func dataset(imagePath: String, root: URL) -> Dataset {
        Dataset(root: root, classes: ["Text"], samples: [
            Sample(id: "a", imagePath: imagePath, width: 40, height: 20,
                   annotations: [Annotation(classIndex: 0, box: BoundingBox(x: 1, y: 2, width: 3, height: 4))]),
        ])
    }

    func testACOCOFileNameWithDotDotIsPlacedInsideTheOutputAndNothingOutside() throws {
        let root = try Fixtures.temporaryFolder(self)
        let out = root.appendingPathComponent("a/b/out")
        try Data([0x89, 0x50]).write(to: root.appendingPathComponent("../escaped-source.png"))
        defer { try? FileManager.default.removeItem(at: root.appendingPathComponent("../escaped-source.png")) }
        try DatasetFixer.writeNew(dataset(imagePath: "../escaped-source.png", root: root), format: .yolo, to: out)
        // The climb is dropped: the image is linked at out/images/escaped-source.png, its label beside it.
        XCTAssertEqual(FileKind.of(out.appendingPathComponent("images/escaped-source.png").path), .symbolicLink)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("labels/escaped-source.txt").path))
        let hostile = root.appendingPathComponent("c/out")
        try DatasetFixer.writeNew(dataset(imagePath: "../../../escaped.png", root: root), format: .yolo, to: hostile)
        XCTAssertEqual(FileKind.of(hostile.appendingPathComponent("images/escaped.png").path), .symbolicLink)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("escaped.png").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("a/labels").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("c/labels").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("a/b").path), ["out"], "staging left behind")
    }

    func testASplitNameWithDotDotIsRefused() throws {
        let root = try Fixtures.temporaryFolder(self)
        var data = dataset(imagePath: "images/a.png", root: root)
        data.splits = ["../../x": [0]]
        XCTAssertThrowsError(try DatasetFixer.writeNew(data, format: .yolo, to: root.appendingPathComponent("out"))) { error in
            XCTAssertTrue("\(error)".contains("'../../x'"), "\(error)")
        }
        XCTAssertThrowsError(try DatasetSplitter.split(data, names: ["../../x", "val"], fractions: [0.5, 0.5], by: .image, seed: 0)) { error in
            XCTAssertTrue("\(error)".contains("'../../x'"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path), [])
    }

    func testAFailedWriteLeavesNoHalfFolderSoARerunWorks() throws {
        let root = try Fixtures.temporaryFolder(self)
        let out = root.appendingPathComponent("out")
        var bad = dataset(imagePath: "images/a.png", root: root)
        bad.samples[0].annotations[0].box.width = 1e308  // refused after classes.txt was staged
        XCTAssertThrowsError(try DatasetFixer.writeNew(bad, format: .yolo, to: out))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "classes.txt alone was left in --out")
        try DatasetFixer.writeNew(dataset(imagePath: "images/a.png", root: root), format: .yolo, to: out)
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("labels/a.txt"), encoding: .utf8).split(separator: " ").count, 5)
    }

    func testAClassNameWithALineBreakIsRefused() throws {
        let root = try Fixtures.temporaryFolder(self)
        var data = dataset(imagePath: "images/a.png", root: root)
        data.classes = ["Text\nIcon"]
        XCTAssertThrowsError(try DatasetFixer.writeNew(data, format: .yolo, to: root.appendingPathComponent("out"))) { error in
            XCTAssertTrue("\(error)".contains("line break"), "\(error)")
        }
    }

    func testZeroSizeImagesAndAbsurdBoxesAreRefusedNamingTheBox() throws {
        let root = try Fixtures.temporaryFolder(self)
        var zeroWidth = dataset(imagePath: "images/a.png", root: root)
        zeroWidth.samples[0].width = 0
        XCTAssertThrowsError(try DatasetFixer.writeNew(zeroWidth, format: .yolo, to: root.appendingPathComponent("z"))) { error in
            XCTAssertTrue("\(error)".contains("images/a.png box 1") && "\(error)".contains("0x20"), "\(error)")
        }
        var huge = dataset(imagePath: "images/a.png", root: root)
        huge.samples[0].annotations[0].box.x = 1e308
        XCTAssertThrowsError(try DatasetFixer.writeNew(huge, format: .yolo, to: root.appendingPathComponent("h"))) { error in
            XCTAssertTrue("\(error)".contains("images/a.png box 1") && "\(error)".contains("not a box"), "\(error)")
        }
    }
}
