import XCTest
@testable import Imaging

final class LetterboxTests: XCTestCase {
    func testPortraitPhoneIntoTallTargetHandComputed() {
        // 390×844 into 256×512: scale = min(256/390, 512/844) = 512/844 = 0.6066…;
        // width 390·0.6066 = 236.59 → 237, height 512; slack 19 → left 9, right 10.
        let box = Letterbox(sourceWidth: 390, sourceHeight: 844, targetWidth: 256, targetHeight: 512)
        XCTAssertEqual(box.scale, 512.0 / 844.0, accuracy: 1e-15)
        XCTAssertEqual(box.resizedWidth, 237); XCTAssertEqual(box.resizedHeight, 512)
        XCTAssertEqual(box.padLeft, 9); XCTAssertEqual(box.padTop, 0)
        XCTAssertEqual(box.scaleX, 237.0 / 390.0, accuracy: 1e-15)
        // Box (100, 200, 50, 80): x = 100·237/390 + 9 = 69.7692…, y = 200·512/844 = 121.3270…,
        // w = 50·237/390 = 30.3846…, h = 80·512/844 = 48.5308…
        let mapped = box.toTarget(BoundingBox(x: 100, y: 200, width: 50, height: 80))
        XCTAssertEqual(mapped.x, 69.769230769230769, accuracy: 1e-9)
        XCTAssertEqual(mapped.y, 121.32701421800948, accuracy: 1e-9)
        XCTAssertEqual(mapped.width, 30.384615384615385, accuracy: 1e-9)
        XCTAssertEqual(mapped.height, 48.530805687203792, accuracy: 1e-9)
        // The whole source maps onto the content rectangle.
        XCTAssertEqual(box.toTarget(BoundingBox(x: 0, y: 0, width: 390, height: 844)), box.contentRect)
    }

    func testLandscapeIntoSquarePadsTopAndBottom() {
        // 640×480 into 320×320: scale 0.5, 320×240, top 40.
        let box = Letterbox(sourceWidth: 640, sourceHeight: 480, targetWidth: 320, targetHeight: 320)
        XCTAssertEqual(box.scale, 0.5); XCTAssertEqual(box.resizedWidth, 320); XCTAssertEqual(box.resizedHeight, 240)
        XCTAssertEqual(box.padLeft, 0); XCTAssertEqual(box.padTop, 40)
        XCTAssertTrue(box.toTarget(x: 640, y: 480) == (320, 280))
        XCTAssertTrue(box.toSource(x: 0, y: 40) == (0, 0))
        XCTAssertEqual(box.toSource(BoundingBox(x: 10, y: 50, width: 20, height: 30)), BoundingBox(x: 20, y: 20, width: 40, height: 60))
    }

    func testBoxRoundTripIsExact() {
        var random = SplitMix(seed: 5)
        func uniform(_ upper: Double) -> Double { Double(random.next() >> 11) / Double(1 << 53) * upper }
        for _ in 0..<200 {
            let sw = 1 + Int(uniform(2000)), sh = 1 + Int(uniform(2000)), tw = 1 + Int(uniform(1000)), th = 1 + Int(uniform(1000))
            let box = Letterbox(sourceWidth: sw, sourceHeight: sh, targetWidth: tw, targetHeight: th)
            XCTAssertLessThanOrEqual(box.resizedWidth + box.padLeft, tw)
            XCTAssertLessThanOrEqual(box.resizedHeight + box.padTop, th)
            XCTAssertTrue(box.resizedWidth == tw || box.resizedHeight == th, "one axis fills the target")
            let rect = BoundingBox(x: uniform(Double(sw)), y: uniform(Double(sh)), width: uniform(Double(sw)), height: uniform(Double(sh)))
            let back = box.toSource(box.toTarget(rect))
            for (a, b) in [(back.x, rect.x), (back.y, rect.y), (back.width, rect.width), (back.height, rect.height)] {
                XCTAssertEqual(a, b, accuracy: 1e-9, "\(sw)×\(sh) → \(tw)×\(th)")
            }
        }
    }

    func testLetterboxedImagePlacesContentAndFill() {
        let source = RGBImage(width: 390, height: 844, fill: RGB(10, 200, 30))
        let (out, box) = source.letterboxed(to: 256, 512)
        XCTAssertEqual(out.width, 256); XCTAssertEqual(out.height, 512)
        let grey = RGB(114, 114, 114)
        for y in [0, 255, 511] {
            XCTAssertEqual(out[8, y], grey); XCTAssertEqual(out[9, y], RGB(10, 200, 30))
            XCTAssertEqual(out[245, y], RGB(10, 200, 30)); XCTAssertEqual(out[246, y], grey)
        }
        XCTAssertEqual(box.padLeft + box.resizedWidth, 246)
    }

    func testLetterboxedContentEqualsResizeAndSameSizeIsPasted() throws {
        var source = RGBImage(width: 30, height: 20)
        for y in 0..<20 { for x in 0..<30 { source[x, y] = RGB(UInt8(x * 8), UInt8(y * 12), UInt8((x * y) % 256)) } }
        let (out, box) = source.letterboxed(to: 16, 16, fill: RGB(0, 0, 0), resampling: .area)
        let content = try out.cropped(x: box.padLeft, y: box.padTop, width: box.resizedWidth, height: box.resizedHeight)
        XCTAssertEqual(content, source.resized(width: box.resizedWidth, height: box.resizedHeight, resampling: .area))
        let (padded, same) = source.letterboxed(to: 30, 24)
        XCTAssertEqual(same.padTop, 2)
        XCTAssertEqual(try padded.cropped(x: 0, y: 2, width: 30, height: 20), source)
    }
}
