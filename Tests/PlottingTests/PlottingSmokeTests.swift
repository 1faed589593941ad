import XCTest
@testable import Plotting

final class PlottingSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
