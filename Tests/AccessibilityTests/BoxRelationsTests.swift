import Imaging
import XCTest
@testable import Accessibility

final class BoxRelationsTests: XCTestCase {
    func testCornersInAnyOrderMakeANonNegativeBox() {
        let box = BoundingBox(minX: 10, minY: 20, maxX: 0, maxY: 5).normalized
        XCTAssertEqual(box, BoundingBox(x: 0, y: 5, width: 10, height: 15))
        XCTAssertEqual(box.area, 150)
        let detection = ScreenDetection(classIndex: 0, className: "Text", box: BoundingBox(x: 10, y: 10, width: -4, height: 6), score: 1)
        XCTAssertEqual(detection.box, BoundingBox(x: 6, y: 10, width: 4, height: 6), "a detection keeps the box its corners span")
    }

    func testInsideCountsMostOfTheAreaAndTheCenterOfAnEmptyBox() {
        let outer = BoundingBox(x: 0, y: 0, width: 100, height: 100)
        XCTAssertTrue(BoundingBox(x: 95, y: 10, width: 10, height: 10).isInside(outer, fraction: 0.5))
        XCTAssertFalse(BoundingBox(x: 95, y: 10, width: 10, height: 10).isInside(outer, fraction: 0.9))
        XCTAssertTrue(BoundingBox(x: 50, y: 50, width: 0, height: 0).isInside(outer, fraction: 0.9))
        XCTAssertFalse(BoundingBox(x: 150, y: 50, width: 0, height: 10).isInside(outer, fraction: 0.9))
    }
}
