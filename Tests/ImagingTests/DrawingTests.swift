import XCTest
@testable import Imaging

final class DrawingTests: XCTestCase {
    private let white = RGB(255, 255, 255)

    /// Pixels of `image` that differ from `background`, as (x, y) pairs.
    private func changedPixels(_ image: RGBImage, background: RGB) -> Set<[Int]> {
        var changed = Set<[Int]>()
        for y in 0..<image.height { for x in 0..<image.width where image[x, y] != background { changed.insert([x, y]) } }
        return changed
    }

    func testFillRectSetsExactlyTheCoveredPixels() {
        var image = RGBImage(width: 10, height: 8, fill: white)
        image.fillRect(x: 2, y: 3, width: 4, height: 2, color: RGBA(10, 20, 30))
        var expected = Set<[Int]>()
        for y in 3..<5 { for x in 2..<6 { expected.insert([x, y]) } }
        XCTAssertEqual(changedPixels(image, background: white), expected)
        XCTAssertEqual(image[2, 3], RGB(10, 20, 30))
        XCTAssertEqual(image[5, 4], RGB(10, 20, 30))
    }

    func testFillRectClipsAtTheCanvasEdges() {
        var image = RGBImage(width: 6, height: 5, fill: white)
        image.fillRect(x: -3, y: 3, width: 5, height: 10, color: RGBA(0, 0, 0))
        var expected = Set<[Int]>()
        for y in 3..<5 { for x in 0..<2 { expected.insert([x, y]) } }
        XCTAssertEqual(changedPixels(image, background: white), expected)
        // Entirely outside: nothing changes, nothing traps.
        image.fillRect(x: 7, y: -9, width: 3, height: 3, color: RGBA(0, 0, 0))
        image.fill(.circle(centerX: -20, centerY: 40, radius: 5), color: RGBA(0, 0, 0))
        XCTAssertEqual(changedPixels(image, background: white), expected)
    }

    func testHalfOpacityBlendsHalfway() {
        var image = RGBImage(width: 2, height: 1, fill: RGB(200, 100, 0))
        image.fillRect(x: 0, y: 0, width: 1, height: 1, color: RGBA(RGB(0, 200, 100), opacity: 0.5))
        // alpha = 128/255: 200 + (0 − 200)·0.502 = 99.6 → 100; 100 + 100·0.502 = 150.2 → 150; 0 + 100·0.502 = 50.2 → 50.
        XCTAssertEqual(image[0, 0], RGB(100, 150, 50))
        XCTAssertEqual(image[1, 0], RGB(200, 100, 0))
    }

    func testShapeRectOnPixelGridMatchesFillRect() {
        var a = RGBImage(width: 12, height: 9, fill: white), b = a
        a.fill(.rect(x: 3, y: 2, width: 5, height: 4), color: RGBA(40, 50, 60))
        b.fillRect(x: 3, y: 2, width: 5, height: 4, color: RGBA(40, 50, 60))
        XCTAssertEqual(a, b)
    }

    func testCircleIsSymmetricWithFullCentreAndAntialiasedRim() {
        var image = RGBImage(width: 21, height: 21, fill: white)
        image.fill(.circle(centerX: 10.5, centerY: 10.5, radius: 7), color: RGBA(0, 0, 0))
        XCTAssertEqual(image[10, 10], RGB(0, 0, 0))
        XCTAssertEqual(image[0, 0], white)
        // A pixel centre 7 px from the centre lies on the rim: half covered.
        XCTAssertEqual(Int(image[17, 10].r), 128, accuracy: 2)
        for y in 0..<21 { for x in 0..<21 {
            XCTAssertEqual(image[x, y], image[20 - x, y]); XCTAssertEqual(image[x, y], image[x, 20 - y])
            XCTAssertEqual(image[x, y], image[y, x])
        } }
        // Area ≈ π r² (coverage-weighted).
        var ink = 0.0
        for y in 0..<21 { for x in 0..<21 { ink += Double(255 - Int(image[x, y].r)) / 255 } }
        XCTAssertEqual(ink, Double.pi * 49, accuracy: 1.5)
    }

    func testStrokeStaysInsideTheOutlineAndLeavesTheMiddle() {
        var image = RGBImage(width: 30, height: 20, fill: white)
        image.stroke(.roundedRect(x: 5, y: 4, width: 20, height: 12, radius: 4), thickness: 2, color: RGBA(0, 0, 0))
        XCTAssertEqual(image[15, 10], white, "the middle stays untouched")
        XCTAssertEqual(image[15, 4], RGB(0, 0, 0)); XCTAssertEqual(image[15, 5], RGB(0, 0, 0))
        XCTAssertEqual(image[15, 6], white)
        for point in changedPixels(image, background: white) {
            XCTAssert((5..<25).contains(point[0]) && (4..<16).contains(point[1]), "ink outside the outline at \(point)")
        }
    }

