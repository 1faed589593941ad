import Foundation
import XCTest
@testable import Imaging

/// `ImageIO.checkComplete`: the end-marker test that finds truncated files without decoding.
final class ImageCompletenessTests: XCTestCase {
    func testTruncatedFixturesAreFoundAndCompleteOnesPass() throws {
        for name in ["truncated.png", "truncated.jpg"] {
            let url = try Fixtures.url(name)
            assertImageError(.truncated, naming: url.path) { try ImageIO.checkComplete(url) }
        }
        for name in ["rgb8.png", "interlaced.png", "baseline.jpg", "progressive.jpg", "cmyk.jpg"] {
            XCTAssertNoThrow(try ImageIO.checkComplete(try Fixtures.url(name)), name)
        }
    }

    func testMessageSaysWhichMarkerIsMissingAndHowTheFileEnds() throws {
        let url = try Fixtures.url("truncated.jpg")
        XCTAssertThrowsError(try ImageIO.checkComplete(url)) { error in
            XCTAssertEqual((error as? ImageError)?.detail,
                           "JPEG does not end with the end-of-image marker FF D9; the 1606-byte file ends with 86 55 DE 12")
        }
    }

    /// Padding after the end marker is allowed within the last kilobyte; a marker further back
    /// means the bytes after it are not padding, and the file is reported.
    func testTrailingPaddingIsAllowedWithinTheTailWindow() throws {
        let folder = try Fixtures.scratchFolder("completeness")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["baseline.jpg", "rgb8.png"] {
            let bytes = try Data(contentsOf: try Fixtures.url(name))
            let padded = folder.appendingPathComponent("padded-" + name), long = folder.appendingPathComponent("long-" + name)
            try (bytes + Data(repeating: 0, count: 200)).write(to: padded)
            XCTAssertNoThrow(try ImageIO.checkComplete(padded), name)
            try (bytes + Data(repeating: 0, count: ImageCompleteness.tailWindow)).write(to: long)
            assertImageError(.truncated, naming: long.path) { try ImageIO.checkComplete(long) }
        }
    }

    func testMissingFileAndFolderAreNotCalledTruncated() throws {
        let folder = try Fixtures.scratchFolder("completeness-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        assertImageError(.missing, naming: "nowhere.png") { try ImageIO.checkComplete(folder.appendingPathComponent("nowhere.png")) }
        assertImageError(.notAnImage, naming: folder.path) { try ImageIO.checkComplete(folder) }
    }
}
