import Foundation
import XCTest
@testable import Data

/// yolo-problems (see Fixtures/make_fixtures.py): ok.png 100x50 with label lines
/// 1 fine, 2 leaving the image, 3 zero width, 4 class 5 of 2, 5 four fields, 6 NaN, 7 "abc";
/// dup.png = ok.png's bytes; corrupt.png is text; missing.png is listed but absent;
/// shared.png is in train and val; labels/ghost.txt has no image.
final class DatasetCheckTests: XCTestCase {
    func report() throws -> CheckReport { try DatasetChecker.check(try Fixtures.url("yolo-problems")) }

    func issues(_ report: CheckReport, _ kind: DatasetIssue.Kind) -> [DatasetIssue] { report.issues.filter { $0.kind == kind } }

    func testEveryProblemTypeIsFoundOnceWithFileAndLine() throws {
        let report = try report()
        let counts = Dictionary(uniqueKeysWithValues: report.counts.map { ($0.kind, $0.count) })
        XCTAssertEqual(counts, [.missingImage: 1, .unreadableImage: 1, .malformedLine: 3, .unknownClass: 1, .boxOutsideImage: 1,
                                .zeroAreaBox: 1, .duplicateImage: 1, .imageInTwoSplits: 1, .orphanLabel: 1, .manifestMismatch: 0, .invalidAnnotation: 0])
        func located(_ kind: DatasetIssue.Kind) -> [String] {
            issues(report, kind).map { "\(($0.file as NSString).lastPathComponent):\($0.line.map(String.init) ?? "-")" }
        }
        XCTAssertEqual(located(.missingImage), ["train.txt:4"])
        XCTAssertEqual(located(.unreadableImage), ["corrupt.png:-"])
        XCTAssertEqual(located(.malformedLine), ["ok.txt:5", "ok.txt:6", "ok.txt:7"])
        XCTAssertEqual(located(.unknownClass), ["ok.txt:4"])
        XCTAssertEqual(located(.boxOutsideImage), ["ok.txt:2"])
        XCTAssertEqual(located(.zeroAreaBox), ["ok.txt:3"])
        XCTAssertEqual(located(.duplicateImage), ["dup.png:-"])
        XCTAssertEqual(located(.imageInTwoSplits), ["shared.png:-"])
        XCTAssertEqual(located(.orphanLabel), ["ghost.txt:-"])
        XCTAssertTrue(issues(report, .duplicateImage)[0].message.contains("same bytes as images/ok.png"))
        XCTAssertTrue(issues(report, .imageInTwoSplits)[0].message.contains("train and val"))
        XCTAssertTrue(issues(report, .malformedLine)[1].message.contains("'nan'"))
    }

    func testCleanDatasetHasNoIssues() throws {
        XCTAssertEqual(try DatasetChecker.check(try Fixtures.url("yolo-basic")).issues, [])
        XCTAssertEqual(try DatasetChecker.check(try Fixtures.url("coco-basic/instances.json")).issues, [])
    }

    func testBoxAtTheEdgeWithFloatNoiseIsNotOutside() {
        let sample = Sample(id: "a", imagePath: "a.png", width: 640, height: 640, annotations: [
            Annotation(classIndex: 0, box: BoundingBox(x: 0, y: 0, width: 640.0000000001, height: 640)),
            Annotation(classIndex: 0, box: BoundingBox(x: -0.5, y: 0, width: 10, height: 10)),
        ])
        let dataset = Dataset(root: URL(fileURLWithPath: "/"), classes: ["Text"], samples: [sample])
        let found = DatasetChecker.boxIssues(dataset, sources: [:])
        XCTAssertEqual(found.map(\.kind), [.boxOutsideImage])
        XCTAssertTrue(found[0].message.contains("box 2 (Text)"), found[0].message)
    }

