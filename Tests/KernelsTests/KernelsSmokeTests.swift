import XCTest
@testable import Kernels

final class KernelsSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
