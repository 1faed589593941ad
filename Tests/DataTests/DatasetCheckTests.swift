import Foundation
import XCTest
@testable import Data

/// yolo-problems (see Fixtures/make_fixtures.py): ok.png 100x50 with label lines
/// 1 fine, 2 leaving the image, 3 zero width, 4 class 5 of 2, 5 four fields, 6 NaN, 7 "abc",
/// 8 negative width; dup.png = ok.png's bytes; corrupt.png is text; missing.png is listed but
/// absent; shared.png is in train and val; cut.jpg lacks its end marker; train.txt line 7 lists
/// ok.png again; undecodable.png is complete but its pixel data is garbage; labels/ghost.txt has no image.
final class DatasetCheckTests: XCTestCase {
    func report() throws -> CheckReport { try DatasetChecker.check(try Fixtures.url("yolo-problems")) }

    func issues(_ report: CheckReport, _ kind: DatasetIssue.Kind) -> [DatasetIssue] { report.issues.filter { $0.kind == kind } }

    func testEveryProblemTypeIsFoundOnceWithFileAndLine() throws {
        let report = try report()
        let counts = Dictionary(uniqueKeysWithValues: report.counts.map { ($0.kind, $0.count) })
        XCTAssertEqual(counts, [.missingImage: 1, .unreadableImage: 1, .truncatedImage: 1, .imageSizeMismatch: 0, .malformedLine: 3,
                                .unknownClass: 1, .boxOutsideImage: 1, .zeroAreaBox: 2, .duplicateImage: 1, .imageInTwoSplits: 1,
                                .duplicateListEntry: 1, .orphanLabel: 1, .manifestMismatch: 0, .invalidAnnotation: 0])
        func located(_ kind: DatasetIssue.Kind) -> [String] {
            issues(report, kind).map { "\(($0.file as NSString).lastPathComponent):\($0.line.map(String.init) ?? "-")" }
        }
        XCTAssertEqual(located(.missingImage), ["train.txt:4"])
        XCTAssertEqual(located(.unreadableImage), ["corrupt.png:-"])
        XCTAssertEqual(located(.malformedLine), ["ok.txt:5", "ok.txt:6", "ok.txt:7"])
        XCTAssertEqual(located(.unknownClass), ["ok.txt:4"])
        XCTAssertEqual(located(.boxOutsideImage), ["ok.txt:2"])
        XCTAssertEqual(located(.zeroAreaBox), ["ok.txt:3", "ok.txt:8"])
        XCTAssertEqual(located(.truncatedImage), ["cut.jpg:-"])
        XCTAssertEqual(located(.duplicateListEntry), ["train.txt:7"])
        XCTAssertTrue(issues(report, .zeroAreaBox)[0].message.hasSuffix("has no area"), issues(report, .zeroAreaBox)[0].message)
        XCTAssertTrue(issues(report, .zeroAreaBox)[1].message.hasSuffix("has a negative width"), issues(report, .zeroAreaBox)[1].message)
        XCTAssertTrue(issues(report, .truncatedImage)[0].message.contains("does not end with the end-of-image marker FF D9"))
        XCTAssertEqual(issues(report, .duplicateListEntry)[0].message,
                       "images/ok.png is already listed on line 1; the second listing is ignored")
        XCTAssertEqual(report.dataset.splits["train"]?.map { report.dataset.samples[$0].id }, ["ok", "dup", "shared", "undecodable"])
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
        let found = try DatasetChecker.check(folder).issues
        XCTAssertEqual(found.map(\.kind), [.truncatedImage])
        XCTAssertEqual(found.first?.file, folder.appendingPathComponent("images/cut.png").standardizedFileURL.path)
        XCTAssertTrue(found.first?.message.contains("PNG has no IEND chunk at its end; the 40-byte file ends with") == true, "\(found)")
        // Trailing zero padding after IEND is accepted.
        try (bytes + Data(repeating: 0, count: 100)).write(to: folder.appendingPathComponent("images/cut.png"))
        XCTAssertEqual(try DatasetChecker.check(folder).issues, [])
    }

