import Foundation
import XCTest
@testable import Imaging

final class ImageIOTests: XCTestCase {
    func testTruncatedPNGIsAnErrorNamingTheFile() throws {
        let url = try Fixtures.url("truncated.png")
        assertImageError(.truncated, naming: url.path) { try ImageIO.read(url) }
    }

    func testTruncatedJPEGIsAnErrorNotAGreyBottom() throws {
        let url = try Fixtures.url("truncated.jpg")
        assertImageError(.truncated, naming: url.path) { try ImageIO.read(url) }
    }

    func testTextFileNamedPNGIsNotAnImage() throws {
        let url = try Fixtures.url("not-an-image.png")
        assertImageError(.notAnImage, naming: url.path) { try ImageIO.read(url) }
        assertImageError(.notAnImage, naming: url.path) { try ImageIO.readSize(url) }
        do { _ = try ImageIO.read(url) } catch {
            XCTAssertTrue("\(error)".contains("hello, this"), "shows the text it found: \(error)")
        }
    }

    func testMissingEmptyAndOtherFormats() throws {
        let folder = try Fixtures.scratchFolder("missing")
        let missing = folder.appendingPathComponent("nope.png")
        assertImageError(.missing, naming: missing.path) { try ImageIO.read(missing) }
        assertImageError(.missing, naming: missing.path) { try ImageIO.readSize(missing) }
        let empty = folder.appendingPathComponent("empty.jpg")
        try Data().write(to: empty)
        assertImageError(.empty, naming: empty.path) { try ImageIO.read(empty) }
        assertImageError(.empty, naming: empty.path) { try ImageIO.readSize(empty) }
        assertImageError(.unsupported, naming: "anim.gif") { try ImageIO.decode(Data("GIF89a\u{1}\u{0}".utf8), name: "anim.gif") }
        assertImageError(.truncated, naming: "stub") { try ImageIO.decode(Data([0x89, 0x50, 0x4E]), name: "stub") }
        // A JPEG cut inside its header.
        let jpeg = try Data(contentsOf: Fixtures.url("baseline.jpg"))
        assertImageError(.truncated, naming: "cut.jpg") { try ImageIO.decode(jpeg.prefix(100), name: "cut.jpg") }
    }

    func testCorruptPNGDataIsAnError() throws {
        var bytes = [UInt8](try Data(contentsOf: Fixtures.url("rgb8.png")))
        bytes[bytes.count - 20] ^= 0xFF  // inside IDAT: CRC or zlib failure
        XCTAssertThrowsError(try ImageIO.decode(Data(bytes), name: "flipped.png")) { error in
            XCTAssertTrue("\(error)".contains("flipped.png"), "\(error)")
        }
    }

    /// A valid 16384×16384 PNG took 1.6 GB to decode: sizes past 2²⁶ pixels (67 MP, twice an 8K
    /// screen) are refused from the header, before any pixel is allocated; 8192×8192 still passes.
    func testImagesLargerThanAnyScreenAreRefusedFromTheHeader() throws {
        let folder = try Fixtures.scratchFolder("huge")
        var bytes = [UInt8](try ImageIO.encodePNG(RGBImage(width: 1, height: 1, fill: RGB(0, 0, 0))))
        func claim(_ width: UInt32, _ height: UInt32) throws -> URL {
            for (offset, value) in [(16, width), (20, height)] {
                for k in 0..<4 { bytes[offset + k] = UInt8((value >> (24 - 8 * UInt32(k))) & 0xFF) }
            }
            let url = folder.appendingPathComponent("\(width)x\(height).png")
            try Data(bytes).write(to: url)
            return url
        }
        XCTAssertEqual(try ImageIO.readSize(try claim(8192, 8192)).width, 8192)
        for (width, height) in [(8193, 8192), (16384, 16384)] {
            let url = try claim(UInt32(width), UInt32(height))
            assertImageError(.unsupported, naming: url.path) { try ImageIO.readSize(url) }
            XCTAssertThrowsError(try ImageIO.readSize(url)) { error in
                XCTAssertTrue("\(error)".contains("67108864-pixel limit") && "\(error)".contains("scale the image down"), "\(error)")
            }
        }
    }

    func testFormatIsSniffedNotTakenFromExtension() throws {
        let folder = try Fixtures.scratchFolder("sniff")
        let disguised = folder.appendingPathComponent("really-a-png.jpg")
        try Data(contentsOf: Fixtures.url("rgb8.png")).write(to: disguised)
        XCTAssertEqual(try ImageIO.read(disguised), try Fixtures.image("rgb8.png"))
    }

    func testPNGRoundTripIsExactInBothModes() throws {
        var random = SplitMix(seed: 42)
        let pixels = (0..<(37 * 23 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let image = RGBImage(width: 37, height: 23, pixels: pixels)
        for fast in [false, true] {
            let data = try ImageIO.encodePNG(image, fast: fast)
            XCTAssertEqual(try ImageIO.decode(data, name: "round trip"), image, "fast: \(fast)")
        }
        let url = try Fixtures.scratchFolder("roundtrip").appendingPathComponent("sub/out.png")
        try ImageIO.writePNG(image, to: url, fast: true)
        XCTAssertEqual(try ImageIO.read(url), image)
        XCTAssertTrue(try ImageIO.readSize(url) == (37, 23))
    }

    func testReadSizeAgreesWithDecode() throws {
        let names = ["rgb8.png", "rgba8.png", "gray8.png", "graya8.png", "gray1.png", "palette.png", "palette-trns.png", "gamma-linear.png", "rgb16.png",
                     "gray16.png", "interlaced.png", "baseline.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg"]
        for name in names {
            let url = try Fixtures.url(name)
            let size = try ImageIO.readSize(url), image = try ImageIO.read(url)
            XCTAssertTrue(size == (image.width, image.height), "\(name): \(size) vs \(image.width)×\(image.height)")
        }
        // The truncated JPEG still has its header; its size is readable even though decoding fails.
        XCTAssertTrue(try ImageIO.readSize(Fixtures.url("truncated.jpg")) == (48, 48))
    }

    func testReadSizeOfJPEGCutBeforeFrameHeader() throws {
        let url = try Fixtures.scratchFolder("cutsof").appendingPathComponent("cut.jpg")
        // progressive.jpg has a 3 KB comment before its SOF.
        try Data(contentsOf: Fixtures.url("progressive.jpg")).prefix(1000).write(to: url)
        assertImageError(.truncated, naming: url.path) { try ImageIO.readSize(url) }
    }
}

/// Test-local generator (SplitMix64) so the test does not depend on Support's RNG stream.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
