import XCTest
@testable import Accessibility

final class TextLinesTests: XCTestCase {
    func testLinesCloserThanTheirHeightThatOverlapInXBecomeOneText() {
        let screen = [
            detection("Text", 20, 100, 300, 20),  // 0
            detection("Text", 20, 125, 280, 20),  // 1: gap 5 < 20
            detection("Text", 20, 150, 120, 20),  // 2: gap 5, chained through 1
            detection("Text", 20, 195, 300, 20),  // 3: gap 25 ≥ 20: a new paragraph
        ]
        let result = TextLines.apply(singles(screen))
        XCTAssertEqual(memberSets(result), [[0, 1, 2], [3]])
        XCTAssertEqual(result[0].kind, "Text")
        XCTAssertEqual(result[0].grouping, .textLines)
        XCTAssertEqual(result[0].labelHint, "3 lines")
        XCTAssertEqual(result[0].box, ScreenRect(minX: 20, minY: 100, maxX: 320, maxY: 170))
    }

    func testTheThresholdIsTheSmallerHeight() {
        // Gap 12: under the heading's 30 but not under the caption's 10.
        let screen = [detection("Text", 0, 0, 200, 30), detection("Text", 0, 42, 200, 10)]
        XCTAssertEqual(memberSets(TextLines.apply(singles(screen))), [[0], [1]])
        let closer = [detection("Text", 0, 0, 200, 30), detection("Text", 0, 38, 200, 10)]
        XCTAssertEqual(memberSets(TextLines.apply(singles(closer))), [[0, 1]])
    }

    func testSideBySideTextAndTextWithoutXOverlapStayApart() {
        let screen = [
            detection("Text", 0, 0, 100, 20), detection("Text", 120, 0, 100, 20),  // same line, two columns
            detection("Text", 250, 22, 100, 20),                                   // below, but right of both
        ]
        XCTAssertEqual(memberSets(TextLines.apply(singles(screen))), [[0], [1], [2]])
    }

    func testLinesOverlappingByAFewPixelsStillGroupAndOtherClassesAreIgnored() {
        let screen = [
            detection("Text", 0, 0, 100, 20), detection("Text", 0, 17, 100, 20),
            detection("Icon", 0, 40, 20, 20), detection("Text", 0, 62, 100, 20),  // an Icon between: Text 3 is 25 below Text 1
        ]
        XCTAssertEqual(memberSets(TextLines.apply(singles(screen))), [[0, 1], [2], [3]])
    }

    func testTextsOtherHeuristicsGroupedAreLeftAlone() {
        var elements = singles([detection("Text", 0, 0, 100, 20), detection("Text", 0, 22, 100, 20)])
        elements[1].grouping = .segmentedControlRow
        elements[1].kind = "Segmented Control"
        XCTAssertEqual(TextLines.apply(elements), elements)
    }
}
