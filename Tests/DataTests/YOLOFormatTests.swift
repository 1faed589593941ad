import Foundation
import XCTest
@testable import Data

final class YOLOFormatTests: XCTestCase {
    func boxValues(_ box: BoundingBox) -> [Double] { [box.x, box.y, box.width, box.height] }

    /// yolo-basic: screen1 40x20, screen2 30x30 (a polygon label, CRLF), screen3 20x40 without labels.
    func testReadsBasicFolderWithHeaderSizesPolygonAndSplits() throws {
        let dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        XCTAssertEqual(dataset.classes, ["Text", "Icon", "Container"])
        XCTAssertEqual(dataset.samples.map(\.id), ["screen1", "screen2", "screen3"])
        XCTAssertEqual(dataset.samples.map(\.imagePath), ["images/screen1.png", "images/screen2.png", "images/screen3.png"])
        XCTAssertEqual(dataset.samples.map(\.width), [40, 30, 20])
        XCTAssertEqual(dataset.samples.map(\.height), [20, 30, 40])
        XCTAssertEqual(dataset.splits, ["train": [0, 1], "val": [2]])
        let first = dataset.samples[0].annotations
        XCTAssertEqual(first.map(\.classIndex), [0, 1])
        // 0 0.5 0.5 0.5 0.5 on 40x20: x = (0.5 - 0.25) * 40 = 10, y = 5, w = 20, h = 10.
        XCTAssertBoxesEqual(boxValues(first[0].box), [10, 5, 20, 10])
        // 1 0.25 0.25 0.1 0.2: x = (0.25 - 0.05) * 40 = 8, y = (0.25 - 0.1) * 20 = 3, w = 4, h = 4.
        XCTAssertBoxesEqual(boxValues(first[1].box), [8, 3, 4, 4])
        // Polygon (0.2,0.3) (0.6,0.4) (0.6,0.5) (0.2,0.5) on 30x30 encloses x 6..18, y 9..15.
        XCTAssertEqual(dataset.samples[1].annotations.map(\.classIndex), [2])
        XCTAssertBoxesEqual(boxValues(dataset.samples[1].annotations[0].box), [6, 9, 12, 6])
        XCTAssertTrue(dataset.samples[2].annotations.isEmpty)
    }

    func testReadsUltralyticsDataYAMLWithNamesDictFolderAndDotSlashList() throws {
        let dataset = try YOLOReader.read(try Fixtures.url("yolo-ultralytics"))
        XCTAssertEqual(dataset.classes, ["Text", "Icon"])
        XCTAssertEqual(dataset.samples.map(\.id), ["train/a", "val/b"])
        XCTAssertEqual(dataset.splits, ["train": [0], "val": [1]])
        XCTAssertEqual(dataset.samples[0].annotations.map(\.classIndex), [1])
        XCTAssertBoxesEqual(boxValues(dataset.samples[0].annotations[0].box), [0, 0, 10, 10])
        // 0 0.5 0.5 0.5 0.2 on 20x10: x 5, y 4, w 10, h 2.
        XCTAssertBoxesEqual(boxValues(dataset.samples[1].annotations[0].box), [5, 4, 10, 2])
    }

