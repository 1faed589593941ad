import Foundation
import XCTest
@testable import Data

final class COCOFormatTests: XCTestCase {
    /// coco-basic: categories 10, 3, 7 (listed out of order), images 17 and 4, one iscrowd box.
    func testReadKeepsIDsOrdersClassesByCategoryIDAndSkipsCrowds() throws {
        let dataset = try COCOReader.read(try Fixtures.url("coco-basic/instances.json"))
        XCTAssertEqual(dataset.classes, ["Text", "Icon", "Toggle (Selected)"])
        XCTAssertEqual(dataset.cocoCategoryIDs, [3, 7, 10])
        XCTAssertEqual(dataset.samples.map(\.cocoImageID), [17, 4])
        XCTAssertEqual(dataset.samples.map(\.id), ["s1", "s2"])
        XCTAssertEqual(dataset.root.lastPathComponent, "coco-basic")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dataset.imageURL(of: dataset.samples[0]).path))
        let s1 = dataset.samples[0].annotations
        XCTAssertEqual(s1.map(\.classIndex), [0, 2])
        XCTAssertEqual(s1[0].box, BoundingBox(x: 1.5, y: 2, width: 10, height: 4.25))
        XCTAssertEqual(s1[1].selected, true)
        XCTAssertNil(s1[0].selected)
        XCTAssertEqual(dataset.samples[1].annotations.map(\.box), [BoundingBox(x: 3, y: 4, width: 5, height: 6)])
        XCTAssertEqual(dataset.notes.count, 1)
        XCTAssertTrue(dataset.notes[0].contains("skipped 1 iscrowd"), dataset.notes[0])
    }

    func testRoundTripIsExactAndKeepsIDsGroupsSplitsAndStates() throws {
        var dataset = try COCOReader.read(try Fixtures.url("coco-basic/instances.json"))
        dataset.samples[1].group = "com.example.app"
        dataset.samples[0].annotations[0].clickable = false
        dataset.samples[0].annotations[0].box = BoundingBox(x: 0.1 + 0.2, y: 1.0 / 3, width: 2.0 / 3, height: 1e-7)
        dataset.splits = ["train": [0], "test": [1]]
        dataset.notes = []
        let url = try Fixtures.temporaryFolder(self).appendingPathComponent("sub/out.json")
        try COCOWriter.write(dataset, to: url)
        var back = try COCOReader.read(url)
        XCTAssertEqual(back.root.standardizedFileURL, url.deletingLastPathComponent().standardizedFileURL)
        // file_name is written relative to the new JSON's folder (or absolute) and still reaches the image.
        XCTAssertEqual(back.imageURL(of: back.samples[0]).standardizedFileURL, dataset.imageURL(of: dataset.samples[0]).standardizedFileURL)
        for i in back.samples.indices { back.samples[i].imagePath = dataset.samples[i].imagePath }
        back.root = dataset.root
        XCTAssertEqual(back, dataset)
    }

    func testYOLOToCOCOToYOLOKeepsBoxes() throws {
        let yolo = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        let folder = try Fixtures.temporaryFolder(self)
        try COCOWriter.write(yolo, to: folder.appendingPathComponent("all.json"))
        let coco = try COCOReader.read(folder.appendingPathComponent("all.json"))
        XCTAssertEqual(coco.classes, yolo.classes)
        XCTAssertEqual(coco.cocoCategoryIDs, [1, 2, 3])
        XCTAssertEqual(coco.samples.map(\.cocoImageID), [1, 2, 3])
        XCTAssertEqual(coco.splits, yolo.splits)
        XCTAssertEqual(coco.samples.map(\.annotations), yolo.samples.map(\.annotations))
        try YOLOWriter.write(coco, to: folder.appendingPathComponent("yolo"))
        let again = try YOLOReader.read(folder.appendingPathComponent("yolo"))
        for (a, b) in zip(again.samples.flatMap(\.annotations), yolo.samples.flatMap(\.annotations)) {
            XCTAssertEqual(a.classIndex, b.classIndex)
            XCTAssertEqual(a.box.x, b.box.x, accuracy: 1e-9); XCTAssertEqual(a.box.maxY, b.box.maxY, accuracy: 1e-9)
        }
    }

    /// A converted folder also trains in Ultralytics: data.yaml names the classes in order (quoted:
    /// names hold parentheses and could hold `:`), and its split lists use `./images/...`, the
    /// relative form Ultralytics resolves against the list's folder; every listed image exists.
    func testYOLOOutputHasAnUltralyticsDataYAML() throws {
        let yolo = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        let folder = try Fixtures.temporaryFolder(self).appendingPathComponent("out")
        var renamed = yolo
        renamed.classes[0] = "Checkbox (Selected): a # test \"quoted\""
        try YOLOWriter.write(renamed, to: folder)
        let yaml = try String(contentsOf: folder.appendingPathComponent("data.yaml"), encoding: .utf8)
        XCTAssertTrue(yaml.contains("train: train.txt\nval: val.txt\n"), yaml)
        XCTAssertFalse(yaml.contains("test:"), "no test split in the fixture: \(yaml)")
        XCTAssertTrue(yaml.contains(#"  0: "Checkbox (Selected): a # test \"quoted\"""#), yaml)
        for (index, name) in renamed.classes.enumerated().dropFirst() { XCTAssertTrue(yaml.contains("  \(index): \"\(name)\"\n"), yaml) }
        for split in ["train", "val"] {
            let lines = try String(contentsOf: folder.appendingPathComponent("\(split).txt"), encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(lines.count, yolo.splits[split]?.count)
            for line in lines {
                XCTAssertTrue(line.hasPrefix("./images/"), String(line))
                XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(String(line.dropFirst(2))).path), String(line))
            }
        }
        let again = try YOLOReader.read(folder)
        XCTAssertEqual(again.classes, renamed.classes, "ScreenLab still reads classes.txt")
        XCTAssertEqual(again.splits, yolo.splits)
    }

    func testBadReferencesAreErrorsNamingTheAnnotation() throws {
        let folder = try Fixtures.temporaryFolder(self)
        let url = folder.appendingPathComponent("bad.json")
        try #"{"images":[{"id":1,"file_name":"a.png","width":4,"height":4}],"categories":[{"id":1,"name":"Text"}],"annotations":[{"id":9,"image_id":2,"category_id":1,"bbox":[0,0,1,1]}]}"#
            .write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try COCOReader.read(url)) { XCTAssertTrue("\($0)".contains("annotation id 9: image_id 2"), "\($0)") }
        try #"{"images":[],"categories":[{"id":1,"name":"Text"}]}"#.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try COCOReader.read(url)) { XCTAssertTrue("\($0)".contains("missing key 'annotations'"), "\($0)") }
        try #"{"images":[],"categories":[],"annotations":[{"id":1,"image_id":1,"category_id":1,"bbox":[0,0,"a",1]}]}"#
            .write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try COCOReader.read(url)) { XCTAssertTrue("\($0)".contains("annotations[0].bbox[2]"), "\($0)") }
    }

    /// Each bad value is named by file, path, and entry id; JSON syntax errors by line and column.
    func testMalformedFilesNameTheKeyAndTheEntry() throws {
        let folder = try Fixtures.temporaryFolder(self)
        let url = folder.appendingPathComponent("bad.json")
        func error(_ json: String) throws -> String {
            try json.write(to: url, atomically: true, encoding: .utf8)
            do { _ = try COCOReader.read(url); return "no error" } catch { return "\(error)" }
        }
        let image = #"{"id":1,"file_name":"a.png","width":4,"height":4}"#, category = #"{"id":1,"name":"Text"}"#
        func file(annotation: String) -> String { #"{"images":[\#(image)],"categories":[\#(category)],"annotations":[\#(annotation)]}"# }
        XCTAssertEqual(try error(file(annotation: #"{"id":5,"image_id":1,"bbox":[0,0,1,1]}"#)),
                       "\(url.path): missing key 'category_id' at annotations[0] (id 5)")
        XCTAssertEqual(try error(file(annotation: #"{"id":5,"image_id":1.5,"category_id":1,"bbox":[0,0,1,1]}"#)),
                       "\(url.path): wrong type at annotations[0].image_id (id 5): expected an integer, found 1.5")
        XCTAssertEqual(try error(file(annotation: #"{"id":5,"image_id":null,"category_id":1,"bbox":[0,0,1,1]}"#)),
                       "\(url.path): null value at annotations[0].image_id (id 5)")
        XCTAssertEqual(try error(file(annotation: #"{"id":5,"image_id":1,"category_id":1,"bbox":[0,0,1,1],"attributes":{"selected":1}}"#)),
                       "\(url.path): wrong type at annotations[0].attributes.selected (id 5): expected true or false, found 1")
        XCTAssertEqual(try error(#"{"images":[\#(image)],"categories":[{"id":1}],"annotations":[]}"#),
                       "\(url.path): missing key 'name' at categories[0] (id 1)")
        XCTAssertEqual(try error("[]"), "\(url.path): not a COCO instances JSON: expected an object with images, annotations and categories, found an array")
        XCTAssertEqual(try error("{\"images\": [],\n \"annotations\": [}"), "\(url.path):2: not valid JSON (column 18): unexpected character '}'")
        // Python's json writes NaN: the file reads, and the annotation holding it is the error.
        XCTAssertEqual(try error(file(annotation: #"{"id":5,"image_id":1,"category_id":1,"bbox":[0,NaN,1,1]}"#)),
                       "\(url.path): invalid annotation: annotation id 5: bbox must be 4 finite numbers [x, y, width, height]")
        // Optional keys may be null or absent; unknown keys (segmentation) are ignored, a repeated key keeps the last value.
        try file(annotation: #"{"id":5,"image_id":1,"category_id":1,"bbox":[9,9,9,9],"area":null,"segmentation":[[1,2,3]],"bbox":[0,0.1,1,2]}"#)
            .write(to: url, atomically: true, encoding: .utf8)
        XCTAssertEqual(try COCOReader.read(url).samples[0].annotations.map(\.box), [BoundingBox(x: 0, y: 0.1, width: 1, height: 2)])
    }

    func testSampleIDsDropExtensionAndImagesFolder() {
        XCTAssertEqual(COCOReader.sampleID(fileName: "images/s1.png"), "s1")
        XCTAssertEqual(COCOReader.sampleID(fileName: "../images/train/a.jpg"), "train/a")
        XCTAssertEqual(COCOReader.sampleID(fileName: "val/b.jpeg"), "val/b")
        XCTAssertEqual(COCOReader.sampleID(fileName: "/data/images/c.png"), "c")
    }

    func testRelativePathWalksUpWithDotDot() {
        let path = COCOWriter.relativePath(URL(fileURLWithPath: "/a/b/images/x.png"), from: URL(fileURLWithPath: "/a/c/d"))
        XCTAssertEqual(path, "../../b/images/x.png")
        XCTAssertEqual(COCOWriter.relativePath(URL(fileURLWithPath: "/a/x.png"), from: URL(fileURLWithPath: "/a")), "x.png")
        XCTAssertEqual(COCOWriter.relativePath(URL(fileURLWithPath: "/x.png"), from: URL(fileURLWithPath: "/a")), "/x.png")
    }
}
