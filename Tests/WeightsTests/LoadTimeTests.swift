import Foundation
import Tensor
import XCTest
@testable import Weights

/// Load time of a 5 MB file (the budget is 20 ms in an optimized build; a debug build
/// on a shared machine is several times slower, so this test only catches pathologies and
/// prints the measurement).
final class LoadTimeTests: XCTestCase {
    func testFiveMegabyteFileLoadsQuickly() throws {
        let values = (0..<1_250_000).map { Float($0 % 977) * 0.001 }
        let weights = WeightsFile(header: Sample.header(), tensors: [
            ("backbone.weight", try Tensor(shape: [1000, 1000], values: Array(values[0..<1_000_000]))),
            ("head.weight", try Tensor(shape: [250, 1000], values: Array(values[1_000_000...]))),
        ])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("load-time-\(getpid()).slw")
        defer { try? FileManager.default.removeItem(at: url) }
        try weights.write(to: url)
        var best = Double.infinity
        var crcBest = Double.infinity
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            let loaded = try WeightsFile.read(contentsOf: url)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            XCTAssertEqual(loaded.elementCount, 1_250_000)
            let crcStart = DispatchTime.now().uptimeNanoseconds
            _ = loaded.tensors[0].tensor.withUnsafeBufferPointer { CRC32.checksum(UnsafeRawBufferPointer($0)) }
            crcBest = min(crcBest, Double(DispatchTime.now().uptimeNanoseconds - crcStart) / 1e6 * 1.25)
        }
        print("5 MB weights file: best load \(best) ms, of which CRC-32 ≈ \(crcBest) ms")
        XCTAssertLessThan(best, 500, "loading 5 MB took \(best) ms")
    }
}
