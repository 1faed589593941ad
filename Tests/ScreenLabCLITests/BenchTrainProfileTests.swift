import Foundation
import TestSupport
import XCTest

/// `bench train --profile --per-layer`: the real step's profile with a row per layer, each
/// convolution named by its module path (batch norms keep their type, fused into the depthwise
/// layer after them), where plain `--profile` gives one row per layer type.
final class BenchTrainProfileTests: XCTestCase {
    func testPerLayerRowsNameEachConvolutionByItsPath() throws {
        let experiment = try TinyExperimentFiles.write(name: "per-layer")
        let arguments = ["bench", "train", "--experiment", experiment.path, "--profile", "--steps", "1", "--batch-size", "2"]
        let byType = try ScreenlabProcess.run(arguments)
        XCTAssertEqual(byType.status, 0, byType.output)
        let typeRows = byType.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(typeRows.contains { $0.hasPrefix("layer type ") }, byType.output)
        XCTAssertTrue(typeRows.contains { $0.hasPrefix("pointwise 1×1 ") }, byType.output)

        let byLayer = try ScreenlabProcess.run(arguments + ["--per-layer"])
        XCTAssertEqual(byLayer.status, 0, byLayer.output)
        let rows = byLayer.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(rows.contains { $0.hasPrefix("layer (module path; batch norms by type) ") }, byLayer.output)
        XCTAssertTrue(rows.contains { $0.hasPrefix("backbone.stem stem 3×3 s2 3→") }, byLayer.output)
        XCTAssertTrue(rows.contains { $0.hasPrefix("BN+ReLU6 → backbone.stage3.0.depthwise depthwise 3×3 s1 ") }, byLayer.output)
        XCTAssertFalse(rows.contains { $0.hasPrefix("pointwise 1×1 ") }, "no layer is left under its type alone: \(byLayer.output)")
        // Each pointwise layer on its own row, one op a step, named by its path.
        let pointwise = rows.filter { $0.contains(".pointwise pointwise 1×1 ") }
        XCTAssertGreaterThan(pointwise.count, 1, byLayer.output)
        for row in pointwise {
            let columns = row.split(separator: " ", omittingEmptySubsequences: true)
            XCTAssertEqual(columns.count, 9, row)  // path, "pointwise", "1×1", channels, ops, forward, backward, total, share
            XCTAssertNotNil(columns[3].range(of: #"^[0-9]+→[0-9]+$"#, options: .regularExpression), row)
            XCTAssertEqual(columns[4], "1", row)
        }
        XCTAssertEqual(Set(pointwise.map { $0.split(separator: " ")[0] }).count, pointwise.count, "one row a layer: \(byLayer.output)")
        XCTAssertTrue(rows.contains { $0.hasPrefix("whole step ") }, byLayer.output)
    }

    func testPerLayerWithoutProfileIsAUsageError() throws {
        let result = try ScreenlabProcess.run(["bench", "train", "--per-layer"])
        XCTAssertEqual(result.status, 64, result.output)
        XCTAssertTrue(result.output.contains("--per-layer splits --profile's table by layer: give --profile too"), result.output)
    }
}