    func testDecodeFindsATruncatedImageThatHeadersMiss() throws {
        let folder = try Fixtures.temporaryFolder(self)
        let source = try Fixtures.url("yolo-basic")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        let bytes = try Data(contentsOf: source.appendingPathComponent("images/screen1.png"))
        try bytes.prefix(40).write(to: folder.appendingPathComponent("images/cut.png"))  // IHDR intact, IDAT cut
        try "Text\n".write(to: folder.appendingPathComponent("classes.txt"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try DatasetChecker.check(folder).issues, [])
        let decoded = try DatasetChecker.check(folder, options: .init(decodeImages: true))
        XCTAssertEqual(decoded.issues.map(\.kind), [.unreadableImage])
    }

    func testContentHashSeparatesTailsAndLengths() {
        let a = Data([1, 2, 3, 4, 5, 6, 7, 8, 9]), b = Data([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]), c = Data([1, 2, 3, 4, 5, 6, 7, 8, 8])
        XCTAssertEqual(ContentHash.hash(a), ContentHash.hash(Data(a)))
        XCTAssertNotEqual(ContentHash.hash(a), ContentHash.hash(b))
        XCTAssertNotEqual(ContentHash.hash(a), ContentHash.hash(c))
        XCTAssertNotEqual(ContentHash.hash(Data()), ContentHash.hash(Data([0])))
    }

    func testFixWritesANewCleanLabelSetAndListsChanges() throws {
        let report = try report()
        let (fixed, summary) = DatasetFixer.fix(report)
        XCTAssertEqual(summary.clippedBoxes.count, 1)
        XCTAssertTrue(summary.clippedBoxes[0].contains("ok.txt:2"), summary.clippedBoxes[0])
        XCTAssertEqual(summary.droppedBoxes.count, 1)
        XCTAssertTrue(summary.droppedBoxes[0].contains("ok.txt:3"), summary.droppedBoxes[0])
        XCTAssertEqual(summary.droppedAtLoad.count, 7)   // 3 malformed, 1 unknown class, corrupt and missing image, ghost label
        XCTAssertEqual(summary.leftAsIs.count, 2)        // the duplicate and the image in two splits
        let out = try Fixtures.temporaryFolder(self).appendingPathComponent("fixed")
        try DatasetFixer.write(fixed, sourceFormat: .yolo, to: out)

        let back = try YOLOReader.read(out)
        XCTAssertEqual(back.samples.map(\.id), ["ok", "dup", "shared"])
        let ok = back.samples[0].annotations
        XCTAssertEqual(ok.map(\.classIndex), [0, 1])
        // Line 2: x 70..110 clipped to 70..100 on the 100-wide image; y 20..30 unchanged.
        XCTAssertEqual(ok[1].box.minX, 70, accuracy: 1e-9); XCTAssertEqual(ok[1].box.maxX, 100, accuracy: 1e-9)
        XCTAssertEqual(ok[1].box.minY, 20, accuracy: 1e-9); XCTAssertEqual(ok[1].box.height, 10, accuracy: 1e-9)
        // The fixed set only keeps the problems a person has to decide.
        let recheck = try DatasetChecker.check(out)
        XCTAssertEqual(recheck.issues.map(\.kind), [.duplicateImage, .imageInTwoSplits])
        // The original is untouched.
        let original = try String(contentsOf: try Fixtures.url("yolo-problems/labels/ok.txt"), encoding: .utf8)
        XCTAssertEqual(original.split(separator: "\n").count, 7)
    }

    func testFixRefusesToWriteOverTheSourceOrIntoAFullFolder() throws {
        let report = try report()
        let (fixed, _) = DatasetFixer.fix(report)
        XCTAssertThrowsError(try DatasetFixer.write(fixed, sourceFormat: .yolo, to: try Fixtures.url("yolo-problems"))) {
            XCTAssertTrue("\($0)".contains("the original is never edited"), "\($0)")
        }
        XCTAssertThrowsError(try DatasetFixer.write(fixed, sourceFormat: .yolo, to: try Fixtures.url("yolo-basic"))) {
            XCTAssertTrue("\($0)".contains("is not empty"), "\($0)")
        }
    }

    func testStaleManifestSizeIsReported() throws {
        let folder = try Fixtures.temporaryFolder(self)
        let dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        try YOLOWriter.write(dataset, to: folder)
        try "image\twidth\theight\nscreen1.png\t40\t20\nscreen2.png\t31\t30\n".write(
            to: folder.appendingPathComponent("manifest.tsv"), atomically: true, encoding: .utf8)
        let issues = try DatasetChecker.check(folder).issues
        XCTAssertEqual(issues.map(\.kind), [.manifestMismatch])
        XCTAssertTrue(issues[0].message.contains("screen2.png is listed as 31x30 but the image is 30x30"), issues[0].message)
    }
}
