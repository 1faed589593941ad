import XCTest
@testable import Imaging

final class ImagingSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
