import XCTest
@testable import NN

final class NNSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