    func testDecodeFindsCorruptDataTheEndCheckMissesAndFixLeavesItOut() throws {
        let plain = try report()
        XCTAssertFalse(plain.issues.contains { $0.file.hasSuffix("undecodable.png") })
        let decoded = try DatasetChecker.check(try Fixtures.url("yolo-problems"), options: .init(decodeImages: true))
        XCTAssertEqual(issues(decoded, .unreadableImage).map { ($0.file as NSString).lastPathComponent }, ["corrupt.png", "undecodable.png"])
        XCTAssertTrue(issues(decoded, .unreadableImage)[1].message.hasPrefix("decoding failed: "))
        XCTAssertEqual(decoded.dataset.samples.map(\.id), ["ok", "dup", "shared"])
        let (fixed, summary) = DatasetFixer.fix(decoded)
        XCTAssertTrue(summary.droppedAtLoad.contains { $0.contains("undecodable.png") })
        let out = try Fixtures.temporaryFolder(self).appendingPathComponent("fixed")
        try DatasetFixer.write(fixed, sourceFormat: .yolo, to: out)
        let fm = FileManager.default
        XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent("images/undecodable.png").path))
        XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent("labels/undecodable.txt").path))
        XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent("images/cut.jpg").path))
        let train = try String(contentsOf: out.appendingPathComponent("splits/train.txt"), encoding: .utf8)
        XCTAssertEqual(train, "images/ok.png\nimages/dup.png\nimages/shared.png\n")
    }

    /// coco-problems: s1.png is 40x20 but the JSON says 41; gone.png does not exist; cut.png lacks IEND.
    func testCOCOCheckOpensEveryImageAndNamesTheEntry() throws {
        let json = try Fixtures.url("coco-problems/instances.json")
        let report = try DatasetChecker.check(json)
        XCTAssertEqual(report.issues.map(\.kind), [.imageSizeMismatch, .missingImage, .truncatedImage])
        XCTAssertEqual(report.issues.map { ($0.file as NSString).lastPathComponent }, ["instances.json", "instances.json", "cut.png"])
        XCTAssertTrue(report.issues[0].message.hasPrefix("image id 1 'images/s1.png' has width 41, height 20 but the image is 40x20"),
                      report.issues[0].message)
        XCTAssertTrue(report.issues[1].message.hasPrefix("image id 2 'images/gone.png': "), report.issues[1].message)
        XCTAssertTrue(report.issues[1].message.hasSuffix("coco-problems/images/gone.png does not exist"), report.issues[1].message)
        // The header's size wins; the missing and truncated images and their boxes are left out.
        XCTAssertEqual(report.dataset.samples.map(\.cocoImageID), [1])
        XCTAssertEqual(report.dataset.samples[0].width, 40)
        let (fixed, summary) = DatasetFixer.fix(report)
        XCTAssertEqual(summary.correctedSizes.count, 1)
        XCTAssertEqual(summary.droppedAtLoad.count, 2)
        let out = try Fixtures.temporaryFolder(self).appendingPathComponent("fixed")
        try DatasetFixer.write(fixed, sourceFormat: .coco, to: out)
        XCTAssertEqual(try DatasetChecker.check(out.appendingPathComponent("annotations.json")).issues, [])
        // A strict load (training) still trusts the JSON and does not open the images.
        XCTAssertEqual(try COCOReader.read(json).samples.map(\.width), [41, 30, 48])
    }

    func testRemediesAreSaidOnceForTheWholeReport() throws {
        let remedies = try report().remedies(datasetArgument: "data/x")
        XCTAssertEqual(remedies.count, 2)
        XCTAssertTrue(remedies[0].contains("run `screenlab data check data/x --fix --out DIR`"), remedies[0])
        XCTAssertTrue(remedies[1].hasPrefix("duplicate images and images in two splits are not changed by --fix"), remedies[1])
        XCTAssertFalse(try report().issues.contains { $0.message.contains("--fix") })
        XCTAssertEqual(try DatasetChecker.check(try Fixtures.url("yolo-basic")).remedies(datasetArgument: "x"), [])
    }

    func testALabelPathThatIsAFolderIsReportedInPlainWords() throws {
        let folder = try Fixtures.temporaryFolder(self)
        let bytes = try Data(contentsOf: try Fixtures.url("yolo-basic/images/screen1.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try bytes.write(to: folder.appendingPathComponent("images/a.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("labels/a.txt"), withIntermediateDirectories: true)
        try "Text\n".write(to: folder.appendingPathComponent("classes.txt"), atomically: true, encoding: .utf8)
        let found = try DatasetChecker.check(folder).issues
        XCTAssertEqual(found.map(\.kind), [.malformedLine])
        XCTAssertEqual(found.first?.message, "label file is a folder, not a file")
        XCTAssertTrue(found.first?.file.hasSuffix("labels/a.txt") == true)
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
        XCTAssertEqual(summary.droppedBoxes.count, 2)
        XCTAssertTrue(summary.droppedBoxes[0].contains("ok.txt:3"), summary.droppedBoxes[0])
        XCTAssertTrue(summary.droppedBoxes[1].contains("ok.txt:8"), summary.droppedBoxes[1])
        // 3 malformed, 1 unknown class, corrupt, missing and truncated image, ok.png listed twice, ghost label
        XCTAssertEqual(summary.droppedAtLoad.count, 9)
        XCTAssertEqual(summary.leftAsIs.count, 2)        // the duplicate and the image in two splits
        let out = try Fixtures.temporaryFolder(self).appendingPathComponent("fixed")
        try DatasetFixer.write(fixed, sourceFormat: .yolo, to: out)

        let back = try YOLOReader.read(out)
        XCTAssertEqual(back.samples.map(\.id), ["ok", "dup", "shared", "undecodable"])
        XCTAssertEqual(back.splits["train"]?.map { back.samples[$0].id }, ["ok", "dup", "shared", "undecodable"])
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
        XCTAssertEqual(original.split(separator: "\n").count, 8)
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
