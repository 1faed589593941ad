import XCTest
@testable import Evaluation

final class EvaluationSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true, "replace with real tests") }
}
