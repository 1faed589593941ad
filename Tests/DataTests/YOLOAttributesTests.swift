import Foundation
import XCTest
@testable import Data

/// Element states (`selected`, `clickable`) survive YOLO output in `attributes.tsv`, while the
/// label files stay plain five-field YOLO lines.
final class YOLOAttributesTests: XCTestCase {
    func testYOLOToYOLOKeepsStatesAndLabelFilesStayStandard() throws {
        var dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        dataset.samples[0].annotations[0].clickable = true                 // screen1 line 1
        dataset.samples[0].annotations[1].selected = false                 // screen1 line 2
        dataset.samples[0].annotations[1].clickable = false
        let out = try Fixtures.temporaryFolder(self).appendingPathComponent("out")
        try YOLOWriter.write(dataset, to: out)

        let tsv = try String(contentsOf: out.appendingPathComponent("attributes.tsv"), encoding: .utf8)
        XCTAssertEqual(tsv, "image\tline\tclass\tselected\tclickable\nscreen1.png\t1\t0\t\ttrue\nscreen1.png\t2\t1\tfalse\tfalse\n")
        let label = try String(contentsOf: out.appendingPathComponent("labels/screen1.txt"), encoding: .utf8)
        XCTAssertTrue(label.split(separator: "\n").allSatisfy { $0.split(separator: " ").count == 5 }, label)

        let back = try YOLOReader.read(out)
        XCTAssertEqual(back.samples.flatMap(\.annotations).map(\.clickable), [true, false, nil])
        XCTAssertEqual(back.samples.flatMap(\.annotations).map(\.selected), [nil, false, nil])
        // Written again from what was read: the same sidecar.
        let again = try Fixtures.temporaryFolder(self).appendingPathComponent("again")
        try YOLOWriter.write(back, to: again)
        XCTAssertEqual(try String(contentsOf: again.appendingPathComponent("attributes.tsv"), encoding: .utf8), tsv)
    }

    func testCOCOToYOLOToCOCOKeepsStates() throws {
        var dataset = try COCOReader.read(try Fixtures.url("coco-basic/instances.json"))
        dataset.samples[1].annotations[0].clickable = true
        let yolo = try Fixtures.temporaryFolder(self).appendingPathComponent("yolo")
        try YOLOWriter.write(dataset, to: yolo)
        let viaYOLO = try YOLOReader.read(yolo)
        let json = try Fixtures.temporaryFolder(self).appendingPathComponent("annotations.json")
        try COCOWriter.write(viaYOLO, to: json)
        let back = try COCOReader.read(json)
        XCTAssertEqual(back.samples.map { $0.annotations.map(\.selected) }, [[nil, true], [nil]])
        XCTAssertEqual(back.samples.map { $0.annotations.map(\.clickable) }, [[nil, nil], [true]])
        XCTAssertEqual(back.samples.map { $0.annotations.map(\.classIndex) }, dataset.samples.map { $0.annotations.map(\.classIndex) })
    }

    func testNoStatesNoSidecarAndAStaleOneIsRemoved() throws {
        let dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        let out = try Fixtures.temporaryFolder(self)
        try "image\tline\tclass\tselected\tclickable\nscreen1.png\t1\t0\t\ttrue\n".write(
            to: out.appendingPathComponent("attributes.tsv"), atomically: true, encoding: .utf8)
        try YOLOWriter.write(dataset, to: out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("attributes.tsv").path))
        XCTAssertTrue(try YOLOReader.read(out).samples.flatMap(\.annotations).allSatisfy { $0.clickable == nil && $0.selected == nil })
    }

    /// A label file edited by another tool after the sidecar was written: a row pointing at a
    /// line of another class, or at a line with no box, is an error naming attributes.tsv's line.
    func testRowsThatNoLongerMatchTheLabelFileAreErrors() throws {
        var dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        dataset.samples[0].annotations[1].selected = true
        let out = try Fixtures.temporaryFolder(self)
        try YOLOWriter.write(dataset, to: out)
        let label = out.appendingPathComponent("labels/screen1.txt")
        let lines = try String(contentsOf: label, encoding: .utf8).split(separator: "\n")
        try (lines.reversed().joined(separator: "\n") + "\n").write(to: label, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try YOLOReader.read(out)) { error in
            XCTAssertTrue("\(error)".hasSuffix("attributes.tsv:2: invalid annotation: says class 1 for \(label.path):2, which has class 0; "
                                               + "the label file changed after attributes.tsv was written: fix or delete the row"), "\(error)")
        }
        try (lines[0] + "\n").write(to: label, atomically: true, encoding: .utf8)
        let issues = IssueCollector(strict: false)
        _ = try YOLOReader.read(out, issues: issues)
        XCTAssertEqual(issues.issues.map(\.message), ["\(label.path) has no box on line 2; the label file changed after attributes.tsv was written: fix or delete the row"])
    }

    func testMalformedRowNamesItsLine() throws {
        let out = try Fixtures.temporaryFolder(self)
        try YOLOWriter.write(try YOLOReader.read(try Fixtures.url("yolo-basic")), to: out)
        try "image\tline\tclass\tselected\tclickable\nscreen1.png\t0\t0\tyes\t\n".write(
            to: out.appendingPathComponent("attributes.tsv"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try YOLOReader.read(out)) { error in
            XCTAssertTrue("\(error)".contains("attributes.tsv:2: expected image, line (≥ 1), class (≥ 0), selected, clickable"), "\(error)")
        }
    }
}
