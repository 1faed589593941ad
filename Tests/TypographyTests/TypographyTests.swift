import Dispatch
import Foundation
import Imaging
import XCTest
@testable import Typography

final class TypographyTests: XCTestCase {
    private let font = Font(FontFamily.dejaVuSans.regular, pixelSize: 20)

    /// The changed pixels' bounding box (max exclusive) on a canvas of one colour.
    private func inkBox(_ image: RGBImage, background: RGB) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y] != background {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
            }
        }
        return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }

    func testAKnownStringRendersAntiAliasedInkOfTheExpectedSize() throws {
        let line = try TextLine("Hamburg", font: font)
        XCTAssertTrue(line.hasInk)
        // DejaVu Sans at 20 px: caps ~15 px, "g" descends ~4 px; seven letters ~11 px wide each.
        XCTAssertEqual(line.metrics.capHeight, 15, accuracy: 1)
        XCTAssert((14...22).contains(line.inkHeight), "\(line.inkHeight)")
        XCTAssert((60...95).contains(line.inkWidth), "\(line.inkWidth)")
        XCTAssert((-line.metrics.ascent)...(-line.metrics.capHeight) ~= line.inkMinY, "ascenders (b) reach at least the cap height: \(line.inkMinY)")
        let values = Set(line.glyphs.flatMap(\.glyph.coverage))
        XCTAssert(values.contains(255) && values.count > 20, "anti-aliased coverage has many levels: \(values.count)")
    }

    func testDrawnInkMatchesTheMeasuredInkBox() throws {
        for (text, face, color) in [("Hamburg, Quay!", FontFamily.dejaVuSans.regular, RGBA(0, 0, 0)), ("Привет мир", FontFamily.roboto.bold, RGBA(200, 30, 30)),
                                    ("Γειά σου", FontFamily.liberationSans.regular, RGBA(0, 0, 0, 128)), ("设置 通知", FontFamily.wenQuanYiMicroHei.bold, RGBA(10, 10, 200))] {
            let line = try TextLine(text, font: Font(face, pixelSize: 17))
            var image = RGBImage(width: 240, height: 60, fill: RGB(255, 255, 255))
            image.draw(line, x: 10, baseline: 40, color: color)
            let box = try XCTUnwrap(inkBox(image, background: RGB(255, 255, 255)), text)
            XCTAssertEqual(box.minX, 10 + line.inkMinX, text); XCTAssertEqual(box.maxX, 10 + line.inkMaxX, text)
            XCTAssertEqual(box.minY, 40 + line.inkMinY, text); XCTAssertEqual(box.maxY, 40 + line.inkMaxY, text)
        }
    }

    func testRenderingIsDeterministicAcrossCachesAndThreads() throws {
        func draw(_ cache: GlyphCache) throws -> RGBImage {
            var image = RGBImage(width: 300, height: 40, fill: RGB(240, 240, 240))
            image.draw(try TextLine("Settings — Einstellungen 设置", font: Font(FontFamily.openSans.regular, pixelSize: 16), cache: cache), x: 4, baseline: 28, color: RGBA(20, 20, 20))
            return image
        }
        let first = try draw(GlyphCache())
        XCTAssertEqual(try draw(GlyphCache()), first)
        let shared = GlyphCache()
        var results = [RGBImage?](repeating: nil, count: 8)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let image = try? draw(shared)
            lock.lock(); results[index] = image; lock.unlock()
        }
        XCTAssert(results.allSatisfy { $0 == first })
    }

    func testBoldIsWiderAndTextClipsAtTheImageEdges() throws {
        let regular = try TextLine("Continue", font: Font(FontFamily.liberationSans.regular, pixelSize: 17))
        let bold = try TextLine("Continue", font: Font(FontFamily.liberationSans.bold, pixelSize: 17))
        XCTAssertGreaterThan(bold.inkWidth, regular.inkWidth)
        let cjk = try TextLine("设置", font: Font(FontFamily.wenQuanYiMicroHei.regular, pixelSize: 17))
        let cjkBold = try TextLine("设置", font: Font(FontFamily.wenQuanYiMicroHei.bold, pixelSize: 17))
        XCTAssertGreaterThan(cjkBold.inkWidth, cjk.inkWidth)
        var image = RGBImage(width: 20, height: 10, fill: RGB(255, 255, 255))
        image.draw(regular, x: -5, baseline: 12, color: RGBA(0, 0, 0))  // partly outside on three sides: no crash
        XCTAssertNotNil(inkBox(image, background: RGB(255, 255, 255)))
        XCTAssertFalse(try TextLine("   ", font: font).hasInk)
        XCTAssertFalse(try TextLine("", font: font).hasInk)
    }

    func testEveryFamilyIsInstalledAndCoversItsScripts() throws {
        for family in FontFamily.all {
            for face in family.faces {
                try GlyphCache.shared.load(face)
                for scalar in "AZaz09Ω".unicodeScalars { XCTAssertTrue(try GlyphCache.shared.covers(face, scalar), "\(face) U+\(scalar.value)") }
            }
        }
        for family in FontFamily.alphabetic { for scalar in "ЖяΣλ".unicodeScalars { XCTAssertTrue(try GlyphCache.shared.covers(family.regular, scalar), "\(family.name)") } }
        for scalar in "设置通知ありがとうカタカナ".unicodeScalars { XCTAssertTrue(try GlyphCache.shared.covers(FontFamily.wenQuanYiMicroHei.regular, scalar), "U+\(String(scalar.value, radix: 16))") }
    }

    func testAMissingFontFileIsAClearErrorNamingThePackage() {
        let missing = FontFace(name: "Nowhere Sans", path: "/usr/share/fonts/truetype/nowhere/NowhereSans.ttf", package: "fonts-nowhere")
        XCTAssertThrowsError(try TextLine("Hi", font: Font(missing, pixelSize: 12), cache: GlyphCache())) { error in
            XCTAssertEqual(error as? FontError, .missingFile(path: missing.path, face: "Nowhere Sans", package: "fonts-nowhere"))
            XCTAssert("\(error)".contains("apt-get install -y fonts-nowhere"), "\(error)")
        }
        let notAFont = FontFace(name: "Broken", path: "/etc/hostname", package: "fonts-broken")
        XCTAssertThrowsError(try GlyphCache().load(notAFont)) { error in XCTAssert("\(error)".contains("FT_New_Face"), "\(error)") }
    }
}
