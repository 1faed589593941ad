import Imaging
import XCTest
@testable import Accessibility

final class TabSelectionTests: XCTestCase {
    /// A white 400×800 screen with a tab bar of `colors.count` tabs: each an Icon (a 16×16
    /// square in its colour) over a Text (a 30×6 bar in the same colour).
    func screen(_ colors: [RGB]) -> (image: RGBImage, detections: [ScreenDetection]) {
        var image = RGBImage(width: 400, height: 800, fill: RGB(255, 255, 255))
        var detections: [ScreenDetection] = []
        for (tab, color) in colors.enumerated() {
            let x = 20 + tab * 100
            image.fillRect(x: x + 14, y: 748, width: 16, height: 16, color: RGBA(color))
            image.fillRect(x: x + 7, y: 775, width: 30, height: 6, color: RGBA(color))
            detections += [detection("Icon", Double(x + 10), 745, 24, 24), detection("Text", Double(x), 772, 44, 14)]
        }
        return (image, detections)
    }

    let gray = RGB(140, 140, 140), blue = RGB(0, 122, 255)

    func testTheTabWithTheOutlierTintIsSelected() {
        let (image, detections) = screen([gray, blue, gray, gray])
        let view = AccessibilityView(detections: detections, screen: phone, image: image)
        XCTAssertEqual(view.elements.map(\.labelHint), ["tab 1 of 4, not selected", "tab 2 of 4, selected", "tab 3 of 4, not selected", "tab 4 of 4, not selected"])
        XCTAssertEqual(AccessibilityView(detections: detections, screen: phone).elements.map(\.labelHint),
                       ["tab 1 of 4", "tab 2 of 4", "tab 3 of 4", "tab 4 of 4"], "no screenshot, no state")
    }

    func testNoStateWhenNoTabOrEveryTabStandsOut() {
        let (same, sameDetections) = screen([gray, gray, gray])
        XCTAssertEqual(AccessibilityView(detections: sameDetections, screen: phone, image: same).elements.map(\.labelHint), ["tab 1 of 3", "tab 2 of 3", "tab 3 of 3"])
        let (all, allDetections) = screen([gray, blue, RGB(255, 0, 0)])
        XCTAssertEqual(AccessibilityView(detections: allDetections, screen: phone, image: all).elements.map(\.labelHint), ["tab 1 of 3", "tab 2 of 3", "tab 3 of 3"])
    }

    func testTheTintIsTheSecondMostFrequentColour() throws {
        var image = RGBImage(width: 20, height: 20, fill: RGB(250, 250, 250))
        image.fillRect(x: 0, y: 0, width: 10, height: 10, color: RGBA(0, 0, 200))   // 100 px
        image.fillRect(x: 10, y: 10, width: 5, height: 5, color: RGBA(0, 0, 0))     // 25 px
        let tint = try XCTUnwrap(TabSelection.tint(in: image, box: BoundingBox(x: 0, y: 0, width: 20, height: 20)))
        XCTAssertEqual(tint, SIMD3(0, 0, 200))
        XCTAssertNil(TabSelection.tint(in: image, box: BoundingBox(x: 16, y: 16, width: 4, height: 4)), "one colour: no tint")
        XCTAssertNil(TabSelection.tint(in: image, box: BoundingBox(x: 30, y: 30, width: 4, height: 4)), "outside the image")
    }
}
