import Foundation
import XCTest
@testable import Weights

final class WeightsReportTests: XCTestCase {
    func testInspectTextShowsVersionHeaderTableAndTotals() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "weights-v1.1", withExtension: "slw", subdirectory: "Fixtures"))
        let weights = try WeightsFile.read(contentsOf: url)
        let text = WeightsReport.text(weights, loadMilliseconds: 1.234, cpuMilliseconds: 0.5)
        let expectedLines = [
            "format 1.1 (this ScreenLab reads up to 1.2), 1100 bytes",
            "load time: 1.23 ms, 0.50 ms CPU",
            "architecture: reference-detector (backbone=mobilenet_v1, width_multiplier=0.5)",
            "input: 512x256, 3 channels",
            "  0   Text                     confidence 0.300  P 0.880  R 0.890  F1 0.885  (picked on val)",
            "  1   Icon                     no threshold (caller's default)",
            "  run:           fixture-1.1",
            "  splits:        train train, val val, test test",
            "  val mAP@0.5:   0.5000",
            "training: seed 20261122, 90 epochs, config Configs/train/reference.yaml",
            "total: 3 tensors, 11 values, 44 bytes (0.00 MiB) of float32",
        ]
        for line in expectedLines { XCTAssertTrue(text.contains(line), "missing: \(line)\n\(text)") }
        let table = text.components(separatedBy: "\n").filter { $0.contains("head.cls.bias") }
        XCTAssertEqual(table.count, 1)
        XCTAssertTrue(table[0].contains("F32   [3]"), table[0])
    }

    func testFixedDecimalFormatting() {
        XCTAssertEqual(WeightsReport.format(0.885, digits: 3), "0.885")
        XCTAssertEqual(WeightsReport.format(1.2345, digits: 2), "1.23")
        XCTAssertEqual(WeightsReport.format(0.0004, digits: 3), "0.000")
        XCTAssertEqual(WeightsReport.format(-2.5, digits: 1), "-2.5")
        XCTAssertEqual(WeightsReport.format(12, digits: 0), "12")
    }
}
