import Data
import Foundation
import XCTest
@testable import Evaluation

/// Issue 15: thresholds files, curves and results files from strangers.
final class HostileInputTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("eval-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func thresholds(_ text: String) throws -> ThresholdFile {
        let url = folder.appendingPathComponent("t.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try ThresholdFile.load(url)
    }

    let good = "strategy: max-f1\niou_threshold: 0.5\npicked_on: {dataset: d, split: val}\nclasses:\n  - name: Text\n    confidence: 0.3\n"

    func testThresholdFilesAreReadStrictly() throws {
        XCTAssertEqual(try thresholds(good).classes.first?.confidence, 0.3)
        let cases: [(String, String)] = [
            (good + "    confidence: 0.9\n", "appears twice"),
            (good.replacingOccurrences(of: "0.3", with: "5"), "5.0 is out of range; allowed 0.0…1.0"),
            (good.replacingOccurrences(of: "0.3", with: "-0.5"), "-0.5 is out of range; allowed 0.0…1.0"),
            (good.replacingOccurrences(of: "iou_threshold: 0.5", with: "iou_threshold: .nan"), "finite"),
            (good.replacingOccurrences(of: "iou_threshold: 0.5", with: "iou_threshold: 0"), "(0, 1]"),
            (good + "  - name: Text\n    confidence: 0.4\n", "listed twice"),
            ("strategy: [" + String(repeating: "[", count: 20_000), "nested more than"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try thresholds(text), expected) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    func testThresholdFilesWithAnyClassNameReadBackEqual() throws {
        let file = ThresholdFile(strategy: "max-f1", iouThreshold: 0.5, pickedOn: .init(dataset: "d\\x\"y", split: "val\n2"), report: "r",
                                 classes: [.init(name: "Text\nField\t\u{7}\u{85}é", confidence: 1e-05, precision: 0.5, recall: nil, f1: 0,
                                                 fallback: true, note: "a: b # c")])
        XCTAssertEqual(try ThresholdFile.parse(file.yaml(), file: "t.yaml"), file)
    }

    func testACurveConfidenceOutsideZeroToOneIsAnError() throws {
        let url = folder.appendingPathComponent("text.csv")
        try "confidence,true_positives,false_positives,precision,recall,f1\n-2,1,0,1,1,1\n".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ReportFiles.readCurveCSV(url, groundTruthCount: 1)) { XCTAssertTrue("\($0)".contains("outside [0, 1]"), "\($0)") }
    }

    func testAFIFOGivenAsPredictionsIsRefusedAtOnce() throws {
        let fifo = folder.appendingPathComponent("preds.json")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let reader = COCOResultsReader(samples: [], cocoImageIDs: [], classNames: ["Text"], cocoCategoryIDs: nil)
        XCTAssertThrowsError(try reader.read(fifo, lenient: false)) { XCTAssertTrue("\($0)".contains("named pipe"), "\($0)") }
        XCTAssertThrowsError(try ThresholdFile.load(fifo)) { XCTAssertTrue("\($0)".contains("named pipe"), "\($0)") }
    }

    func testScoresOutsideZeroToOneAreRefusedNamingTheEntry() throws {
        let sample = Sample(id: "a", imagePath: "a.png", width: 10, height: 10)
        let reader = COCOResultsReader(samples: [sample], cocoImageIDs: [nil], classNames: ["Text"], cocoCategoryIDs: nil)
        let json = #"[{"image_id": "a", "category_id": "Text", "bbox": [0, 0, 1, 1], "score": 2.5}]"#
        XCTAssertThrowsError(try reader.parse(Data(json.utf8), file: "p.json", lenient: false)) { error in
            XCTAssertTrue("\(error)".contains("entry 0") && "\(error)".contains("[0, 1]"), "\(error)")
        }
        XCTAssertEqual(try reader.parse(Data(json.utf8), file: "p.json", lenient: true).skipped, ["score out of range": 1])
    }
}