    func testLabelLineParsingRejectsBadLinesWithReasons() {
        XCTAssertEqual(YOLOLabelLine.parse("3 0.1 0.2 0.3 0.4"), .success(.box(classIndex: 3, centerX: 0.1, centerY: 0.2, width: 0.3, height: 0.4)))
        XCTAssertEqual(YOLOLabelLine.parse("0\t0.5 0.5  0.1 0.1"), .success(.box(classIndex: 0, centerX: 0.5, centerY: 0.5, width: 0.1, height: 0.1)))
        XCTAssertEqual(YOLOLabelLine.parse("1 0.1 0.2 0.3"), .failure(.wrongFieldCount(4)))
        XCTAssertEqual(YOLOLabelLine.parse("1 0.1 0.2 0.3 0.4 0.5"), .failure(.wrongFieldCount(6)))
        XCTAssertEqual(YOLOLabelLine.parse("1.5 0.1 0.2 0.3 0.4"), .failure(.classNotAnInteger("1.5")))
        XCTAssertEqual(YOLOLabelLine.parse("-1 0.1 0.2 0.3 0.4"), .failure(.negativeClass(-1)))
        XCTAssertEqual(YOLOLabelLine.parse("1 0.1 x 0.3 0.4"), .failure(.notANumber(field: 3, text: "x")))
        XCTAssertEqual(YOLOLabelLine.parse("1 0.1 0.2 nan 0.4"), .failure(.notFinite(field: 4, text: "nan")))
        XCTAssertEqual(YOLOLabelLine.parse("1 0.1 0.2 0.3 inf"), .failure(.notFinite(field: 5, text: "inf")))
    }

    func testStrictReadNamesFileAndLineOfAMalformedLine() throws {
        let folder = try Fixtures.url("yolo-problems")
        XCTAssertThrowsError(try YOLOReader.read(folder)) { error in
            // ok.png comes first; its label line 4 (class 5 of 2) is the first problem in
            // reading order (out-of-image and zero-area boxes are not read errors).
            let text = "\(error)"
            XCTAssertTrue(text.contains("ok.txt:4") && text.contains("unknown class"), text)
        }
    }

    func testNumberFormattingHasNoExponentAndTrimsZeros() {
        XCTAssertEqual(YOLOLabelLine.formatNumber(0.5), "0.5")
        XCTAssertEqual(YOLOLabelLine.formatNumber(1), "1")
        XCTAssertEqual(YOLOLabelLine.formatNumber(1e-7), "0.0000001")
        XCTAssertEqual(YOLOLabelLine.formatNumber(-0.0), "0")
    }

