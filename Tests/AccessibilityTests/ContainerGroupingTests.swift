import XCTest
@testable import Accessibility

final class ContainerGroupingTests: XCTestCase {
    func testAContainerTakesTheElementsInsideIt() {
        let screen = [
            detection("Text", 30, 110, 100, 20),        // 0: inside
            detection("Container", 20, 100, 360, 80),   // 1
            detection("Icon", 340, 120, 30, 30),         // 2: inside
            detection("Text", 30, 300, 100, 20),         // 3: outside
            detection("Icon", 370, 120, 30, 30),         // 4: a third inside: not enough
        ]
        let result = ContainerGrouping.apply(singles(screen), screen: phone)
        XCTAssertEqual(memberSets(result), [[0, 1, 2], [3], [4]])
        XCTAssertEqual(result[0].kind, "Container")
        XCTAssertEqual(result[0].labelHint, "2 items")
    }

    func testNestedContainersGoToTheOuterOneAndEmptyOrHugeContainersStayPlain() {
        let nested = [
            detection("Container", 0, 0, 300, 300), detection("Container", 10, 10, 100, 100),
            detection("Text", 20, 20, 50, 10), detection("Text", 150, 150, 50, 10),
        ]
        XCTAssertEqual(memberSets(ContainerGrouping.apply(singles(nested), screen: phone)), [[0, 1, 2, 3]])
        let empty = [detection("Container", 0, 0, 100, 100), detection("Text", 150, 150, 50, 10)]
        XCTAssertEqual(ContainerGrouping.apply(singles(empty), screen: phone), singles(empty))
        // Over half the 400×800 screen: grouping would make most of the screen one stop.
        let huge = [detection("Container", 0, 0, 400, 500), detection("Text", 150, 150, 50, 10)]
        XCTAssertEqual(ContainerGrouping.apply(singles(huge), screen: phone), singles(huge))
    }

    func testAContainerTakesWholeGroupsMadeEarlier() {
        var elements = singles([detection("Container", 0, 0, 200, 200), detection("Picture", 10, 10, 100, 100), detection("Text", 10, 115, 100, 10)])
        elements = PictureSubtitle.apply(elements, screen: phone)
        XCTAssertEqual(memberSets(elements), [[0], [1, 2]])
        let result = ContainerGrouping.apply(elements, screen: phone)
        XCTAssertEqual(memberSets(result), [[0, 1, 2]])
        XCTAssertEqual(result[0].labelHint, "1 item")
    }

    func testATabBarBoxedAsAContainerKeepsItsTabs() {
        let screen = [
            detection("Container", 0, 740, 400, 60),
            detection("Icon", 40, 750, 24, 24), detection("Text", 30, 776, 44, 14),
            detection("Icon", 240, 750, 24, 24), detection("Text", 230, 776, 44, 14),
            detection("Icon", 340, 750, 24, 24), detection("Text", 330, 776, 44, 14),
        ]
        let view = AccessibilityView(detections: screen, screen: phone)
        XCTAssertEqual(view.elements.map(\.kind), ["Container", "Tab Button", "Tab Button", "Tab Button"])
        XCTAssertEqual(view.elements.map(\.members), [[0], [1, 2], [3, 4], [5, 6]])
    }

    /// An alert over a card: the card keeps what is its own, the alert and its contents stay out
    /// of it; a Container inside the alert (a list in a sheet) still groups its rows.
    func testADialogOverAContainerIsNotOneOfItsItems() {
        let screen = [
            detection("Container", 20, 100, 360, 400),   // 0: a card
            detection("Picture", 30, 110, 340, 200),     // 1: the card's picture
            detection("Dialog", 65, 250, 270, 200),      // 2: an alert over the card
            detection("Text", 150, 270, 100, 20),        // 3: its title
            detection("Container", 80, 300, 240, 60),    // 4: a list row in the alert
            detection("Text", 90, 310, 100, 20),         // 5: the row's text
            detection("Text", 30, 470, 200, 20),         // 6: the card's caption, below the alert
        ]
        XCTAssertEqual(memberSets(ContainerGrouping.apply(singles(screen), screen: phone)), [[0, 1, 6], [2], [3], [4, 5]])
    }
}
