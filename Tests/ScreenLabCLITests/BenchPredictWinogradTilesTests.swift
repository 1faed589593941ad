import TestSupport
import XCTest

/// `bench predict --winograd-tiles` times the detectors' 3×3 stride-1 layers by either Winograd
/// tile; combined with a flag it would ignore, it refuses instead of dropping that flag silently.
final class BenchPredictWinogradTilesTests: XCTestCase {
    func testWinogradTilesWithProfileOrPeersIsAUsageError() throws {
        for extra in [["--profile"], ["--torch-python", "/usr/bin/python3"]] {
            let result = try ScreenlabProcess.run(["bench", "predict", "--winograd-tiles"] + extra)
            XCTAssertEqual(result.status, 64, result.output)
            XCTAssertTrue(result.output.contains("--winograd-tiles times only the 3×3 stride-1 layers"), result.output)
        }
    }
}
