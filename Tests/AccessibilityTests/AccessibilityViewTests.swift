import Imaging
import XCTest
@testable import Accessibility

final class AccessibilityViewTests: XCTestCase {
    /// A clock-like screen (Fig. 9 B): two header icons, a title, a two-line list row, a picture
    /// with its caption, a tab bar of three (Icon over Text) and a status-bar class the
    /// heuristics do not know.
    func clockScreen() -> [ScreenDetection] {
        [
            detection("UpperTaskBar", 0, 0, 400, 20),        // 0: unknown class: passes through
            detection("Icon", 360, 30, 24, 24),               // 1: "Add"
            detection("Text", 10, 30, 40, 20),                // 2: "Edit"
            detection("Text", 10, 70, 200, 34),               // 3: "World Clock"
            detection("Text", 10, 130, 200, 18),              // 4: "Today, +0HRS"
            detection("Text", 10, 152, 150, 22),              // 5: "Cupertino" (gap 4 < 18)
            detection("Picture", 100, 300, 200, 150),         // 6
            detection("Text", 110, 455, 120, 16),             // 7: caption
            detection("Icon", 60, 745, 24, 24), detection("Text", 50, 772, 44, 14),     // 8, 9
            detection("Icon", 190, 745, 24, 24), detection("Text", 180, 772, 44, 14),   // 10, 11
            detection("Icon", 320, 745, 24, 24), detection("Text", 310, 772, 44, 14),   // 12, 13
        ]
    }

    func testGroupsThenOrdersTheWholeScreen() {
        let view = AccessibilityView(detections: clockScreen(), screen: phone)
        XCTAssertEqual(view.elements.map(\.members), [[0], [2], [1], [3], [4, 5], [6, 7], [8, 9], [10, 11], [12, 13]])
        XCTAssertEqual(view.elements.map(\.kind), ["UpperTaskBar", "Text", "Icon", "Text", "Text", "Picture", "Tab Button", "Tab Button", "Tab Button"])
        XCTAssertEqual(view.elements.map(\.labelHint), [nil, nil, nil, nil, "2 lines", nil, "tab 1 of 3", "tab 2 of 3", "tab 3 of 3"])
        // The paper's grouping cut its screens' stops about in half (§5.5: 21.8 → 12.1).
        XCTAssertLessThan(view.elements.count, view.detections.count)
    }

    func testEveryDetectionLandsInExactlyOneElement() {
        var random = SystemRandomNumberGenerator()
        let names = DetectionClass.names + ["Something Else"]
        for _ in 0..<20 {
            let screen = (0..<Int.random(in: 0..<300, using: &random)).map { _ in
                detection(names.randomElement(using: &random)!, Double.random(in: -20..<400, using: &random), Double.random(in: -20..<800, using: &random),
                          Double.random(in: 0..<200, using: &random), Double.random(in: 0..<60, using: &random))
            }
            let view = AccessibilityView(detections: screen, screen: phone)
            XCTAssertEqual(view.elements.flatMap(\.members).sorted(), Array(screen.indices))
        }
    }

    func testNoDetectionsOneDetectionAndBoxesThatAreNotNumbers() {
        XCTAssertEqual(AccessibilityView(detections: [], screen: phone).elements, [])
        let one = AccessibilityView(detections: [detection("Checkbox (Unselected)", 10, 10, 20, 20)], screen: phone)
        XCTAssertEqual(one.elements, [AccessibleElement(kind: "Checkbox (Unselected)", grouping: nil, members: [0], box: BoundingBox(x: 10, y: 10, width: 20, height: 20), labelHint: "not selected")])
        let broken = AccessibilityView(detections: [detection("Text", .nan, 10, 20, 20), detection("Text", 0, 100, 20, 20)], screen: phone)
        XCTAssertEqual(broken.elements.map(\.members), [[1]])
        // A screen of no size: the rules measured in screen height find nothing, nothing fails.
        XCTAssertEqual(AccessibilityView(detections: clockScreen(), screen: ScreenSize(width: 0, height: 0)).elements.flatMap(\.members).count, 14)
    }

    func testOverlappingAndZeroSizeDetections() {
        let screen = [
            detection("Icon", 100, 100, 40, 40), detection("Picture", 100, 100, 40, 40),  // the same thing twice (§5.1)
            detection("Text", 50, 50, 0, 0), detection("Text", 50, 50, 0, 0),
        ]
        let view = AccessibilityView(detections: screen, screen: phone)
        XCTAssertEqual(view.elements.flatMap(\.members).sorted(), [0, 1, 2, 3])
        XCTAssertEqual(view.elements.first?.members.first, 2, "the point at (50, 50) is read first")
    }

    func testThousandsOfDetectionsFinishQuickly() {
        var random = SystemRandomNumberGenerator()
        let names = DetectionClass.names
        let screen = (0..<4000).map { _ in
            detection(names.randomElement(using: &random)!, Double.random(in: 0..<1000, using: &random), Double.random(in: 0..<2000, using: &random),
                      Double.random(in: 0..<60, using: &random), Double.random(in: 0..<30, using: &random))
        } + Array(repeating: detection("Text", 10, 10, 30, 10), count: 1000)
        let start = Date()
        let view = AccessibilityView(detections: screen, screen: ScreenSize(width: 1000, height: 2000))
        XCTAssertEqual(view.elements.flatMap(\.members).count, 5000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "debug build, shared machine: generous")
    }