    /// Write → read gives the same samples, boxes (to 1e-9 px), splits and groups.
    func testRoundTripThroughWriterIsLossless() throws {
        let source = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        var dataset = source
        dataset.samples[0].group = "app.one"
        dataset.samples[1].annotations.append(Annotation(classIndex: 0, box: BoundingBox(x: 1.0 / 3, y: 2.0 / 7, width: 11.125, height: 0.001)))
        let out = try Fixtures.temporaryFolder(self).appendingPathComponent("copy")
        try YOLOWriter.write(dataset, to: out)
        let back = try YOLOReader.read(out)
        XCTAssertEqual(back.classes, dataset.classes)
        XCTAssertEqual(back.splits, dataset.splits)
        XCTAssertEqual(back.samples.map(\.id), dataset.samples.map(\.id))
        XCTAssertEqual(back.samples.map(\.group), ["app.one", nil, nil])
        for (a, b) in zip(back.samples, dataset.samples) {
            XCTAssertEqual(a.width, b.width); XCTAssertEqual(a.height, b.height)
            XCTAssertEqual(a.annotations.map(\.classIndex), b.annotations.map(\.classIndex))
            for (x, y) in zip(a.annotations, b.annotations) { XCTAssertBoxesEqual(boxValues(x.box), boxValues(y.box), accuracy: 1e-9) }
        }
        // Images are links to the source, not copies.
        let link = out.appendingPathComponent("images/screen1.png").path
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link))
    }

    func testWriterRejectsClassIndexOutsideTheClassList() throws {
        var dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        dataset.samples[0].annotations[0].classIndex = 7
        XCTAssertThrowsError(try YOLOWriter.write(dataset, to: try Fixtures.temporaryFolder(self))) { error in
            XCTAssertTrue("\(error)".contains("class index 7"), "\(error)")
        }
    }

    func testMissingClassNamesIsAnErrorSayingWhatToAdd() throws {
        let folder = try Fixtures.temporaryFolder(self)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try YOLOReader.read(folder)) { error in
            XCTAssertTrue("\(error)".contains("classes.txt"), "\(error)")
        }
    }

    /// The synthetic generator renders into out/images and then writes labels there: the images
    /// must stay, also when the folder is reached through a symlink.
    func testWritingIntoTheImagesOwnFolderKeepsTheImages() throws {
        let folder = try Fixtures.temporaryFolder(self)
        let real = folder.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real.appendingPathComponent("images"), withIntermediateDirectories: true)
        let bytes = try Data(contentsOf: try Fixtures.url("yolo-basic/images/screen1.png"))
        try bytes.write(to: real.appendingPathComponent("images/a.png"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("alias"), withDestinationURL: real)
        let sample = Sample(id: "a", imagePath: "images/a.png", width: 40, height: 20,
                            annotations: [Annotation(classIndex: 0, box: BoundingBox(x: 1, y: 2, width: 3, height: 4))])
        try YOLOWriter.write(Dataset(root: real, classes: ["Text"], samples: [sample]), to: folder.appendingPathComponent("alias"))
        XCTAssertEqual(try Data(contentsOf: real.appendingPathComponent("images/a.png")), bytes)
        XCTAssertEqual(try YOLOReader.read(real).samples.first?.annotations.count, 1)
        // A different dataset must not replace an image file that is already there.
        var renamed = Dataset(root: try Fixtures.url("yolo-basic"), classes: ["Text"],
                            samples: [Sample(id: "a", imagePath: "images/screen1.png", width: 40, height: 20)])
        renamed.samples[0].imagePath = try Fixtures.url("yolo-basic/images/screen2.png").path
        try FileManager.default.copyItem(at: try Fixtures.url("yolo-basic/images/screen1.png"), to: real.appendingPathComponent("images/screen2.png"))
        XCTAssertThrowsError(try YOLOWriter.write(renamed, to: real)) { XCTAssertTrue("\($0)".contains("is not a link"), "\($0)") }
    }

    /// A YOLO folder in a temporary directory with the given text files (path → content).
    func folder(_ files: [String: String]) throws -> URL {
        let root = try Fixtures.temporaryFolder(self)
        for (path, content) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: url, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("images"), withIntermediateDirectories: true)
        return root
    }

    func testConflictingOrRepeatedClassNamesAreErrors() throws {
        let conflicting = try folder(["classes.txt": "Text\nIcon\n", "data.yaml": "names: [Text, Picture]\n"])
        XCTAssertThrowsError(try YOLOReader.read(conflicting)) { XCTAssertTrue("\($0)".contains("classes.txt: class names differ from data.yaml"), "\($0)") }
        let repeated = try folder(["classes.txt": "Text\nIcon\nText\n"])
        XCTAssertThrowsError(try YOLOReader.read(repeated)) { XCTAssertTrue("\($0)".contains("class names repeat"), "\($0)") }
        let gap = try folder(["data.yaml": "names: {0: Text, 2: Icon}\n"])
        XCTAssertThrowsError(try YOLOReader.read(gap)) { XCTAssertTrue("\($0)".contains("indices must be 0..<2 without gaps"), "\($0)") }
        let badSplit = try folder(["data.yaml": "names: [Text]\ntrain: nowhere/images\n"])
        XCTAssertThrowsError(try YOLOReader.read(badSplit)) { XCTAssertTrue("\($0)".contains("'nowhere/images' does not exist"), "\($0)") }
    }

    func testMalformedManifestRowNamesItsLine() throws {
        let root = try folder(["classes.txt": "Text\n", "manifest.tsv": "image\twidth\theight\na.png\t10\t10\nb.png\tten\t10\n"])
        XCTAssertThrowsError(try YOLOReader.read(root)) { error in
            XCTAssertTrue("\(error)".contains("manifest.tsv:3: expected 3 tab-separated fields"), "\(error)")
        }
    }
}
