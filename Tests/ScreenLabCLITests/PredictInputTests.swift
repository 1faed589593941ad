import Foundation
import TestSupport
import XCTest

/// `predict` on folders with images that will not decode (issue 11, "Bad input"): a folder of
/// nothing but broken files is an error that writes nothing; a folder with some is predicted,
/// and the summary counts only the images that ran.
final class PredictInputTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let weights = root.appendingPathComponent("Reports/models/ui-detector-vins.slw").path
    static let screen = root.appendingPathComponent("Reports/samples/vins-screen.jpg")

    /// A JPEG cut after its first 500 bytes: a valid header, no scan data.
    func writeTruncatedJPEG(to url: URL) throws {
        try Data(try Data(contentsOf: Self.screen).prefix(500)).write(to: url)
    }

    func testFolderOfUndecodableImagesIsAnErrorThatWritesNothing() throws {
        let folder = try TestFolders.make("predict-broken")
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try writeTruncatedJPEG(to: images.appendingPathComponent("cut.jpg"))
        let out = folder.appendingPathComponent("out")
        let result = try ScreenlabProcess.run(["predict", "--weights", Self.weights, images.path, "--out", out.path])
        XCTAssertNotEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("cut.jpg"), "the broken file is named: \(result.output)")
        XCTAssertTrue(result.output.contains("none of the 1 image(s) could be decoded"), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing is written to --out")
    }

    func testSummaryCountsOnlyThePredictedImages() throws {
        let folder = try TestFolders.make("predict-mixed")
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.screen, to: images.appendingPathComponent("screen.jpg"))
        try writeTruncatedJPEG(to: images.appendingPathComponent("cut.jpg"))
        try Data("not an image\n".utf8).write(to: images.appendingPathComponent("notes.png"))
        let out = folder.appendingPathComponent("out")
        let result = try ScreenlabProcess.run(["predict", "--weights", Self.weights, images.path, "--out", out.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("on 1 image (2 skipped, listed above)"), result.output)
        let predictions = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("predictions.json"))) as? [[String: Any]]
        let files = Set((predictions ?? []).compactMap { $0["file_name"] as? String })
        XCTAssertEqual(files, ["screen.jpg"], "only the decoded screen has detections")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("images/screen.png").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("images/cut.png").path))
    }

    /// Inputs that share a stem get their own ids and pictures (issue 30: `d1/a.jpg`, `d2/a.jpg`
    /// and `d1/a.png` gave one picture and detections all saying `a.jpg`), and predicting into
    /// the same --out again leaves one run's pictures, not the old ones beside the new.
    func testInputsThatShareAStemKeepTheirOwnResultsAndAReusedOutHoldsOneRun() throws {
        let folder = try TestFolders.make("predict-stems")
        let d1 = folder.appendingPathComponent("d1"), d2 = folder.appendingPathComponent("d2")
        for d in [d1, d2] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(at: Self.screen, to: d1.appendingPathComponent("a.jpg"))
        try FileManager.default.copyItem(at: Self.screen, to: d2.appendingPathComponent("a.jpg"))
        // A PNG of the screen: the picture predict draws of it.
        XCTAssertEqual(try ScreenlabProcess.run(["predict", "--weights", Self.weights, Self.screen.path, "--out", folder.appendingPathComponent("png").path]).status, 0)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("png/images/vins-screen.png"), to: d1.appendingPathComponent("a.png"))
        let out = folder.appendingPathComponent("out")
        let first = try ScreenlabProcess.run(["predict", "--weights", Self.weights, d1.appendingPathComponent("a.jpg").path,
                                              d2.appendingPathComponent("a.jpg").path, d1.appendingPathComponent("a.png").path, "--out", out.path])
        XCTAssertEqual(first.status, 0, first.output)
        let pictures = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("images").path).sorted()
        XCTAssertEqual(pictures, ["a.png.png", "d1_a.jpg.png", "d2_a.jpg.png"])
        let predictions = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("predictions.json"))) as? [[String: Any]])
        XCTAssertEqual(Set(predictions.compactMap { $0["image_id"] as? String }), ["a.png", "d1_a.jpg", "d2_a.jpg"])
        XCTAssertEqual(Set(predictions.compactMap { $0["file_name"] as? String }).count, 3, "alike names are given as paths")

        // A folder holding `..png` predicts it too, as `_.png`.
        let dots = folder.appendingPathComponent("dots")
        try FileManager.default.createDirectory(at: dots, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: d1.appendingPathComponent("a.png"), to: dots.appendingPathComponent("..png"))
        let dotted = try ScreenlabProcess.run(["predict", "--weights", Self.weights, dots.path, "--out", folder.appendingPathComponent("dots-out").path])
        XCTAssertEqual(dotted.status, 0, dotted.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("dots-out/images/_.png.png").path), dotted.output)

        let second = try ScreenlabProcess.run(["predict", "--weights", Self.weights, Self.screen.path, "--out", out.path])
        XCTAssertEqual(second.status, 0, second.output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("images").path), ["vins-screen.png"],
                       "the earlier run's pictures are gone")
    }
}
