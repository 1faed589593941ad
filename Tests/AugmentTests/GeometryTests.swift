import XCTest
@testable import Augment
import Data
import Imaging
import Support

final class GeometryTests: XCTestCase {
    let fill = RGB(114, 114, 114)

    /// The pipeline draws the mosaic's tiles only where scale/translate will read: inside that
    /// window the canvas is the whole drawing's, byte for byte, and outside it stays fill.
    func testMosaicDrawnInAWindowMatchesTheWholeCanvasThere() {
        // Tiles at scale 1 (copies), shrunk (area) and grown (bilinear); windows inside one tile,
        // across the centre, missing every tile, and the whole canvas.
        let tiles = [(100, 200), (150, 310), (37, 61), (100, 200)].enumerated().map { index, size in
            AnnotatedImage(image: patternedImage(width: size.0, height: size.1, seed: UInt8(index + 7)), annotations: [])
        }
        let whole = Mosaic.compose(tiles, centerX: 120, centerY: 150, outputWidth: 100, outputHeight: 200,
                                   fill: fill, rules: AugmentPreset.BoxRules())
        for (columns, rows) in [(30..<90, 10..<60), (97..<161, 120..<230), (0..<20, 0..<40), (0..<200, 0..<400), (150..<151, 399..<400)] {
            let windowed = Mosaic.compose(tiles, centerX: 120, centerY: 150, outputWidth: 100, outputHeight: 200,
                                          fill: fill, rules: AugmentPreset.BoxRules(), visible: (columns, rows))
            XCTAssertEqual(windowed.annotations, whole.annotations)
            for y in 0..<400 {
                for x in 0..<200 {
                    let expected = columns.contains(x) && rows.contains(y) ? whole.image[x, y] : fill
                    guard windowed.image[x, y] == expected else {
                        return XCTFail("window \(columns) × \(rows): pixel (\(x), \(y)) is \(windowed.image[x, y]), expected \(expected)")
                    }
                }
            }
        }
    }

    func testMosaicPlacesTilesAroundAFixedCentre() {
        // Output 100×200 → canvas 200×400; centre (120, 150). Tiles 100×200 are placed at scale 1,
        // except the 50×50 bottom-right tile, which fits 100×200 at scale 2.
        let tiles = [
            AnnotatedImage(image: patternedImage(width: 100, height: 200, seed: 1),
                           annotations: [annotation(0, 10, 60, 20, 20), annotation(1, 0, 0, 30, 30), annotation(2, 0, 40, 40, 20)]),
            AnnotatedImage(image: patternedImage(width: 100, height: 200, seed: 2), annotations: [annotation(3, 50, 100, 30, 40)]),
            AnnotatedImage(image: patternedImage(width: 100, height: 200, seed: 3), annotations: [annotation(4, 0, 190, 100, 10)]),
            AnnotatedImage(image: patternedImage(width: 50, height: 50, seed: 4), annotations: [annotation(5, 10, 10, 5, 5)]),
        ]
        let mosaic = Mosaic.compose(tiles, centerX: 120, centerY: 150, outputWidth: 100, outputHeight: 200,
                                    fill: fill, rules: AugmentPreset.BoxRules())
        XCTAssertEqual(mosaic.width, 200); XCTAssertEqual(mosaic.height, 400)
        // Top-left tile at (20, −50): (10,60) → (30,10); (0,0,30,30) → y −50…−20, outside → dropped;
        // (0,40,40,20) → (20,−10) clipped to (20,0,40,10), half visible → kept.
        XCTAssertEqual(mosaic.annotations.map(\.classIndex), [0, 2, 3, 4, 5])
        assertBoxesEqual(mosaic.annotations.map(\.box), [
            box(30, 10, 20, 20), box(20, 0, 40, 10),
            box(170, 50, 30, 40),            // top-right tile at (120, −50)
            box(20, 340, 100, 10),           // bottom-left tile at (20, 150)
            box(140, 170, 10, 10),           // bottom-right tile at (120, 150), scale 2
        ])
        XCTAssertEqual(mosaic.visibleFractions[1], 0.5, accuracy: 1e-12)
        XCTAssertEqual(mosaic.image[0, 0], fill, "left of the top-left tile is padding")
        XCTAssertEqual(mosaic.image[20, 0], tiles[0].image[0, 50])
        XCTAssertEqual(mosaic.image[119, 149], tiles[0].image[99, 199])
        XCTAssertEqual(mosaic.image[120, 0], tiles[1].image[0, 50])
        XCTAssertEqual(mosaic.image[20, 150], tiles[2].image[0, 0])
        XCTAssertEqual(mosaic.image[119, 349], tiles[2].image[99, 199])
        XCTAssertEqual(mosaic.image[120, 350], fill, "below the scaled bottom-right tile")
        XCTAssertEqual(mosaic.image[20, 350], fill, "below the bottom-left tile")
    }

    func testScaleTranslateMapsBoxesExactly() {
        // u = (x − 50)·0.5 + 50 + 10 = 0.5x + 35; v = (y − 100)·0.5 + 100 − 20 = 0.5y + 30.
        let map = ScaleTranslate.map(canvasWidth: 100, canvasHeight: 200, outputWidth: 100, outputHeight: 200,
                                     scale: 0.5, shiftX: 10, shiftY: -20)
        XCTAssertEqual(map, BoxMap(scaleX: 0.5, scaleY: 0.5, offsetX: 35, offsetY: 30))
        let input = AnnotatedImage(image: patternedImage(width: 100, height: 200),
                                   annotations: [annotation(0, 20, 40, 40, 20), annotation(1, 0, 0, 10, 10)])
        let output = ScaleTranslate.apply(input, map: map, outputWidth: 100, outputHeight: 200, fill: fill, rules: .init())
        assertBoxesEqual(output.annotations.map(\.box), [box(45, 50, 20, 10), box(35, 30, 5, 5)])
        XCTAssertEqual(output.image[34, 100], fill)
        XCTAssertNotEqual(output.image[35, 100], fill)
        XCTAssertNotEqual(output.image[84, 129], fill)
        XCTAssertEqual(output.image[85, 129], fill)
        XCTAssertEqual(output.image[50, 130], fill)
    }

