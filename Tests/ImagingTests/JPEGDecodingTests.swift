import Foundation
import XCTest
@testable import Imaging

/// 16×16 JPEGs of four flat 8×8 blocks (red, green, blue, light grey); `*.rgb` is Pillow's
/// decode of the same file.
final class JPEGDecodingTests: XCTestCase {
    private let blockColours = [(0, 0, RGB(200, 30, 30)), (8, 0, RGB(30, 200, 30)),
                                (0, 8, RGB(30, 30, 200)), (8, 8, RGB(240, 240, 240))]

    private func reference(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.url(name)))
    }

    private func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    private func assertBlocks(_ image: RGBImage, tolerance: Int, gray: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(image.width, 16, file: file, line: line)
        XCTAssertEqual(image.height, 16, file: file, line: line)
        for (x0, y0, colour) in blockColours {
            // Block centres: away from chroma-upsampling edges.
            let pixel = image[x0 + 4, y0 + 4]
            var expected = colour
            if gray {
                // ITU-R 601 luma, as Pillow's convert("L"): (299 R + 587 G + 114 B) / 1000.
                let weighted: Int = 299 * Int(colour.r) + 587 * Int(colour.g) + 114 * Int(colour.b)
                let luma = UInt8((weighted + 500) / 1000)
                expected = RGB(luma, luma, luma)
            }
            for (got, want) in [(pixel.r, expected.r), (pixel.g, expected.g), (pixel.b, expected.b)] {
                XCTAssertLessThanOrEqual(abs(Int(got) - Int(want)), tolerance, "block (\(x0),\(y0)): \(pixel) vs \(expected)", file: file, line: line)
            }
        }
    }

    func testBaselineMatchesColoursAndPillow() throws {
        let image = try Fixtures.image("baseline.jpg")
        assertBlocks(image, tolerance: 2)
        XCTAssertLessThanOrEqual(maxDifference(image.pixels, try reference("baseline.rgb")), 1)
    }

    func testProgressiveSubsampledMatchesPillow() throws {
        let image = try Fixtures.image("progressive.jpg")
        assertBlocks(image, tolerance: 6)
        XCTAssertLessThanOrEqual(maxDifference(image.pixels, try reference("progressive.rgb")), 1)
    }

    func testGrayscaleExpandsToRGB() throws {
        let image = try Fixtures.image("gray.jpg")
        assertBlocks(image, tolerance: 2, gray: true)
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            XCTAssertEqual(image.pixels[i], image.pixels[i + 1]); XCTAssertEqual(image.pixels[i], image.pixels[i + 2])
        }
        XCTAssertLessThanOrEqual(maxDifference(image.pixels, try reference("gray.rgb")), 1)
    }

    func testAdobeCMYKConvertsLikePillow() throws {
        let image = try Fixtures.image("cmyk.jpg")
        assertBlocks(image, tolerance: 3)
        XCTAssertLessThanOrEqual(maxDifference(image.pixels, try reference("cmyk.rgb")), 1)
    }

    func testCMYKFormula() {
        // Plain (non-inverted) C=0 M=255 Y=255 K=0 is pure red; K=255 is black whatever C, M, Y.
        let plain = JPEGCodec.cmykToRGB([0, 255, 255, 0, 10, 20, 30, 255], width: 2, height: 1, inverted: false)
        XCTAssertEqual(pixelRows(plain), [[RGB(255, 0, 0), RGB(0, 0, 0)]])
        // Inverted storage of C=0 M=128 Y=255 K=0: stored 255, 127, 0, 255.
        let inverted = JPEGCodec.cmykToRGB([255, 127, 0, 255], width: 1, height: 1, inverted: true)
        XCTAssertEqual(inverted[0, 0], RGB(255, 127, 0))
    }

    func testJPEGEncodeDecodeOfSmoothImageIsClose() throws {
        // Smooth gradients: what JPEG is built for (sharp chroma edges are blurred by 4:2:0).
        var image = RGBImage(width: 32, height: 24)
        for y in 0..<24 { for x in 0..<32 { image[x, y] = RGB(UInt8(x * 6), UInt8(y * 8), UInt8(100 + x + y)) } }
        let decoded = try ImageIO.decode(try ImageIO.encodeJPEG(image, quality: 95), name: "re-encoded")
        XCTAssertEqual(decoded.width, 32); XCTAssertEqual(decoded.height, 24)
        let errors = zip(decoded.pixels, image.pixels).map { abs(Int($0) - Int($1)) }
        XCTAssertLessThan(Double(errors.reduce(0, +)) / Double(errors.count), 1.5)
        XCTAssertLessThanOrEqual(errors.max() ?? 0, 8)
        XCTAssertThrowsError(try ImageIO.encodeJPEG(image, quality: 0))
    }
}