    func testLinearGradientRunsBetweenItsStops() {
        var image = RGBImage(width: 11, height: 2, fill: white)
        image.fill(.rect(x: 0, y: 0, width: 11, height: 2),
                   with: .linearGradient(from: CanvasPoint(0.5, 0), to: CanvasPoint(10.5, 0), stops: [RGBA(0, 0, 0), RGBA(200, 100, 250)]))
        XCTAssertEqual(image[0, 0], RGB(0, 0, 0))
        XCTAssertEqual(image[10, 1], RGB(200, 100, 250))
        XCTAssertEqual(image[5, 0], RGB(100, 50, 125))
    }

    func testRadialGradientDependsOnlyOnDistance() {
        var image = RGBImage(width: 9, height: 9, fill: white)
        image.fill(.rect(x: 0, y: 0, width: 9, height: 9),
                   with: .radialGradient(center: CanvasPoint(4.5, 4.5), radius: 4, stops: [RGBA(255, 0, 0), RGBA(0, 0, 255)]))
        XCTAssertEqual(image[4, 4], RGB(255, 0, 0))
        XCTAssertEqual(image[0, 4], RGB(0, 0, 255))
        XCTAssertEqual(image[2, 4], image[4, 2])
        XCTAssertEqual(image[2, 4].r, 128)  // distance 2 of 4: halfway, 127.5 rounds up
    }

    func testLineCoversItsPathOnly() {
        var image = RGBImage(width: 20, height: 20, fill: white)
        image.drawLine(from: CanvasPoint(2, 2), to: CanvasPoint(17, 17), thickness: 2, color: RGBA(0, 0, 0))
        XCTAssertEqual(image[10, 10], RGB(0, 0, 0))
        XCTAssertEqual(image[17, 2], white)
        XCTAssertEqual(image[2, 17], white)
    }

    func testTextWidthMeasurement() {
        XCTAssertEqual(BitmapFont.measure("").width, 0)
        XCTAssertEqual(BitmapFont.measure("A").width, 5)
        XCTAssertEqual(BitmapFont.measure("Hello", scale: 1).width, 29)  // 5 glyphs × 6 − 1 gap
        XCTAssertEqual(BitmapFont.measure("Hello", scale: 3).width, 87)
        XCTAssertEqual(BitmapFont.measure("Hi", scale: 2).height, 18)
    }

    func testEveryPrintableGlyphHasInkExceptSpaceAndFitsItsCell() {
        XCTAssertEqual(BitmapFont.glyphs.count, 95)
        for code in 32...126 {
            let rows = BitmapFont.glyphs[code - 32]
            XCTAssert(rows.count == 7 || rows.count == 9, "glyph \(code) has \(rows.count) rows")
            XCTAssert(rows.allSatisfy { $0 < 32 })
            XCTAssertEqual(rows.contains { $0 != 0 }, code != 32, "glyph \(code)")
        }
        // Distinct characters look distinct.
        XCTAssertEqual(Set(BitmapFont.glyphs).count, 95)
    }

    func testDrawnTextStaysInsideItsMeasuredBox() {
        let text = "Quiet jog, pygmy M"  // Q and M have ink in their outer columns
        var image = RGBImage(width: 120, height: 30, fill: white)
        let width = image.drawText(text, x: 3, y: 4, scale: 1, color: RGBA(0, 0, 0))
        XCTAssertEqual(width, BitmapFont.measure(text).width)
        let ink = changedPixels(image, background: white)
        XCTAssertEqual(ink.map { $0[0] }.min(), 3)
        XCTAssertEqual(ink.map { $0[0] }.max(), 3 + width - 1)
        XCTAssertEqual(ink.map { $0[1] }.min(), 4)
        XCTAssertEqual(ink.map { $0[1] }.max(), 4 + BitmapFont.cellHeight - 1, "descenders reach the last cell row")
        // The letter 'I' at scale 2: its top bar ".###." covers columns 2..<8 of rows 0..<2.
        var letter = RGBImage(width: 10, height: 18, fill: white)
        letter.drawText("I", x: 0, y: 0, scale: 2, color: RGBA(0, 0, 0))
        XCTAssertEqual(letter[1, 0], white); XCTAssertEqual(letter[2, 0], RGB(0, 0, 0)); XCTAssertEqual(letter[7, 1], RGB(0, 0, 0))
        XCTAssertEqual(letter[8, 0], white)
    }