    /// An alert over a list (the synthetic generator's dialog): the alert is read first — its
    /// box, title, message, then its buttons left to right — and the rows it dims after, top to
    /// bottom as if it were not there, though it covers the middle of the screen.
    func testADialogIsReadFirstThenTheScreenBehindIt() {
        let screen = [
            detection("Text", 10, 100, 200, 20),              // 0: row above the alert
            detection("Text", 10, 330, 50, 20),               // 1: row beside the alert, on its left
            detection("Dialog", 65, 300, 270, 160),           // 2
            detection("Text", 150, 320, 100, 20),             // 3: title
            detection("Text", 90, 360, 220, 16),              // 4: message
            detection("Text", 110, 420, 60, 20),              // 5: "Cancel"
            detection("Text", 230, 420, 60, 20),              // 6: "Delete"
            detection("Icon", 360, 340, 24, 24),              // 7: beside, on its right
            detection("Text", 10, 600, 200, 20),              // 8: row below
        ]
        let view = AccessibilityView(detections: screen, screen: phone)
        XCTAssertEqual(view.elements.flatMap(\.members), [2, 3, 4, 5, 6, 0, 1, 7, 8])
        // Without the dialog the same screen reads in place: XY-cut puts the alert's rows among the others.
        let inPlace = AccessibilityView(detections: screen.enumerated().filter { $0.offset != 2 }.map(\.element), screen: phone)
        XCTAssertEqual(inPlace.elements.first?.members, [0])
    }

    /// Two alerts apart are read in their own order, each followed by what it holds; one inside
    /// another is read in place inside the outer one; a Dialog holding nothing still comes first.
    func testSeveralDialogs() {
        let screen = [
            detection("Text", 10, 10, 100, 20),               // 0
            detection("Dialog", 20, 400, 300, 200),           // 1: lower alert
            detection("Text", 40, 420, 100, 20),              // 2: in 1
            detection("Dialog", 20, 100, 300, 200),           // 3: upper alert
            detection("Dialog", 40, 150, 200, 100),           // 4: inside 3
            detection("Text", 60, 170, 100, 20),              // 5: in 4 (and 3)
            detection("Text", 40, 120, 100, 20),              // 6: in 3, above 4
        ]
        let view = AccessibilityView(detections: screen, screen: phone)
        XCTAssertEqual(view.elements.flatMap(\.members), [3, 6, 4, 5, 1, 2, 0])
        let lone = AccessibilityView(detections: [detection("Text", 10, 10, 100, 20), detection("Dialog", 50, 300, 200, 100)], screen: phone)
        XCTAssertEqual(lone.elements.flatMap(\.members), [1, 0])
    }

    func testAContainerTooLargeToGroupIsReadBeforeWhatIsInsideAndDoesNotBlockTheCuts() {
        let screen = [
            detection("Text", 150, 20, 100, 20),                 // 0: title, above the backdrop
            detection("Container", 5, 50, 390, 600),             // 1: 73% of the screen
            detection("Picture", 20, 60, 160, 150), detection("Picture", 220, 62, 160, 150),    // 2, 3
            detection("Picture", 20, 240, 160, 150), detection("Picture", 220, 238, 160, 150),  // 4, 5
        ]
        let view = AccessibilityView(detections: screen, screen: phone)
        XCTAssertEqual(view.elements.map(\.members), [[0], [1], [2], [3], [4], [5]], "row by row, the backdrop before its contents")
        var literal = AccessibilityOptions()
        literal.maximumContainerFraction = 1
        XCTAssertEqual(AccessibilityView(detections: screen, screen: phone, options: literal).elements.map(\.members), [[0], [1, 2, 3, 4, 5]],
                       "the paper's rule alone: one stop for the whole grid")
    }

    func testMembersOfAGroupAreInTheirOwnReadingOrder() {
        // A Container (read first, as what the group is) with a column of two Texts beside a
        // tall Icon that starts higher: XY-cut reads the column before the Icon.
        let screen = [
            detection("Icon", 300, 105, 30, 80), detection("Text", 20, 160, 130, 20),
            detection("Container", 10, 100, 380, 100), detection("Text", 20, 110, 130, 20),
        ]
        let view = AccessibilityView(detections: screen, screen: phone)
        XCTAssertEqual(view.elements.map(\.members), [[2, 3, 1, 0]])
    }
}

final class InsertionDistanceTests: XCTestCase {
    func testStepsToTheTrueOrder() {
        XCTAssertEqual(InsertionDistance.minimumInsertions([1, 2, 3, 4], truth: [1, 2, 3, 4]), 0)
        XCTAssertEqual(InsertionDistance.minimumInsertions([2, 3, 4, 1], truth: [1, 2, 3, 4]), 1)
        XCTAssertEqual(InsertionDistance.minimumInsertions([1, 3, 2, 5, 4], truth: [1, 2, 3, 4, 5]), 2)
        XCTAssertEqual(InsertionDistance.minimumInsertions(Array((0..<10).reversed()), truth: Array(0..<10)), 9)
        XCTAssertEqual(InsertionDistance.minimumInsertions([Int](), truth: []), 0)
        XCTAssertEqual(InsertionDistance.minimumInsertions(["a", "c"], truth: ["a", "b", "c"]), 1, "a missing element is one insertion")
    }
}
