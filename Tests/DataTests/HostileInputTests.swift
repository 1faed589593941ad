import Foundation
import XCTest
@testable import Data

/// Issue 15, hostile datasets: no crash, no hang, nothing silently wrong.
final class HostileInputTests: XCTestCase {
    /// A copy of yolo-basic to damage.
    func yoloCopy() throws -> URL {
        let folder = try Fixtures.temporaryFolder(self).appendingPathComponent("yolo")
        try FileManager.default.copyItem(at: try Fixtures.url("yolo-basic"), to: folder)
        return folder
    }

    func cocoCopy(_ edit: (inout [String: Any]) -> Void) throws -> URL {
        let folder = try Fixtures.temporaryFolder(self)
        try FileManager.default.copyItem(at: try Fixtures.url("coco-basic/images"), to: folder.appendingPathComponent("images"))
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: try Fixtures.url("coco-basic/instances.json"))) as! [String: Any]
        edit(&json)
        let url = folder.appendingPathComponent("instances.json")
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        return url
    }

    func testAFIFOImageOrLabelFileIsReportedNotWaitedOn() throws {
        let folder = try yoloCopy()
        let label = folder.appendingPathComponent("labels/screen1.txt"), image = folder.appendingPathComponent("images/screen2.png")
        try FileManager.default.removeItem(at: label)
        try FileManager.default.removeItem(at: image)
        XCTAssertEqual(mkfifo(label.path, 0o600), 0)
        XCTAssertEqual(mkfifo(image.path, 0o600), 0)
        // Returning at all is the check: opening either FIFO to read would wait for a writer forever.
        let report = try DatasetChecker.check(folder)
        let messages = report.issues.map(\.description)
        XCTAssertTrue(messages.contains { $0.contains("screen1.txt") && $0.contains("named pipe") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("screen2.png") && $0.contains("named pipe") }, "\(messages)")
        XCTAssertThrowsError(try YOLOReader.read(folder))
    }

    func testALabelFileThatIsASymlinkLoopIsReported() throws {
        let folder = try yoloCopy()
        let label = folder.appendingPathComponent("labels/screen1.txt")
        try FileManager.default.removeItem(at: label)
        XCTAssertEqual(symlink(label.path, label.path), 0)
        XCTAssertThrowsError(try YOLOReader.read(folder)) { error in
            XCTAssertTrue("\(error)".contains("screen1.txt") && "\(error)".contains("loops back"), "\(error)")
        }
    }

    /// `fileExists` says false for a link loop, so a config whose `path:` (or the config itself)
    /// is one used to say only "does not exist".
    func testADatasetConfigOnASymlinkLoopSaysSo() throws {
        let folder = try Fixtures.temporaryFolder(self)
        let loop = folder.appendingPathComponent("data"), dangling = folder.appendingPathComponent("gone")
        XCTAssertEqual(symlink(loop.path, loop.path), 0)
        XCTAssertEqual(symlink(folder.appendingPathComponent("nowhere").path, dangling.path), 0)
        let config = folder.appendingPathComponent("config.yaml")
        XCTAssertThrowsError(try DatasetConfig.parse(yaml: "path: \(loop.path)\n", file: config).load()) { error in
            XCTAssertEqual("\(error)", "\(config.path):1 (path): '\(loop.path)' resolves to \(loop.path), "
                           + "which is a symlink loop (a symbolic link that leads back to itself); fix or remove the link")
        }
        XCTAssertThrowsError(try DatasetConfig.parse(yaml: "path: \(loop.path)/train\n", file: config).load()) { error in
            XCTAssertTrue("\(error)".contains("/train, which is a symlink loop"), "a loop on the way: \(error)")
        }
        XCTAssertThrowsError(try DatasetConfig.parse(yaml: "path: \(dangling.path)\n", file: config).load()) { error in
            XCTAssertTrue("\(error)".hasSuffix("which is a symbolic link to \(folder.path)/nowhere, where nothing exists; fix the link or put the data there"), "\(error)")
        }
        let loopingConfig = folder.appendingPathComponent("loop.yaml")
        XCTAssertEqual(symlink(loopingConfig.path, loopingConfig.path), 0)
        XCTAssertThrowsError(try DatasetConfig.read(loopingConfig)) { error in
            XCTAssertTrue("\(error)".hasPrefix(loopingConfig.path) && "\(error)".contains("symbolic link that loops back on itself"), "\(error)")
        }
        XCTAssertThrowsError(try DatasetLoader.load(loopingConfig.path)) { error in
            XCTAssertTrue("\(error)".hasPrefix(loopingConfig.path) && "\(error)".contains("is a symlink loop"), "\(error)")
        }
    }

    func testCROnlyLineEndingsAreLineBreaks() throws {
        let folder = try yoloCopy()
        try "1 0.25 0.25 0.1 0.2\r2 0.5 0.5 0.2 0.2\r\n0 0.5 0.5 0.5 0.5\r".write(to: folder.appendingPathComponent("labels/screen2.txt"),
                                                                             atomically: true, encoding: .utf8)
        let dataset = try YOLOReader.read(folder)
        let sample = try XCTUnwrap(dataset.samples.first { $0.imagePath == "images/screen2.png" })
        XCTAssertEqual(sample.annotations.map(\.classIndex), [1, 2, 0])
    }

    func testDeeplyNestedDataYAMLAndDatasetConfigAreErrorsNotCrashes() throws {
        let folder = try yoloCopy()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("classes.txt"))
        let deep = "names: " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + "\n"
        try deep.write(to: folder.appendingPathComponent("data.yaml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try YOLOReader.read(folder)) { XCTAssertTrue("\($0)".contains("nested more than"), "\($0)") }
        let config = folder.appendingPathComponent("config.yaml")
        try ("path: .\nmapping: " + String(repeating: "{a: ", count: 20_000) + "\n").write(to: config, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try DatasetConfig.read(config)) { XCTAssertTrue("\($0)".contains("nested more than"), "\($0)") }
    }

    func testARepeatedKeyInADatasetConfigOrDataYAMLIsAnError() throws {
        let folder = try yoloCopy()
        let config = folder.appendingPathComponent("config.yaml")
        try "path: .\npath: ..\n".write(to: config, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try DatasetConfig.read(config)) { XCTAssertTrue("\($0)".contains("config.yaml:2 (path): appears twice (first on line 1); keep one"), "\($0)") }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("classes.txt"))
        try "names: [Text, Icon, Container]\nnames: [A, B, C]\n".write(to: folder.appendingPathComponent("data.yaml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try YOLOReader.read(folder)) { XCTAssertTrue("\($0)".contains("data.yaml:2: 'names': appears twice"), "\($0)") }
    }

    func testAHugeCOCOImageSizeIsRefusedNotOverflowed() throws {
        let url = try cocoCopy { json in
            var images = json["images"] as! [[String: Any]]
            images[0]["width"] = 1 << 40
            json["images"] = images
        }
        XCTAssertThrowsError(try COCOReader.read(url)) { error in
            XCTAssertTrue("\(error)".contains("image id 17") && "\(error)".contains("1099511627776x20"), "\(error)")
        }
        var dataset = Dataset(root: url, classes: ["Text"], samples: [Sample(id: "a", imagePath: "a.png", width: 1 << 40, height: 1 << 40,
            annotations: [Annotation(classIndex: 0, box: BoundingBox(x: 0, y: 0, width: 1, height: 1))])])
        XCTAssertEqual(DatasetStats.compute(dataset).shapes[0]?.boxCount, 1, "stats must not trap on width × height")
        dataset.splits = ["all": [0]]
    }

    func testTwoCategoriesOfOneNameAreAnError() throws {
        let url = try cocoCopy { json in
            var categories = json["categories"] as! [[String: Any]]
            categories[1]["name"] = categories[0]["name"]
            json["categories"] = categories
        }
        XCTAssertThrowsError(try COCOReader.read(url)) { error in
            XCTAssertTrue("\(error)".contains("both named"), "\(error)")
        }
        let newline = try cocoCopy { json in
            var categories = json["categories"] as! [[String: Any]]
            categories[0]["name"] = "Text\nIcon"
            json["categories"] = categories
        }
        XCTAssertThrowsError(try COCOReader.read(newline)) { XCTAssertTrue("\($0)".contains("line break"), "\($0)") }
    }

    func testAnAbsurdCOCOBoxIsReportedNamingTheAnnotation() throws {
        let url = try cocoCopy { json in
            var annotations = json["annotations"] as! [[String: Any]]
            annotations[0]["bbox"] = [1e308, 0, 10, 10]
            json["annotations"] = annotations
        }
        XCTAssertThrowsError(try COCOReader.read(url)) { error in
            XCTAssertTrue("\(error)".contains("annotation id") && "\(error)".contains("far outside"), "\(error)")
        }
    }
}