    func testOverlayDrawsTheOutlineColourAtTheBoxEdge() {
        var image = RGBImage(width: 60, height: 60, fill: white)
        drawBoxes([(x: 10, y: 20, width: 30, height: 25, label: "Icon", colorIndex: 2)], on: &image, lineWidth: 2)
        let color = BoxOverlay.color(forIndex: 2)
        for (x, y) in [(10, 20), (39, 20), (10, 44), (39, 44), (25, 20), (25, 21), (10, 30), (11, 30), (39, 30), (25, 44)] {
            XCTAssertEqual(image[x, y], color, "edge pixel (\(x), \(y))")
        }
        XCTAssertEqual(image[25, 30], white, "inside stays clear")
        XCTAssertEqual(image[41, 30], white, "outside stays clear")
        // The tag sits above the box and is the box colour behind the label.
        XCTAssertEqual(image[10, 19], color)
    }

    func testPaletteHasAtLeastTwentyDistinctColoursAndWraps() {
        XCTAssertGreaterThanOrEqual(Set(BoxOverlay.palette).count, 20)
        XCTAssertEqual(BoxOverlay.color(forIndex: BoxOverlay.palette.count + 1), BoxOverlay.color(forIndex: 1))
        XCTAssertEqual(BoxOverlay.color(forIndex: -1), BoxOverlay.palette.last)
    }
}

final class DrawingBadInputTests: XCTestCase {
    func testNonFiniteAndFarAwayGeometryDrawsNothing() {
        let blank = RGBImage(width: 8, height: 8, fill: RGB(255, 255, 255))
        var image = blank
        image.fill(.circle(centerX: .nan, centerY: 3, radius: 2), color: RGBA(0, 0, 0))
        image.fill(.rect(x: 0, y: 0, width: .infinity, height: 4), color: RGBA(0, 0, 0))
        image.fill(.roundedRect(x: -1e300, y: 0, width: 5, height: 5, radius: 1), color: RGBA(0, 0, 0))
        image.fill(.convexPolygon([]), color: RGBA(0, 0, 0))
        image.fill(.rect(x: 2, y: 2, width: -3, height: 4), color: RGBA(0, 0, 0))
        drawBoxes([(x: .nan, y: 0, width: 3, height: 3, label: "x", colorIndex: 0)], on: &image)
        XCTAssertEqual(image, blank)
    }

    func testPolygonTriangleCoversAboutHalfItsBox() {
        var image = RGBImage(width: 20, height: 20, fill: RGB(255, 255, 255))
        image.fill(.convexPolygon([CanvasPoint(0, 0), CanvasPoint(20, 0), CanvasPoint(0, 20)]), color: RGBA(0, 0, 0))
        var ink = 0.0
        for y in 0..<20 { for x in 0..<20 { ink += Double(255 - Int(image[x, y].r)) / 255 } }
        XCTAssertEqual(ink, 200, accuracy: 3)
        XCTAssertEqual(image[1, 1], RGB(0, 0, 0)); XCTAssertEqual(image[18, 18], RGB(255, 255, 255))
        // Winding order does not matter.
        var reversed = RGBImage(width: 20, height: 20, fill: RGB(255, 255, 255))
        reversed.fill(.convexPolygon([CanvasPoint(0, 20), CanvasPoint(20, 0), CanvasPoint(0, 0)]), color: RGBA(0, 0, 0))
        XCTAssertEqual(image, reversed)
    }
}

final class DrawingContactSheetTests: XCTestCase {
    func testGridPlacesImagesRowByRowWithGaps() {
        let red = RGBImage(width: 2, height: 3, fill: RGB(255, 0, 0)), blue = RGBImage(width: 2, height: 3, fill: RGB(0, 0, 255))
        let sheet = ContactSheet.grid([red, blue, red], columns: 2, gap: 1, background: RGB(9, 9, 9))
        XCTAssertEqual(sheet.width, 2 * 2 + 3); XCTAssertEqual(sheet.height, 2 * 3 + 3)
        XCTAssertEqual(sheet[0, 0], RGB(9, 9, 9))
        XCTAssertEqual(sheet[1, 1], RGB(255, 0, 0)); XCTAssertEqual(sheet[2, 3], RGB(255, 0, 0))
        XCTAssertEqual(sheet[3, 1], RGB(9, 9, 9))
        XCTAssertEqual(sheet[4, 1], RGB(0, 0, 255)); XCTAssertEqual(sheet[5, 3], RGB(0, 0, 255))
        XCTAssertEqual(sheet[1, 5], RGB(255, 0, 0)); XCTAssertEqual(sheet[4, 5], RGB(9, 9, 9))
        XCTAssertEqual(ContactSheet.grid([], columns: 3).width, 0)
    }
}
