import Foundation
import XCTest
@testable import Imaging

final class ResizeTests: XCTestCase {
    /// A one-channel pattern in R; G and B carry fixed offsets to catch channel mix-ups.
    private func image(_ rows: [[UInt8]]) -> RGBImage {
        var image = RGBImage(width: rows[0].count, height: rows.count)
        for (y, row) in rows.enumerated() {
            for (x, v) in row.enumerated() { image[x, y] = RGB(v, 7, 250) }
        }
        return image
    }

    private func red(_ image: RGBImage) -> [[UInt8]] { pixelRows(image).map { $0.map(\.r) } }

    func testConstantImageStaysConstant() {
        let constant = RGBImage(width: 37, height: 23, fill: RGB(13, 200, 255))
        for (w, h) in [(10, 7), (80, 50), (37, 5), (1, 1), (111, 23)] {
            for resampling in Resampling.allCases {
                let out = constant.resized(width: w, height: h, resampling: resampling)
                XCTAssertEqual(out, RGBImage(width: w, height: h, fill: RGB(13, 200, 255)), "\(w)×\(h) \(resampling)")
            }
        }
    }

    func testBilinearUpscaleOfTwoByTwoHandComputed() {
        // Half-pixel centres, 2 → 4: outputs sample −0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1).
        // Rows: [0, 25, 75, 100]; [200, 160, 80, 40]; between them at weights ¾/¼ and ¼/¾:
        // 0.75·[0, 25, 75, 100] + 0.25·[200, 160, 80, 40] = [50, 58.75, 76.25, 85].
        let out = image([[0, 100], [200, 40]]).resized(width: 4, height: 4, resampling: .bilinear)
        XCTAssertEqual(red(out), [[0, 25, 75, 100], [50, 59, 76, 85], [150, 126, 79, 55], [200, 160, 80, 40]])
        XCTAssertTrue(pixelRows(out).joined().allSatisfy { $0.g == 7 && $0.b == 250 })
    }

    func testBilinearDownscaleByTwoAveragesPairs() {
        // 4 → 2: samples at 0.5 and 2.5, i.e. the mean of pixels (0, 1) and (2, 3).
        let out = image([[0, 10, 100, 200], [20, 30, 120, 220], [0, 0, 0, 0], [40, 40, 40, 40]])
            .resized(width: 2, height: 2, resampling: .bilinear)
        XCTAssertEqual(red(out), [[15, 160], [20, 20]])
    }

    func testAreaDownscaleFourToTwoAveragesBlocks() {
        let out = image([[0, 10, 100, 200], [20, 30, 120, 220], [0, 0, 1, 3], [40, 40, 1, 3]])
            .resized(width: 2, height: 2, resampling: .area)
        // Blocks: (0+10+20+30)/4 = 15, (100+200+120+220)/4 = 160, (0+0+40+40)/4 = 20, (1+3+1+3)/4 = 2.
        XCTAssertEqual(red(out), [[15, 160], [20, 2]])
    }

    func testAreaDownscaleByFractionalFactorWeighsCoverage() {
        // 3 → 2: output 0 covers [0, 1.5) = pixel 0 fully + half of pixel 1 → (0 + 0.5·30)/1.5 = 10;
        // output 1 covers [1.5, 3) → (0.5·30 + 90)/1.5 = 70.
        XCTAssertEqual(red(image([[0, 30, 90]]).resized(width: 2, height: 1, resampling: .area)), [[10, 70]])
    }

    func testAreaWhenGrowingIsBilinear() {
        let source = image([[0, 100], [200, 40]])
        XCTAssertEqual(source.resized(width: 4, height: 4, resampling: .area), source.resized(width: 4, height: 4, resampling: .bilinear))
    }

    func testAutomaticChoice() {
        XCTAssertEqual(Resampling.automatic(sourceWidth: 400, sourceHeight: 800, targetWidth: 200, targetHeight: 800), .area)
        XCTAssertEqual(Resampling.automatic(sourceWidth: 100, sourceHeight: 100, targetWidth: 200, targetHeight: 300), .bilinear)
    }

    func testCropCopiesTheRectangleAndRejectsOutside() throws {
        var source = RGBImage(width: 5, height: 4)
        for y in 0..<4 { for x in 0..<5 { source[x, y] = RGB(UInt8(x), UInt8(y), 9) } }
        let crop = try source.cropped(x: 1, y: 2, width: 3, height: 2)
        XCTAssertEqual(pixelRows(crop), [[RGB(1, 2, 9), RGB(2, 2, 9), RGB(3, 2, 9)], [RGB(1, 3, 9), RGB(2, 3, 9), RGB(3, 3, 9)]])
        XCTAssertEqual(try source.cropped(x: 0, y: 0, width: 5, height: 4), source)
        for (x, y, w, h) in [(3, 0, 3, 1), (-1, 0, 2, 2), (0, 3, 1, 2), (0, 0, 0, 1)] {
            XCTAssertThrowsError(try source.cropped(x: x, y: y, width: w, height: h)) { error in
                XCTAssertTrue("\(error)".contains("5×4"), "\(error)")
            }
        }
    }

    func testPadSurroundsWithFill() {
        let source = RGBImage(width: 2, height: 1, fill: RGB(1, 2, 3))
        let out = source.padded(left: 1, top: 2, right: 0, bottom: 1, fill: RGB(9, 9, 9))
        XCTAssertEqual(out.width, 3); XCTAssertEqual(out.height, 4)
        let f = RGB(9, 9, 9), p = RGB(1, 2, 3)
        XCTAssertEqual(pixelRows(out), [[f, f, f], [f, f, f], [f, p, p], [f, f, f]])
    }
}

/// cv2.resize outputs of a 13×9 noise image (Peers/imaging/make_fixtures.py).
/// OpenCV rounds through 11-bit fixed-point weights, so ±1 is allowed.
final class ResizeMatchesOpenCVTests: XCTestCase {
    private func assertMatches(_ reference: String, width: Int, height: Int, _ resampling: Resampling,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let source = try Fixtures.image("resize-source.png")
        let expected = [UInt8](try Data(contentsOf: Fixtures.url(reference)))
        let out = source.resized(width: width, height: height, resampling: resampling)
        XCTAssertEqual(out.pixels.count, expected.count, file: file, line: line)
        let worst = zip(out.pixels, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 1, "\(reference)", file: file, line: line)
    }

    func testBilinearShrink() throws { try assertMatches("resize-linear-7x5.rgb", width: 7, height: 5, .bilinear) }
    func testBilinearGrow() throws { try assertMatches("resize-linear-20x17.rgb", width: 20, height: 17, .bilinear) }
    func testAreaFractional() throws { try assertMatches("resize-area-6x4.rgb", width: 6, height: 4, .area) }
    func testAreaFractionalSmaller() throws { try assertMatches("resize-area-5x3.rgb", width: 5, height: 3, .area) }
}
