import Data
import Foundation
import XCTest
@testable import Inference
import Kernels

/// The model the README tells a fresh clone to use keeps loading and keeps finding the elements
/// of the sample screen (a change to the weights reader, the model or post-processing that
/// breaks the shipped file fails here, not in a user's first command).
final class ShippedModelTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testShippedModelFindsTheSampleScreensElements() throws {
        let detector = try TrainedDetector.load(contentsOf: Self.root.appendingPathComponent("Reports/models/ui-detector-vins.slw"))
        XCTAssertEqual(detector.classes.count, 14)
        XCTAssertEqual(detector.classes.last, "Toggle")
        // Shipped since 2026-11-29 at 320×640 (Reports/models): predict letterboxes into the
        // input the file states, so a reader that ignored it would shrink the screen silently.
        XCTAssertEqual(detector.weights.header.input.width, 320)
        XCTAssertEqual(detector.weights.header.input.height, 640)
        // Shipped since 2026-11-29 (later) with all 13 Screen Recognition classes learnt: every
        // class carries a threshold, the six vins-ui lacks picked on synthetic screens (Reports/models).
        let thresholds = try XCTUnwrap(detector.weights.header.thresholds)
        XCTAssertEqual(thresholds.map(\.className), detector.classes)
        let synthetic = thresholds.filter { $0.split.contains("synthetic") }.map(\.className)
        XCTAssertEqual(synthetic, ["Checkbox (Selected)", "Checkbox (Unselected)", "Segmented Control", "Slider",
                                   "Toggle (Selected)", "Toggle (Unselected)"])
        XCTAssertLessThanOrEqual(try FileManager.default.attributesOfItem(atPath: detector.file)[.size] as? Int ?? .max, 5 << 20,
                                 "shipped models stay within 5 MB")
        let image = Self.root.appendingPathComponent("Reports/samples/vins-screen.jpg")
        let sample = Sample(id: "vins-screen", imagePath: image.path, width: 360, height: 640)
        let output = try detector.predictor(scoreThreshold: 0.05, useStoredThresholds: true)
            .predict([sample], imageURL: { URL(fileURLWithPath: $0.imagePath) }, label: "shipped", showProgress: false)
        XCTAssertTrue(output.unreadable.isEmpty)
        let names = output.predictions.map { detector.classes[$0.classIndex] }
        // What the README's picture shows: 26 detections — the header's title and two icons, the
        // tab strip, the hero photo as one picture, the texts, the pager dots, the two buttons,
        // and the tab bar with its items' icons and titles.
        XCTAssertGreaterThanOrEqual(output.predictions.count, 12, "\(names)")
        XCTAssertGreaterThanOrEqual(names.filter { $0 == "Text" }.count, 4, "\(names)")
        XCTAssertEqual(names.filter { $0 == "Picture" }.count, 1, "\(names)")
        // The hero photo spans the screen's width under the header, y ≈ 88…275.
        let photo = try XCTUnwrap(output.predictions.first { detector.classes[$0.classIndex] == "Picture" })
        XCTAssertGreaterThan(photo.box.width, 300)
        XCTAssertEqual(photo.box.y + photo.box.height / 2, 180, accuracy: 25)
        XCTAssertEqual(names.filter { $0 == "Page Control" }.count, 1, "\(names)")
        XCTAssertGreaterThanOrEqual(names.filter { $0 == "Container" }.count, 4, "\(names)")
        // The pager dots sit under the paragraph, centred: x ≈ 150…210, y ≈ 425…440 in the 360×640 screenshot.
        let pager = try XCTUnwrap(output.predictions.first { detector.classes[$0.classIndex] == "Page Control" })
        XCTAssertEqual(pager.box.x + pager.box.width / 2, 180, accuracy: 15)
        XCTAssertEqual(pager.box.y + pager.box.height / 2, 432, accuracy: 15)
        for box in output.predictions {
            XCTAssertTrue(box.box.x >= -1 && box.box.y >= -1 && box.box.x + box.box.width <= 361 && box.box.y + box.box.height <= 641,
                          "boxes are in the screenshot's pixels: \(box.box)")
        }
    }

    /// A batch's images are read and letterboxed on the workers, then placed in order: the same
    /// detections on one thread and on three, each on its own screen's position, and unreadable
    /// files (missing, not an image) listed in order and skipped, whichever batch they fall in.
    func testImagesPreparedOnTheWorkersGiveTheSameDetectionsInOrder() throws {
        let detector = try TrainedDetector.load(contentsOf: Self.root.appendingPathComponent("Reports/models/ui-detector-vins.slw"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("predictor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let screen = Self.root.appendingPathComponent("Reports/samples/vins-screen.jpg").path
        let corrupt = folder.appendingPathComponent("corrupt.png").path, missing = folder.appendingPathComponent("missing.jpg").path
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: corrupt))
        let paths = [screen, missing, screen, corrupt, screen, screen, missing]
        let samples = paths.enumerated().map { Sample(id: "\($0.offset)", imagePath: $0.element, width: 360, height: 640) }
        func predict(threads: Int) throws -> DetectorPredictor.Output {
            let previous = Parallel.threadCount
            Parallel.threadCount = threads
            defer { Parallel.threadCount = previous }
            return try detector.predictor(scoreThreshold: 0.05, useStoredThresholds: true, batchSize: 3)
                .predict(samples, imageURL: { URL(fileURLWithPath: $0.imagePath) }, label: "order", showProgress: false)
        }
        let one = try predict(threads: 1), three = try predict(threads: 3)
        XCTAssertEqual(one.unreadable.map(\.file), [missing, corrupt, missing])
        XCTAssertEqual(three.unreadable.map(\.file), one.unreadable.map(\.file))
        XCTAssertEqual(three.predictions, one.predictions)
        let alone = try detector.predictor(scoreThreshold: 0.05, useStoredThresholds: true)
            .predict([samples[0]], imageURL: { URL(fileURLWithPath: $0.imagePath) }, label: "alone", showProgress: false).predictions
        XCTAssertFalse(alone.isEmpty)
        for position in [0, 2, 4, 5] {
            XCTAssertEqual(one.predictions.filter { $0.imageIndex == position }.map(\.box), alone.map(\.box), "screen at \(position)")
        }
        XCTAssertEqual(Set(one.predictions.map(\.imageIndex)), [0, 2, 4, 5])
    }
}
