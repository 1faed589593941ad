import XCTest
@testable import Weights

/// thresholds.yaml rows (as Evaluation's ThresholdFile reads them) → header thresholds.
final class PickedThresholdsTests: XCTestCase {
    /// Rows in the YAML's order: Icon first with `confidence: null` (nothing detected), then
    /// Text and Button out of class order.
    static let rows = [
        PickedThresholds.Row(className: "Icon", confidence: nil, precision: nil, recall: nil, f1: nil),
        PickedThresholds.Row(className: "Text", confidence: 0.25, precision: 0.93, recall: 0.8, f1: 0.86, fellBack: true),
        PickedThresholds.Row(className: "Button", confidence: 0.42, precision: 0.91, recall: 0.5, f1: 0.645),
    ]

    func picked(_ rows: [PickedThresholds.Row] = rows, split: String? = "val") -> PickedThresholds {
        PickedThresholds(file: "runs/th.yaml", dataset: "vins-ui", split: split, rows: rows)
    }

    func testNullConfidenceGivesNoEntryAndTheRestFollowClassOrder() throws {
        let thresholds = try picked().headerThresholds(forClasses: Sample.classes)
        XCTAssertEqual(thresholds, [
            ClassThreshold(className: "Button", confidence: 0.42, precision: 0.91, recall: 0.5, f1: 0.645, split: "val"),
            ClassThreshold(className: "Text", confidence: 0.25, precision: 0.93, recall: 0.8, f1: 0.86, split: "val"),
        ])
        XCTAssertEqual(picked().fallbackClasses, ["Text"])
        // Picked on a whole dataset: the dataset names where.
        XCTAssertEqual(try picked(split: nil).headerThresholds(forClasses: Sample.classes).map(\.split), ["vins-ui", "vins-ui"])
        // A row picked elsewhere (a merged file) names its own data.
        var merged = Self.rows
        merged[2].pickedOn = "synthetic (all images)"
        XCTAssertEqual(try picked(merged).headerThresholds(forClasses: Sample.classes).map(\.split), ["synthetic (all images)", "val"])
        // The result is what the file stores, and reads back.
        let updated = try Sample.file().settingThresholds(thresholds, file: "new.slw")
        XCTAssertEqual(try decode(try Sample.encoded(updated)).header.confidenceThresholds(default: 0.3), [0.42, 0.25, 0.3])
    }

    /// Errors name the YAML file and its `classes[i]` entry, counting the null rows too.
    func testErrorsNameTheYAMLEntry() {
        func assertFails(_ rows: [PickedThresholds.Row], key: String, reasonContains text: String, line: UInt = #line) {
            XCTAssertThrowsError(try picked(rows).headerThresholds(forClasses: Sample.classes), line: line) { error in
                guard case let .invalidThresholds(file, foundKey, reason)? = error as? WeightsError else {
                    return XCTFail("\(error)", line: line)
                }
                XCTAssertEqual(file, "runs/th.yaml", line: line)
                XCTAssertEqual(foundKey, key, line: line)
                XCTAssertTrue(reason.contains(text), reason, line: line)
                XCTAssertTrue("\(error)".hasPrefix("runs/th.yaml: \(key): "), "\(error)", line: line)
            }
        }
        var unknown = Self.rows
        unknown[2].className = "Slider"
        assertFails(unknown, key: "classes[2] (Slider)", reasonContains: "not one of the weights' 3 classes (Button, Text, Icon)")
        var outOfRange = Self.rows
        outOfRange[2].confidence = 1.5
        assertFails(outOfRange, key: "classes[2] (Button)", reasonContains: "confidence 1.5 is not in [0, 1]")
        var noScores = Self.rows
        noScores[1].f1 = nil
        assertFails(noScores, key: "classes[1] (Text)", reasonContains: "no precision, recall or f1")
        assertFails(Self.rows + [Self.rows[1]], key: "classes[3] (Text)", reasonContains: "listed twice (also classes[1])")
        // An unknown class is an error even with a null confidence: the file was picked for another model.
        var unknownNull = Self.rows
        unknownNull[0].className = "Slider"
        assertFails(unknownNull, key: "classes[0] (Slider)", reasonContains: "not one of")
    }
}
