import Foundation
import XCTest
@testable import Data

final class DatasetConfigTests: XCTestCase {
    /// A config beside nothing but the fixture: absolute path, so no repo-root lookup.
    func config(_ body: String) throws -> DatasetConfig {
        let file = try Fixtures.temporaryFolder(self).appendingPathComponent("test.yaml")
        return try DatasetConfig.parse(yaml: "path: \(try Fixtures.url("yolo-basic").path)\n" + body, file: file)
    }

    func testMappingRemapsIgnoresAndSetsClickable() throws {
        let dataset = try config("""
            taxonomy: screen-recognition
            mapping:
              Text: Text
              Icon: ignore
              Container: {class: Container, clickable: true}
            """).load()
        XCTAssertEqual(dataset.classes, Taxonomy.screenRecognition.classes)
        let text = Taxonomy.screenRecognition.index(of: "Text")!, container = Taxonomy.screenRecognition.index(of: "Container")!
        // screen1 had Text + Icon: the Icon is dropped; screen2's Container is clickable.
        XCTAssertEqual(dataset.samples[0].annotations.map(\.classIndex), [text])
        XCTAssertEqual(dataset.samples[1].annotations.map(\.classIndex), [container])
        XCTAssertEqual(dataset.samples[1].annotations[0].clickable, true)
        XCTAssertNil(dataset.samples[0].annotations[0].clickable)
        XCTAssertTrue(dataset.notes.contains { $0.contains("ignored boxes of Icon 1") }, "\(dataset.notes)")
    }

    func testExtendedTaxonomyAppendsClasses() throws {
        let dataset = try config("""
            taxonomy: {name: sr-plus, extends: screen-recognition, add: [Toggle]}
            mapping: {Text: Text, Icon: Icon, Container: Toggle}
            """).load()
        XCTAssertEqual(dataset.classes.count, 14)
        XCTAssertEqual(dataset.classes.last, "Toggle")
        XCTAssertEqual(dataset.samples[1].annotations.map(\.classIndex), [13])
    }

    func testNoTaxonomyKeepsSourceClasses() throws {
        let dataset = try config("description: as is\n").load()
        XCTAssertEqual(dataset.classes, ["Text", "Icon", "Container"])
        XCTAssertEqual(dataset.samples[0].annotations.count, 2)
    }

