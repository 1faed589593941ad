import XCTest
@testable import Detection

final class DetectionSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
