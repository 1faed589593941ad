import Foundation
import Imaging
import XCTest
@testable import Accessibility

final class AccessibilityWriterTests: XCTestCase {
    func view() -> AccessibilityView {
        AccessibilityView(detections: [
            detection("Picture", 20, 20, 100, 80), detection("Text", 25, 105, 80, 12, score: 0.25),
            detection("Toggle (Selected)", 150, 30, 40, 20),
        ], screen: ScreenSize(width: 200, height: 300))
    }

    func testJSONListsElementsInOrderWithTheirMembers() throws {
        let json = AccessibilityWriter.json(view(), imageID: "home \"1\"", fileName: "home \"1\".png")
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(parsed["image_id"] as? String, "home \"1\"")
        XCTAssertEqual(parsed["width"] as? Int, 200)
        XCTAssertEqual(parsed["detections"] as? Int, 3)
        let elements = try XCTUnwrap(parsed["elements"] as? [[String: Any]])
        XCTAssertEqual(elements.map { $0["order"] as? Int }, [1, 2])
        XCTAssertEqual(elements.map { $0["kind"] as? String }, ["Picture", "Toggle (Selected)"])
        XCTAssertEqual(elements[0]["grouping"] as? String, "picture subtitle")
        XCTAssertTrue(elements[0]["label_hint"] is NSNull)
        XCTAssertEqual(elements[1]["label_hint"] as? String, "selected")
        XCTAssertEqual(elements[0]["bbox"] as? [Double], [20, 20, 100, 97])
        let members = try XCTUnwrap(elements[0]["members"] as? [[String: Any]])
        XCTAssertEqual(members.map { $0["category_name"] as? String }, ["Picture", "Text"])
        XCTAssertEqual(members[1]["score"] as? Double, 0.25)
        XCTAssertEqual(members[1]["category_id"] as? Int, 9)
    }

    func testThePictureIsTheScreenshotWithTheElementsDrawnOnIt() {
        let screenshot = RGBImage(width: 200, height: 300, fill: RGB(255, 255, 255))
        let drawn = AccessibilityWriter.drawn(screenshot, view())
        XCTAssertEqual(drawn.width, 200)
        XCTAssertEqual(drawn.height, 300)
        XCTAssertNotEqual(drawn, screenshot)
        XCTAssertEqual(drawn[199, 299], RGB(255, 255, 255), "away from every element nothing is drawn")
        XCTAssertEqual(AccessibilityWriter.drawn(screenshot, AccessibilityView(detections: [], screen: ScreenSize(width: 200, height: 300))), screenshot)
    }

    func testKindsKeepTheColoursPredictGivesTheirClasses() {
        XCTAssertEqual(AccessibilityWriter.colorIndex(forKind: "Text"), DetectionClass.index(of: "Text"))
        XCTAssertEqual(AccessibilityWriter.colorIndex(forKind: "Icon"), DetectionClass.index(of: "Icon"))
        XCTAssertEqual(AccessibilityWriter.colorIndex(forKind: "Tab Button"), 13)
        XCTAssertEqual(AccessibilityWriter.colorIndex(forKind: "UpperTaskBar"), AccessibilityWriter.colorIndex(forKind: "UpperTaskBar"))
    }
}