    func testUnknownKeyIsAnErrorNamingFileLineAndKey() throws {
        XCTAssertThrowsError(try config("taxonmy: screen-recognition\n")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("test.yaml:2 (taxonmy): unknown key — did you mean 'taxonomy'? (known here: description, format,"), text)
        }
        XCTAssertThrowsError(try config("taxonomy: screen-recognition\nmapping:\n  Text: {class: Text, clikable: true}\n")) { error in
            XCTAssertTrue("\(error)".contains(":4 (mapping.Text.clikable): unknown key — did you mean 'clickable'? (known here: class, clickable)"), "\(error)")
        }
    }

    func testUnknownTargetClassNamesTheSourceKeyAndLine() throws {
        XCTAssertThrowsError(try config("taxonomy: screen-recognition\nmapping:\n  Text: Txet\n")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(":4 (mapping.Text): 'Txet' is not a target class; use ignore or one of: "), text)
            XCTAssertTrue(text.hasSuffix(" — did you mean 'Text'?"), text)
        }
    }

    func testUnknownSourceClassAndUnmappedClassAreErrors() throws {
        let typo = try config("taxonomy: screen-recognition\nmapping:\n  Text: Text\n  Icn: Icon\n  Container: Container\n")
        XCTAssertThrowsError(try typo.load()) { error in
            XCTAssertTrue("\(error)".contains(":5 (mapping.Icn): not a source class; the data has: Text, Icon, Container — did you mean 'Icon'?"), "\(error)")
        }
        let missing = try config("taxonomy: screen-recognition\nmapping:\n  Text: Text\n")
        XCTAssertThrowsError(try missing.load()) { error in
            XCTAssertTrue("\(error)".contains("no entry for source classes Icon, Container"), "\(error)")
        }
        // Without mapping: classes map by name, so a source class missing from the taxonomy is an error.
        let unnamed = try config("taxonomy: {name: texts, classes: [Text, Container]}\n")
        XCTAssertThrowsError(try unnamed.load()) { error in
            XCTAssertTrue("\(error)".contains("source class 'Icon' is not in taxonomy texts"), "\(error)")
        }
    }

    func testSourceClassesMustMatchTheData() throws {
        let wrong = try config("source_classes: [Text, Icon]\n")
        XCTAssertThrowsError(try wrong.load()) { XCTAssertTrue("\($0)".contains("(source_classes): the data at"), "\($0)") }
        XCTAssertThrowsError(try config("format: yolov8\n")) { XCTAssertTrue("\($0)".contains("(format): 'yolov8' is not one of yolo, coco — did you mean 'yolo'?"), "\($0)") }
        XCTAssertThrowsError(try config("taxonomy: coco\n")) { XCTAssertTrue("\($0)".contains("unknown taxonomy 'coco'"), "\($0)") }
    }

    func testRelativePathsResolveAgainstTheRepoRoot() throws {
        let root = try Fixtures.temporaryFolder(self)
        try Data().write(to: root.appendingPathComponent("Package.swift"))
        let file = root.appendingPathComponent("Configs/datasets/x.yaml")
        let config = try DatasetConfig.parse(yaml: "path: ../shared/datasets/x\n", file: file)
        if ProcessInfo.processInfo.environment["SCREENLAB_SHARED"] == nil {
            XCTAssertEqual(config.dataURL.path, root.deletingLastPathComponent().appendingPathComponent("shared/datasets/x").standardizedFileURL.path)
        }
    }

    /// On a fresh clone `../shared` is absent: the message says how to point the config elsewhere.
    func testAMissingSharedFolderSuggestsScreenlabShared() throws {
        let root = try Fixtures.temporaryFolder(self)
        try Data().write(to: root.appendingPathComponent("Package.swift"))
        let file = root.appendingPathComponent("Configs/datasets/x.yaml")
        let config = try DatasetConfig.parse(yaml: "description: test\npath: ../shared/datasets/nowhere-\(UUID().uuidString)\n", file: file)
        XCTAssertThrowsError(try config.load()) { error in
            XCTAssertTrue("\(error)".contains("set SCREENLAB_SHARED to the folder that holds datasets/nowhere-"), "\(error)")
        }
    }

    func testAPathThatResolvesNowhereNamesTheConfigKeyLineAndResolvedPath() throws {
        let root = try Fixtures.temporaryFolder(self)
        try Data().write(to: root.appendingPathComponent("Package.swift"))
        let file = root.appendingPathComponent("Configs/datasets/x.yaml")
        let config = try DatasetConfig.parse(yaml: "description: test\npath: data/nowhere\n", file: file)
        XCTAssertThrowsError(try config.load()) { error in
            XCTAssertEqual("\(error)", "\(file.path):2 (path): 'data/nowhere' resolves to \(root.standardizedFileURL.path)/data/nowhere "
                           + "(relative to \(root.standardizedFileURL.path), the folder with Package.swift), which does not exist; fix path: or put the data there")
        }
    }

    /// COCO source: classes come ordered by category id (Text 3, Icon 7, Toggle (Selected) 10);
    /// after mapping the source's category ids no longer describe the classes and are dropped.
    func testCOCOSourceIsMappedAndLosesCategoryIDs() throws {
        let file = try Fixtures.temporaryFolder(self).appendingPathComponent("coco.yaml")
        let config = try DatasetConfig.parse(yaml: """
            path: \(try Fixtures.url("coco-basic/instances.json").path)
            format: coco
            taxonomy: screen-recognition
            mapping: {Text: Text, Icon: ignore, "Toggle (Selected)": "Toggle (Selected)"}
            """, file: file)
        let dataset = try config.load()
        XCTAssertNil(dataset.cocoCategoryIDs)
        XCTAssertEqual(dataset.samples.map(\.cocoImageID), [17, 4])
        let toggle = Taxonomy.screenRecognition.index(of: "Toggle (Selected)")!
        XCTAssertEqual(dataset.samples[0].annotations.map(\.classIndex), [Taxonomy.screenRecognition.index(of: "Text")!, toggle])
        XCTAssertEqual(dataset.samples[0].annotations[1].selected, true)
        XCTAssertTrue(dataset.samples[1].annotations.isEmpty)
        XCTAssertEqual(dataset.notes.count, 2, "\(dataset.notes)")  // iscrowd skipped, Icon ignored
    }
}
