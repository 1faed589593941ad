import Imaging
import XCTest
@testable import Accessibility

final class XYCutTests: XCTestCase {
    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> BoundingBox { BoundingBox(x: x, y: y, width: w, height: h) }

    func testTwoColumnsReadColumnByColumn() {
        // Rows of the two columns interleave in y, so no horizontal line crosses the screen;
        // the vertical line between the columns does.
        let boxes = [
            rect(0, 0, 100, 50), rect(120, 10, 100, 50),
            rect(0, 55, 100, 50), rect(120, 65, 100, 50),
            rect(0, 110, 100, 50),
        ]
        XCTAssertEqual(XYCut.order(boxes), [0, 2, 4, 1, 3])
    }

    func testHeaderGridAndTabBar() {
        let boxes = [
            rect(300, 740, 60, 40), rect(20, 740, 60, 40), rect(160, 740, 60, 40),  // tab bar, out of order: 0, 1, 2
            rect(0, 0, 400, 60),                                                     // 3: header
            rect(210, 80, 180, 180), rect(10, 80, 180, 180),                         // 4, 5: grid row 1
            rect(10, 280, 180, 180), rect(210, 280, 180, 180),                       // 6, 7: grid row 2
        ]
        XCTAssertEqual(XYCut.order(boxes), [3, 5, 4, 6, 7, 1, 2, 0])
    }

    func testNestedSegmentsRecurse() {
        // A sidebar beside a body; the body has a title, then two columns.
        let boxes = [
            rect(0, 0, 80, 400),                        // 0: sidebar
            rect(100, 0, 300, 40),                      // 1: body title
            rect(100, 60, 140, 30), rect(260, 50, 140, 30),  // 2, 3: columns, top rows (3 higher)
            rect(100, 95, 140, 30), rect(260, 85, 140, 30),  // 4, 5: second rows
        ]
        XCTAssertEqual(XYCut.order(boxes), [0, 1, 2, 4, 3, 5])
    }

    func testUncuttableSegmentsReadTopToBottomThenLeftToRight() {
        // A frame around two side-by-side boxes: no line avoids the frame.
        let boxes = [rect(0, 0, 300, 300), rect(150, 20, 100, 50), rect(10, 20, 100, 50), rect(10, 10, 50, 5)]
        XCTAssertEqual(XYCut.order(boxes), [0, 3, 2, 1])
    }

    func testOneLineInAnUncutSegmentReadsLeftToRightThoughItsTopsDifferByAPixel() {
        // A Container around a tab bar whose buttons' tops differ by a pixel or two.
        let boxes = [rect(0, 740, 400, 60), rect(300, 749, 40, 40), rect(20, 751, 40, 40), rect(160, 750, 40, 40), rect(20, 795, 40, 4)]
        XCTAssertEqual(XYCut.order(boxes), [0, 2, 3, 1, 4])
    }

    func testSlackLetsACutCrossCardsOverlappingByAFewPixels() {
        // Two rows of cards; the top-right card's box reaches 3 px into the second row.
        let cards = [rect(8, 111, 171, 206), rect(182, 113, 171, 209), rect(8, 326, 169, 208), rect(183, 319, 172, 218)]
        XCTAssertEqual(XYCut.order(cards), [0, 2, 1, 3], "the paper's rule: no line crosses the screen, so columns")
        XCTAssertEqual(XYCut.order(cards, slack: 6.4), [0, 1, 2, 3], "rows")
        // Small icons on one line, tops 1 px apart: slack never cuts most of their height.
        let icons = [rect(300, 100, 5, 5), rect(10, 101, 5, 5), rect(150, 100.5, 5, 5)]
        XCTAssertEqual(XYCut.order(icons, slack: 6.4), [1, 2, 0])
    }

    func testEdgeCases() {
        XCTAssertEqual(XYCut.order([]), [])
        XCTAssertEqual(XYCut.order([rect(5, 5, 10, 10)]), [0])
        // Identical and zero-size boxes: every index once, ties by index.
        XCTAssertEqual(XYCut.order([rect(5, 5, 10, 10), rect(5, 5, 10, 10), rect(5, 5, 10, 10)]), [0, 1, 2])
        XCTAssertEqual(XYCut.order([rect(50, 50, 0, 0), rect(10, 10, 0, 0), rect(50, 10, 0, 0), rect(10, 50, 0, 0)]), [1, 2, 3, 0])
        // Boxes that only touch are cut apart.
        XCTAssertEqual(XYCut.order([rect(0, 10, 10, 10), rect(0, 0, 10, 10)]), [1, 0])
    }

    func testThousandsOfBoxesFinishAndKeepEveryIndexOnce() {
        var random = SystemRandomNumberGenerator()
        let boxes = (0..<5000).map { _ in
            rect(Double.random(in: 0..<1000, using: &random), Double.random(in: 0..<2000, using: &random),
                 Double.random(in: 0..<40, using: &random), Double.random(in: 0..<20, using: &random))
        }
        XCTAssertEqual(XYCut.order(boxes).sorted(), Array(0..<5000))
        let same = Array(repeating: rect(1, 1, 1, 1), count: 3000)
        XCTAssertEqual(XYCut.order(same), Array(0..<3000))
    }

    /// Each level peels one top bar and one left bar off a staircase, so the plain recursion
    /// would go n/2 deep; the depth bound orders the rest as one segment.
    func testAStaircaseThatCutsOneBoxPerLevelIsBounded() {
        let n = 2000, size = Double(n) + 10
        var boxes: [BoundingBox] = []
        for k in 0..<n / 2 {
            let at = Double(k)
            boxes.append(BoundingBox(minX: at, minY: at, maxX: size, maxY: at + 0.5))          // top bar of region k
            boxes.append(BoundingBox(minX: at, minY: at + 0.5, maxX: at + 0.5, maxY: size))    // left bar of region k
        }
        let order = XYCut.order(boxes, maximumDepth: 48)
        XCTAssertEqual(order.sorted(), Array(0..<n))
        XCTAssertEqual(Array(order.prefix(6)), [0, 1, 2, 3, 4, 5], "top bar, left bar, region by region")
        XCTAssertEqual(XYCut.order(Array(boxes.prefix(40)), maximumDepth: 1000), Array(0..<40))
    }
}
