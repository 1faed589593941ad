import XCTest
@testable import Imaging

/// Fixtures from Peers/imaging/make_fixtures.py; expected values are the
/// formulas used there.
final class PNGDecodingTests: XCTestCase {
    func testRGB8MatchesGeneratingFormula() throws {
        let image = try Fixtures.image("rgb8.png")
        XCTAssertEqual(image.width, 4); XCTAssertEqual(image.height, 3)
        for y in 0..<3 {
            for x in 0..<4 {
                XCTAssertEqual(image[x, y], RGB(UInt8(x * 60), UInt8(y * 90 + 10), UInt8(255 - x * 20 - y * 50)), "(\(x),\(y))")
            }
        }
    }

    func testRGBAIsCompositedOverWhite() throws {
        let image = try Fixtures.image("rgba8.png")
        // Colour (200, 100, 0) at alpha 0, 64, 128, 255: c·a/255 + 255·(1 − a/255), rounded.
        // alpha 64: 200·64/255 + 191 = 241.2; 100·64/255 + 191 = 216.1; 0 + 191 = 191.
        // alpha 128: 100.4 + 127 = 227.4; 50.2 + 127 = 177.2; 127.
        XCTAssertEqual(pixelRows(image), [[RGB(255, 255, 255), RGB(241, 216, 191), RGB(227, 177, 127), RGB(200, 100, 0)]])
    }

    func testGrayAndGrayAlphaExpandToEqualChannels() throws {
        let gray = try Fixtures.image("gray8.png")
        let values: [[UInt8]] = [[0, 50, 100, 255], [1, 2, 3, 128]]
        XCTAssertEqual(pixelRows(gray), values.map { $0.map { RGB($0, $0, $0) } })
        // Alphas [[255, 255, 0, 128], [255…]]: (100, a 0) → white, (255, a 128) → 255.
        let grayAlpha = try Fixtures.image("graya8.png")
        XCTAssertEqual(pixelRows(grayAlpha)[0], [RGB(0, 0, 0), RGB(50, 50, 50), RGB(255, 255, 255), RGB(255, 255, 255)])
        XCTAssertEqual(pixelRows(grayAlpha)[1], [RGB(1, 1, 1), RGB(2, 2, 2), RGB(3, 3, 3), RGB(128, 128, 128)])
    }

    func testOneBitGray() throws {
        let w = RGB(255, 255, 255), b = RGB(0, 0, 0)
        XCTAssertEqual(pixelRows(try Fixtures.image("gray1.png")), [[w, b, w], [b, w, b]])
    }

    func testPalette() throws {
        let red = RGB(255, 0, 0), green = RGB(0, 255, 0), other = RGB(10, 20, 30)
        XCTAssertEqual(pixelRows(try Fixtures.image("palette.png")), [[red, green, other], [other, green, red]])
    }

    func testSixteenBitIsScaledNotGammaConverted() throws {
        // Samples are 257·v for exact cases; 32896 = 128·257 + 0 → 128.
        let rgb = try Fixtures.image("rgb16.png")
        XCTAssertEqual(pixelRows(rgb), [[RGB(0, 255, 100), RGB(200, 50, 255)], [RGB(10, 20, 30), RGB(128, 255, 0)]])
        let gray = try Fixtures.image("gray16.png")
        XCTAssertEqual(pixelRows(gray), [[RGB(0, 0, 0), RGB(77, 77, 77)], [RGB(255, 255, 255), RGB(128, 128, 128)]])
    }

    func testAdam7Interlaced() throws {
        let image = try Fixtures.image("interlaced.png")
        XCTAssertEqual(image.width, 9); XCTAssertEqual(image.height, 9)
        for y in 0..<9 {
            for x in 0..<9 {
                XCTAssertEqual(image[x, y], RGB(UInt8(x * 28), UInt8(y * 28), UInt8((x + y) * 14)), "(\(x),\(y))")
            }
        }
    }

    func testPaletteTransparencyIsCompositedOverWhite() throws {
        // tRNS alphas 255, 0, 128 on red, green, (10, 20, 30): 10·128/255 + 127 = 132.0…,
        // 20·128/255 + 127 = 137.0…, 30·128/255 + 127 = 142.1…
        XCTAssertEqual(pixelRows(try Fixtures.image("palette-trns.png")), [[RGB(255, 0, 0), RGB(255, 255, 255), RGB(132, 137, 142)]])
    }

    func testGammaChunkIsIgnoredLikePillowAndOpenCV() throws {
        // Stored (64, 128, 192) with gAMA 1.0; libpng alone would return (136, 186, 224).
        XCTAssertEqual(try Fixtures.image("gamma-linear.png")[0, 0], RGB(64, 128, 192))
    }
}
