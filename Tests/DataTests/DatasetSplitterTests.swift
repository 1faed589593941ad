import Foundation
import XCTest
import Support
@testable import Data

final class DatasetSplitterTests: XCTestCase {
    /// 60 apps with 1–6 screens each; class 0 everywhere, class 1 in a third of the apps,
    /// class 2 ("rare") in exactly 3 apps, class 3 in exactly 1 app.
    func makeDataset(seed: UInt64 = 7) -> Dataset {
        var random = SeededRandom(seed: seed)
        var samples: [Sample] = []
        let box = BoundingBox(x: 1, y: 1, width: 5, height: 5)
        for app in 0..<60 {
            for screen in 0..<random.int(in: 1...6) {
                var annotations = [Annotation(classIndex: 0, box: box)]
                if app % 3 == 0 { annotations.append(Annotation(classIndex: 1, box: box)) }
                if [5, 23, 41].contains(app) && screen == 0 { annotations.append(Annotation(classIndex: 2, box: box)) }
                if app == 50 { annotations.append(Annotation(classIndex: 3, box: box)) }
                samples.append(Sample(id: "\(app)-\(screen)", imagePath: "\(app)-\(screen).png", width: 10, height: 10,
                                      annotations: annotations, group: "app\(app)"))
            }
        }
        return Dataset(root: URL(fileURLWithPath: "/"), classes: ["common", "medium", "rare", "single"], samples: samples)
    }

    func split(_ dataset: Dataset, seed: UInt64 = 1, by unit: DatasetSplitter.Unit = .group) throws -> [String: [Int]] {
        try DatasetSplitter.split(dataset, names: ["train", "val", "test"], fractions: [0.8, 0.1, 0.1], by: unit, seed: seed)
    }

    func testNoGroupCrossesSplitsAndEverySampleIsPlacedOnce() throws {
        let dataset = makeDataset()
        let splits = try split(dataset)
        XCTAssertEqual(splits.values.flatMap { $0 }.sorted(), Array(dataset.samples.indices))
        var splitOfGroup: [String: String] = [:]
        for (name, indices) in splits {
            for index in indices {
                let group = dataset.samples[index].group!
                XCTAssertEqual(splitOfGroup[group] ?? name, name, "group \(group) is in two splits")
                splitOfGroup[group] = name
            }
        }
    }

    func testRareClassesReachEverySplitWherePossible() throws {
        let dataset = makeDataset()
        for seed in 0..<5 as Range<UInt64> {
            let splits = try split(dataset, seed: seed)
            for (name, indices) in splits {
                let classes = Set(indices.flatMap { dataset.samples[$0].annotations.map(\.classIndex) })
                XCTAssertTrue(classes.isSuperset(of: [0, 1, 2]), "seed \(seed): \(name) lacks a class held by ≥ 3 apps: \(classes.sorted())")
            }
        }
    }

    func testFractionsAreRoughlyRespected() throws {
        let dataset = makeDataset()
        let splits = try split(dataset)
        let total = Double(dataset.samples.count)
        // A whole app (≤ 6 screens) can tip a split, so allow one app plus rounding.
        XCTAssertEqual(Double(splits["train"]!.count), 0.8 * total, accuracy: 7)
        XCTAssertEqual(Double(splits["val"]!.count), 0.1 * total, accuracy: 7)
        XCTAssertEqual(Double(splits["test"]!.count), 0.1 * total, accuracy: 7)
        let byImage = try split(dataset, by: .image)
        XCTAssertEqual(Double(byImage["val"]!.count), 0.1 * total, accuracy: 2)
    }

    func testSameSeedSameSplitOtherSeedOtherSplit() throws {
        let dataset = makeDataset()
        XCTAssertEqual(try split(dataset, seed: 42), try split(dataset, seed: 42))
        XCTAssertNotEqual(try split(dataset, seed: 42), try split(dataset, seed: 43))
    }

    func testGroupSplitWithoutGroupsSaysSoAndImageSplitWorks() throws {
        var dataset = makeDataset()
        dataset.samples[3].group = nil
        XCTAssertThrowsError(try split(dataset)) { error in
            XCTAssertTrue("\(error)".contains("1 of \(dataset.samples.count) samples have no group"), "\(error)")
            XCTAssertTrue("\(error)".contains("--by image"), "\(error)")
        }
        XCTAssertEqual(try split(dataset, by: .image).values.map(\.count).reduce(0, +), dataset.samples.count)
    }

    func testBadFractionsAreRejected() {
        let dataset = makeDataset()
        XCTAssertThrowsError(try DatasetSplitter.split(dataset, names: ["a", "b"], fractions: [0.5, 0.6], by: .image, seed: 0)) {
            XCTAssertTrue("\($0)".contains("sum to 1"), "\($0)")
        }
        XCTAssertThrowsError(try DatasetSplitter.split(dataset, names: ["a", "b"], fractions: [1], by: .image, seed: 0)) {
            XCTAssertTrue("\($0)".contains("1 fractions for 2 split names"), "\($0)")
        }
    }

    /// A rare class only in three 30-screen apps (plus 10 single-screen apps): putting one of
    /// them in val or test would triple that split, so they stay in train.
    func testRareClassInBigGroupsDoesNotOverfillSmallSplits() throws {
        let box = BoundingBox(x: 1, y: 1, width: 5, height: 5)
        var samples: [Sample] = []
        for app in 0..<3 {
            for screen in 0..<30 {
                samples.append(Sample(id: "big\(app)-\(screen)", imagePath: "b\(app)-\(screen).png", width: 10, height: 10,
                                      annotations: [Annotation(classIndex: 0, box: box), Annotation(classIndex: 1, box: box)], group: "big\(app)"))
            }
        }
        for app in 0..<10 {
            samples.append(Sample(id: "small\(app)", imagePath: "s\(app).png", width: 10, height: 10,
                                  annotations: [Annotation(classIndex: 0, box: box)], group: "small\(app)"))
        }
        let dataset = Dataset(root: URL(fileURLWithPath: "/"), classes: ["common", "rare"], samples: samples)
        let splits = try split(dataset)
        XCTAssertEqual(splits["train"]!.count, 90, "all three big apps in train: \(splits.mapValues(\.count))")
        XCTAssertEqual(splits["val"]!.count, 5)
        XCTAssertEqual(splits["test"]!.count, 5)
    }
}
