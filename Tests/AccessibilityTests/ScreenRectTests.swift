import XCTest
@testable import Accessibility

final class ScreenRectTests: XCTestCase {
    func testCornersInAnyOrderMakeANonNegativeBox() {
        let box = ScreenRect(minX: 10, minY: 20, maxX: 0, maxY: 5)
        XCTAssertEqual(box, ScreenRect(x: 0, y: 5, width: 10, height: 15))
        XCTAssertEqual(box.area, 150)
    }

    func testInsideCountsMostOfTheAreaAndTheCenterOfAnEmptyBox() {
        let outer = ScreenRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertTrue(ScreenRect(x: 95, y: 10, width: 10, height: 10).isInside(outer, fraction: 0.5))
        XCTAssertFalse(ScreenRect(x: 95, y: 10, width: 10, height: 10).isInside(outer, fraction: 0.9))
        XCTAssertTrue(ScreenRect(x: 50, y: 50, width: 0, height: 0).isInside(outer, fraction: 0.9))
        XCTAssertFalse(ScreenRect(x: 150, y: 50, width: 0, height: 10).isInside(outer, fraction: 0.9))
    }
}