    func testLetterboxIsTheScaleTranslateOfTheFitScale() {
        // 200×200 into 100×200: scale 0.5, content 100×100 centred vertically at y = 50.
        let input = AnnotatedImage(image: patternedImage(width: 200, height: 200), annotations: [annotation(0, 0, 0, 200, 200)])
        let map = ScaleTranslate.map(canvasWidth: 200, canvasHeight: 200, outputWidth: 100, outputHeight: 200,
                                     scale: 0.5, shiftX: 0, shiftY: 0)
        let output = ScaleTranslate.apply(input, map: map, outputWidth: 100, outputHeight: 200, fill: fill, rules: .init())
        assertBoxesEqual(output.annotations.map(\.box), [box(0, 50, 100, 100)])
        XCTAssertEqual(output.image[50, 49], fill)
        XCTAssertNotEqual(output.image[50, 50], fill)
        XCTAssertEqual(output.image[50, 150], fill)
    }

    func testPlacementReportsTheMapItReallyApplied() {
        // Scale 1/3 of a 10 px source from x = 0.4: destination [0.4, 3.73) rounds to [0, 4) → 4/10 scale.
        let plan = Placement.plan(sourceWidth: 10, sourceHeight: 10, map: BoxMap(scaleX: 1.0 / 3, scaleY: 1, offsetX: 0.4),
                                  canvasWidth: 20, canvasHeight: 20)!
        XCTAssertEqual(plan.destination, Placement.Region(x: 0, y: 0, width: 4, height: 10))
        XCTAssertEqual(plan.applied.scaleX, 0.4, accuracy: 1e-12)
        XCTAssertEqual(plan.applied.offsetX, 0, accuracy: 1e-12)
    }

    func testComposedMapsApplyInOrder() {
        let first = BoxMap(scaleX: 2, scaleY: 3, offsetX: 1, offsetY: -1), second = BoxMap(scaleX: 0.5, scaleY: 2, offsetX: 10, offsetY: 4)
        let b = box(3, 4, 5, 6)
        XCTAssertEqual(first.followed(by: second).apply(b), second.apply(first.apply(b)))
        // (x·2 + 1)·0.5 + 10 = x + 10.5; (y·3 − 1)·2 + 4 = 6y + 2.
        XCTAssertEqual(first.followed(by: second), BoxMap(scaleX: 1, scaleY: 6, offsetX: 10.5, offsetY: 2))
    }

    func testHorizontalFlipMirrorsBoxesAndPixels() {
        let original = AnnotatedImage(image: patternedImage(width: 30, height: 10), annotations: [annotation(0, 2, 1, 5, 3)])
        var flipped = original
        HorizontalFlip.apply(&flipped)
        assertBoxesEqual(flipped.annotations.map(\.box), [box(23, 1, 5, 3)])
        XCTAssertEqual(flipped.image[0, 4], original.image[29, 4])
        HorizontalFlip.apply(&flipped)
        XCTAssertEqual(flipped, original)
    }
}

final class ContactSheetTests: XCTestCase {
    func testTilesSitInTheirCells() {
        let tiles = (0..<5).map { RGBImage(width: 10, height: 20, fill: RGB(UInt8($0 * 10), 0, 0)) }
        let sheet = ContactSheet.compose(tiles, columns: 2, gap: 3, background: RGB(1, 1, 1))
        XCTAssertEqual(sheet.width, 2 * 10 + 3 * 3)
        XCTAssertEqual(sheet.height, 3 * 20 + 4 * 3)
        XCTAssertEqual(sheet[3, 3], RGB(0, 0, 0))
        XCTAssertEqual(sheet[16, 3], RGB(10, 0, 0))      // second column starts at 3 + 10 + 3
        XCTAssertEqual(sheet[3, 49], RGB(40, 0, 0))      // third row starts at 3 + 2·23
        XCTAssertEqual(sheet[16, 49], RGB(1, 1, 1), "the empty sixth cell is background")
        XCTAssertEqual(sheet[2, 3], RGB(1, 1, 1))
    }
}

final class AugmentPreviewTests: XCTestCase {
    func testSheetsHoldTheLoadersSamplesWithBoxesDrawn() throws {
        let source = syntheticSource(count: 3)
        var options = DataLoader.Options()
        options.workers = 0
        let loader = try DataLoader(source: source, pipeline: AugmentPipeline(preset: AugmentPreset(), source: source,
                                                                              outputWidth: 60, outputHeight: 120), options: options)
        // 5 samples from a 3-image epoch: continues into epoch 1; 4 per sheet → 2 sheets.
        let sheets = try AugmentPreview.sheets(loader, classNames: ["Text", "Icon", "Slider"], count: 5, columns: 2, perSheet: 4)
        XCTAssertEqual(sheets.count, 2)
        XCTAssertEqual(sheets[0].width, 2 * 60 + 3 * 6)
        XCTAssertEqual(sheets[1].height, 120 + 2 * 6)
        let first = try loader.augmentedSample(epoch: 0, position: 0).sample
        let drawn = AugmentPreview.overlay(first, classNames: ["Text", "Icon", "Slider"])
        XCTAssertNotEqual(drawn, first.image, "boxes are drawn")
        XCTAssertEqual(sheets[0][6 + 59, 6 + 119], drawn[59, 119])
    }
}
