import Foundation
import XCTest
@testable import Data

/// Joining a dataset's training split with another source's screens (`data.add_synthetic`).
final class DatasetMixTests: XCTestCase {
    private func box(_ x: Double) -> BoundingBox { BoundingBox(x: x, y: 0, width: 4, height: 4) }

    func testClassesAreTheUnionAndEachSourceIsUnlabeledInWhatItNeverMarks() throws {
        // Primary: classes Text, Icon, Slider; its training screens mark Text and Icon, never Slider.
        let primary = Dataset(root: URL(fileURLWithPath: "/data/real"), classes: ["Text", "Icon", "Slider"], samples: [
            Sample(id: "a", imagePath: "images/a.png", width: 10, height: 10, annotations: [Annotation(classIndex: 0, box: box(0))], group: "app1"),
            Sample(id: "b", imagePath: "images/b.png", width: 10, height: 10, annotations: [Annotation(classIndex: 1, box: box(1))]),
            // A validation screen with a Slider box does not make Slider labeled in training.
            Sample(id: "c", imagePath: "images/c.png", width: 10, height: 10, annotations: [Annotation(classIndex: 2, box: box(2))]),
        ], splits: ["train": [0, 1], "val": [2]])
        // Added: classes Slider, Text, Checkbox; its training screens mark Slider and Checkbox.
        let added = Dataset(root: URL(fileURLWithPath: "/cache/synthetic"), classes: ["Slider", "Text", "Checkbox"], samples: [
            Sample(id: "train/s1", imagePath: "images/train/s1.png", width: 8, height: 8,
                   annotations: [Annotation(classIndex: 0, box: box(3)), Annotation(classIndex: 2, box: box(4))], group: "look1"),
            Sample(id: "val/s2", imagePath: "images/val/s2.png", width: 8, height: 8, annotations: [Annotation(classIndex: 1, box: box(5))]),
        ], splits: ["train": [0], "val": [1]])

        let (mixed, summary) = try DatasetMix.combine(primary, trainSplit: "train", adding: added, split: "train", addedName: "synthetic")
        XCTAssertEqual(mixed.classes, ["Text", "Icon", "Slider", "Checkbox"])
        XCTAssertEqual(mixed.splits["train"], [0, 1, 3])
        XCTAssertEqual(mixed.splits["val"], [2], "validation stays the primary's")
        XCTAssertEqual(mixed.samples.count, 4)
        let joined = mixed.samples[3]
        XCTAssertEqual(joined.id, "synthetic/train/s1")
        XCTAssertEqual(joined.group, "synthetic/look1")
        XCTAssertEqual(joined.imagePath, "/cache/synthetic/images/train/s1.png")
        XCTAssertEqual(mixed.imageURL(of: joined).path, "/cache/synthetic/images/train/s1.png")
        XCTAssertEqual(joined.annotations.map(\.classIndex), [2, 3], "Slider and Checkbox in the union's indices")
        XCTAssertEqual(joined.unlabeledClasses, [0, 1], "the synthetic screens mark no Text or Icon")
        XCTAssertEqual(mixed.samples[0].unlabeledClasses, [2, 3], "the real screens mark no Slider or Checkbox")
        XCTAssertEqual(mixed.samples[2].unlabeledClasses, [2, 3])
        XCTAssertEqual(mixed.samples[0].imagePath, "images/a.png", "the primary's paths stay relative to its root")
        XCTAssertEqual(summary, DatasetMix.Summary(unlabeledInPrimary: ["Slider", "Checkbox"], unlabeledInAdded: ["Text", "Icon"], addedScreens: 1))
    }

    func testUnknownSplitsAreNamed() {
        let data = Dataset(root: URL(fileURLWithPath: "/d"), classes: ["Text"], samples: [], splits: ["train": []])
        XCTAssertThrowsError(try DatasetMix.combine(data, trainSplit: "fit", adding: data, split: "train", addedName: "x")) { error in
            XCTAssertTrue("\(error)".contains("fit"), "\(error)")
        }
        XCTAssertThrowsError(try DatasetMix.combine(data, trainSplit: "train", adding: data, split: "learn", addedName: "x")) { error in
            XCTAssertTrue("\(error)".contains("learn"), "\(error)")
        }
    }
}
