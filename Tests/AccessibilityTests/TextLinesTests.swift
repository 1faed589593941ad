import Imaging
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
        XCTAssertEqual(result[0].box, BoundingBox(minX: 20, minY: 100, maxX: 320, maxY: 170))
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

    /// List rows closer than a line height: each row's title and subtitle join, but a row's
    /// subtitle does not chain into the next row's title across the rows' Container edges.
    func testLinesJoinOnlyInsideTheSameContainer() {
        let screen = [
            detection("Container", 0, 100, 400, 44),   // 0: row 1
            detection("Text", 16, 104, 200, 18),       // 1: its title
            detection("Text", 16, 124, 160, 14),       // 2: its subtitle (gap 2)
            detection("Container", 0, 144, 400, 44),   // 3: row 2
            detection("Text", 16, 148, 200, 18),       // 4: its title (gap 10 < 14 to the subtitle above)
            detection("Text", 16, 168, 160, 14),       // 5
            detection("Text", 16, 192, 200, 18),       // 6: outside every row (gap 10): stays alone
        ]
        XCTAssertEqual(memberSets(TextLines.apply(singles(screen))), [[0], [1, 2], [3], [4, 5], [6]])
        // Without the Containers the six lines are one paragraph, as the paper's rule alone makes them.
        let bare = screen.filter { $0.className == "Text" }
        XCTAssertEqual(memberSets(TextLines.apply(singles(bare))), [[0, 1, 2, 3, 4]])
        // A Container too large for ContainerGrouping to take (a screen-wide card) does not split lines.
        let card = [detection("Container", 0, 0, 400, 800)] + bare
        XCTAssertEqual(memberSets(TextLines.apply(singles(card), screen: phone)), [[0], [1, 2, 3, 4, 5]])
    }

    /// An alert's button line and the heading just below the alert, behind it, stay apart;
    /// a Dialog of any size holds its lines.
    func testLinesDoNotJoinAcrossADialogsEdge() {
        let screen = [
            detection("Dialog", 0, 0, 400, 500),       // 0: larger than a Container could be grouped
            detection("Text", 40, 470, 100, 20),       // 1: "Cancel", at the alert's bottom
            detection("Text", 40, 505, 300, 24),       // 2: behind the alert, gap 15 < 20
            detection("Text", 40, 440, 200, 20),       // 3: the message line above "Cancel" (gap 10)
        ]
        XCTAssertEqual(memberSets(TextLines.apply(singles(screen), screen: phone)), [[0], [1, 3], [2]])
    }
}
