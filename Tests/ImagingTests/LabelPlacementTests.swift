import XCTest
@testable import Imaging

/// Overlays stay readable on dense screens: tags do not print over each other, no outline cuts
/// through a tag, and a legend names the colours.
final class LabelPlacementTests: XCTestCase {
    let white = RGB(255, 255, 255)

    func overlaps(_ a: LabelPlacement.Rect, _ b: LabelPlacement.Rect) -> Bool { LabelPlacement.intersectionArea(a, b) > 0 }

    func testALoneBoxKeepsItsTagAboveItsLeftEdge() {
        let origins = LabelPlacement.place(boxes: [(40, 50, 20, 20)], tagSizes: [(30, 10)], imageWidth: 200, imageHeight: 200)
        XCTAssertEqual(origins.map(\.x), [40])
        XCTAssertEqual(origins.map(\.y), [40])
    }

    func testABoxAtTheTopEdgeTakesItsTagInside() {
        let origins = LabelPlacement.place(boxes: [(40, 3, 20, 20)], tagSizes: [(30, 10)], imageWidth: 200, imageHeight: 200)
        XCTAssertEqual(origins[0].x, 40)
        XCTAssertEqual(origins[0].y, 3)
    }

    /// A row of icons 20 px apart whose 53-px tags would overprint each other above them.
    func testNeighboursTagsDoNotOverlap() {
        let boxes: [LabelPlacement.Rect] = (0..<4).map { (30 + 20 * $0, 100, 15, 15) }
        let sizes = Array(repeating: (width: 53, height: 10), count: 4)
        let origins = LabelPlacement.place(boxes: boxes, tagSizes: sizes, imageWidth: 360, imageHeight: 640)
        let tags = zip(origins, sizes).map { (x: $0.x, y: $0.y, width: $1.width, height: $1.height) }
        for i in tags.indices {
            XCTAssertTrue(tags[i].x >= 0 && tags[i].y >= 0 && tags[i].x + tags[i].width <= 360 && tags[i].y + tags[i].height <= 640, "\(tags[i]) inside the image")
            for j in tags.indices where j > i { XCTAssertFalse(overlaps(tags[i], tags[j]), "tags \(i) \(tags[i]) and \(j) \(tags[j])") }
        }
        XCTAssertEqual(origins[0].y, 90, "the first keeps the preferred spot above its box")
    }

    /// Six identical boxes have only five spots: the sixth takes the least crowded, in the image.
    func testWhenEverySpotIsTakenTheLeastOverlappingWins() {
        let boxes = Array(repeating: (x: 50, y: 50, width: 40, height: 40), count: 6)
        let sizes = Array(repeating: (width: 30, height: 10), count: 6)
        let origins = LabelPlacement.place(boxes: boxes, tagSizes: sizes, imageWidth: 200, imageHeight: 200)
        let spots = Set(origins.prefix(5).map { "\($0.x),\($0.y)" })
        XCTAssertEqual(spots.count, 5, "the first five take the five spots: \(origins)")
        XCTAssertTrue((0...170).contains(origins[5].x) && (0...190).contains(origins[5].y), "\(origins[5])")
    }

    func testATagWiderThanTheRoomLeftIsMovedSidewaysIntoTheImage() {
        let origins = LabelPlacement.place(boxes: [(190, 50, 8, 8)], tagSizes: [(40, 10)], imageWidth: 200, imageHeight: 200)
        XCTAssertEqual(origins[0].x, 160)
    }

    /// Box B's left edge runs through A's tag: the tag, drawn after every outline, stays whole.
    func testNoOutlineCutsThroughAnEarlierTag() {
        var image = RGBImage(width: 120, height: 80, fill: white)
        drawBoxes([(x: 10, y: 30, width: 60, height: 30, label: "Container", colorIndex: 2),
                   (x: 20, y: 5, width: 40, height: 20, label: "", colorIndex: 0)], on: &image, lineWidth: 2)
        // A's tag spans x 10…65, y 20…29 above A; B's left edge is at x 20, y 5…24. The tag's top
        // padding row (y 20) holds no ink, so it is A's colour wherever the tag is.
        XCTAssertEqual(image[20, 20], BoxOverlay.color(forIndex: 2))
        XCTAssertEqual(image[20, 10], BoxOverlay.color(forIndex: 0), "B's edge above the tag is drawn")
    }

    func testLegendAddsAStripWithASwatchPerEntryAndKeepsTheImage() {
        let image = RGBImage(width: 160, height: 40, fill: RGB(10, 20, 30))
        let entries: [Legend.Entry] = [("Text (3)", 1), ("Icon (2)", 4), ("Container (1)", 7)]
        let out = Legend.appended(to: image, entries: entries)
        let layout = Legend.Layout(entries: entries, width: 160, textScale: 1)
        XCTAssertEqual(out.width, 160)
        XCTAssertEqual(out.height, 40 + layout.height)
        XCTAssertEqual(out[0, 0], RGB(10, 20, 30))
        XCTAssertEqual(out[159, 39], RGB(10, 20, 30))
        for (entry, origin) in zip(entries, layout.origins) {
            XCTAssertEqual(out[origin.x + 1, 40 + origin.y + 1], BoxOverlay.color(forIndex: entry.colorIndex), entry.label)
            XCTAssertLessThanOrEqual(origin.x + layout.swatch + layout.gap + BitmapFont.measure(entry.label).width, 160, "\(entry.label) fits the width")
        }
        // 160 px hold "Text (3)" and "Icon (2)" on a line: "Container (1)" wraps.
        XCTAssertEqual(layout.origins.map(\.y), [6, 6, 6 + layout.lineHeight])
    }

    func testNoEntriesAddNothing() {
        let image = RGBImage(width: 30, height: 20, fill: white)
        XCTAssertEqual(Legend.appended(to: image, entries: []), image)
    }
}
