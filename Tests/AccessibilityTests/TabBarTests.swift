import Imaging
import XCTest
@testable import Accessibility

final class TabBarTests: XCTestCase {
    /// Four tabs (Icon over Text) in the bottom bar of a 400×800 screen, content above.
    func tabBarScreen() -> [ScreenDetection] {
        var screen = [detection("Text", 20, 600, 300, 20)]  // 0: content, above the bottom 20%
        for tab in 0..<4 {
            let x = 30 + Double(tab) * 100
            screen.append(detection("Icon", x + 10, 745, 24, 24))   // 1, 3, 5, 7
            screen.append(detection("Text", x, 772, 44, 14))        // 2, 4, 6, 8
        }
        return screen
    }

    func testIconAndTextInEachColumnOfTheBottomBarBecomeOneTabButton() {
        let result = TabBar.apply(singles(tabBarScreen()), screen: phone)
        XCTAssertEqual(memberSets(result), [[0], [1, 2], [3, 4], [5, 6], [7, 8]])
        XCTAssertEqual(result.map(\.kind), ["Text"] + Array(repeating: "Tab Button", count: 4))
        XCTAssertEqual(result.dropFirst().map(\.labelHint), ["tab 1 of 4", "tab 2 of 4", "tab 3 of 4", "tab 4 of 4"])
        XCTAssertEqual(result[1].box, BoundingBox(minX: 30, minY: 745, maxX: 74, maxY: 786))
    }

    func testItemsMuchHigherThanTheBottomMostDetectionAreNotInTheBar() {
        // A bottom-most detection at 795: an Icon whose top is 0.08·800 = 64 above it or more is out.
        var screen = tabBarScreen()
        screen.append(detection("Picture", 0, 790, 400, 5))         // 9: B
        screen.append(detection("Icon", 350, 700, 20, 20))          // 10: in the bottom 20%, but 95 above B
        let result = TabBar.apply(singles(screen), screen: phone)
        XCTAssertEqual(result.filter { $0.kind == "Tab Button" }.count, 4)
        XCTAssertTrue(result.contains { $0.members == [10] && $0.kind == "Icon" })
    }

    func testOneTextAtTheBottomOrAListRowIsNotATabBar() {
        let footer = [detection("Text", 20, 100, 200, 20), detection("Text", 150, 770, 100, 14)]
        XCTAssertEqual(TabBar.apply(singles(footer), screen: phone), singles(footer))
        let row = [detection("Text", 20, 760, 150, 16), detection("Icon", 370, 762, 10, 14)]  // "Office Bottoms  >"
        XCTAssertEqual(TabBar.apply(singles(row), screen: phone), singles(row))
        var twoTabs = AccessibilityOptions()
        twoTabs.minimumTabs = 2
        XCTAssertEqual(TabBar.apply(singles(row), screen: phone, options: twoTabs).map(\.labelHint), ["tab 1 of 2", "tab 2 of 2"])
    }

    func testIconOnlyTabBarsAndOtherClassesInTheBar() {
        let screen = [
            detection("Icon", 40, 760, 24, 24), detection("Icon", 190, 760, 24, 24), detection("Icon", 340, 760, 24, 24),
            detection("Toggle (Selected)", 100, 760, 40, 24),  // not Icon or Text: stays itself
        ]
        let result = TabBar.apply(singles(screen), screen: phone)
        XCTAssertEqual(result.map(\.kind), ["Tab Button", "Tab Button", "Tab Button", "Toggle (Selected)"])
        XCTAssertEqual(result.map(\.labelHint), ["tab 1 of 3", "tab 2 of 3", "tab 3 of 3", "selected"])
    }
}
