import Foundation
import XCTest
@testable import Imaging

/// EXIF orientation: the decoded picture is the one a viewer shows. exif-N.jpg is one 24×16
/// picture of six flat blocks stored with orientation N; exif-N.rgb is Pillow's
/// `ImageOps.exif_transpose` of it (Peers/imaging/make_exif_fixtures.py).
final class EXIFOrientationTests: XCTestCase {
    func testEveryOrientationDecodesToWhatPillowShows() throws {
        for orientation in EXIFOrientation.allCases {
            let name = "exif-\(orientation.rawValue).jpg"
            let image = try Fixtures.image(name)
            let (width, height) = orientation.exchangesSides ? (16, 24) : (24, 16)
            XCTAssertEqual([image.width, image.height], [width, height], name)
            let reference = [UInt8](try Data(contentsOf: Fixtures.url("exif-\(orientation.rawValue).rgb")))
            XCTAssertEqual(reference.count, image.pixels.count, name)
            let worst = zip(image.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 2, "\(name): max |ours − Pillow's| per channel")
            // The header-only size (dataset checks, predict's letterbox) agrees with the decode.
            let size = try ImageIO.readSize(Fixtures.url(name))
            XCTAssertEqual([size.width, size.height], [width, height], "\(name) header size")
        }
    }

    func testBigEndianEXIFAsIPhonesWriteItTurnsTheSame() throws {
        let motorola = try Fixtures.image("exif-6-big-endian.jpg")
        XCTAssertEqual(motorola, try Fixtures.image("exif-6.jpg"))
        XCTAssertEqual(try ImageIO.readSize(Fixtures.url("exif-6-big-endian.jpg")).width, 16)
    }

    func testMalformedEXIFIsIgnoredAsViewersIgnoreIt() throws {
        let image = try Fixtures.image("exif-bad.jpg")
        XCTAssertEqual(image, try Fixtures.image("exif-1.jpg"), "an IFD offset past the segment: shown as stored")
        XCTAssertEqual(try ImageIO.readSize(Fixtures.url("exif-bad.jpg")).width, 24)
    }

    /// Each orientation against its definition on a 3×2 picture whose pixels name their place.
    func testTransformsAgainstTheirDefinitions() {
        let w = 3, h = 2
        var stored = RGBImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w { stored[x, y] = RGB(UInt8(x), UInt8(y), 9) } }
        // (x', y') of the shown picture → the stored (x, y) it shows.
        let definitions: [EXIFOrientation: (Int, Int) -> (Int, Int)] = [
            .normal: { ($0, $1) }, .mirrored: { (w - 1 - $0, $1) }, .rotated180: { (w - 1 - $0, h - 1 - $1) },
            .flippedVertically: { ($0, h - 1 - $1) }, .transposed: { ($1, $0) }, .rotated90Clockwise: { ($1, h - 1 - $0) },
            .transverse: { (w - 1 - $1, h - 1 - $0) }, .rotated90CounterClockwise: { (w - 1 - $1, $0) },
        ]
        for orientation in EXIFOrientation.allCases {
            let shown = orientation.apply(to: stored)
            XCTAssertEqual([shown.width, shown.height], orientation.exchangesSides ? [h, w] : [w, h], "\(orientation)")
            for y in 0..<shown.height {
                for x in 0..<shown.width {
                    let (sx, sy) = definitions[orientation]!(x, y)
                    XCTAssertEqual(shown[x, y], stored[sx, sy], "\(orientation) at (\(x), \(y))")
                }
            }
        }
        // Orientation 6 shows the stored top row down the right edge (a portrait photo taken with the phone held upright).
        let turned = EXIFOrientation.rotated90Clockwise.apply(to: stored)
        XCTAssertEqual((0..<w).map { turned[h - 1, $0] }, (0..<w).map { stored[$0, 0] })
    }

    /// Every truncation and single-byte change of a real EXIF segment parses without trapping.
    func testDamagedEXIFNeverTraps() throws {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.url("exif-6.jpg")))
        var payload: [UInt8] = []
        _ = try JPEGMarkers.walk(read: { Array(bytes[min($0, bytes.count)..<min(bytes.count, $0 + $1)]) }) { segment in
            guard segment.marker == 0xE1 else { return true }
            payload = Array(bytes[segment.payloadOffset..<segment.payloadOffset + segment.payloadLength])
            return false
        }
        XCTAssertEqual(EXIFOrientation.parse(app1: payload), .rotated90Clockwise)
        for length in 0...payload.count { _ = EXIFOrientation.parse(app1: Array(payload.prefix(length))) }
        for index in payload.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0xFF] {
                var damaged = payload
                damaged[index] = value
                _ = EXIFOrientation.parse(app1: damaged)
            }
        }
        XCTAssertNil(EXIFOrientation.parse(app1: Array("XMP data".utf8)), "an APP1 that is not EXIF")
    }
}
