import XCTest
@testable import Data

final class DataSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
