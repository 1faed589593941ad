import XCTest
@testable import Weights

final class WeightsSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
