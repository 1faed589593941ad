import CBLAS
import CFreeType
import CPNG
import CSQLite
import CTurboJPEG
import XCTest

/// Every system-library target compiles (its shim's build-time check ran) and its library
/// answers at run time. CSQLite has no other user yet, so without this its check never ran.
final class SystemLibrariesTests: XCTestCase {
    func testOpenBLASIsLinkedAndMultiplies() {
        let config = String(cString: openblas_get_config())
        XCTAssertTrue(config.contains("OpenBLAS"), config)
        let x: [Float] = [1, 2, 3], y: [Float] = [4, 5, 6]
        XCTAssertEqual(cblas_sdot(3, x, 1, y, 1), 32)
    }

    func testSQLiteAnswersAQuery() throws {
        XCTAssertGreaterThanOrEqual(sqlite3_libversion_number(), 3_031_000, String(cString: sqlite3_libversion()))
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(":memory:", &db), SQLITE_OK)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        XCTAssertEqual(sqlite3_prepare_v2(db, "SELECT 6 * 7", -1, &statement, nil), SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        XCTAssertEqual(sqlite3_step(statement), SQLITE_ROW)
        XCTAssertEqual(sqlite3_column_int(statement, 0), 42)
    }

    func testFreeTypeInitializesAndReportsItsVersion() {
        var library: FT_Library?
        XCTAssertEqual(FT_Init_FreeType(&library), 0)
        defer { FT_Done_FreeType(library) }
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        XCTAssertEqual(major, 2, "FreeType \(major).\(minor).\(patch)")
    }

    func testLibPNGIsVersion16() {
        let version = png_access_version_number() // e.g. 10639 for 1.6.39
        XCTAssertTrue((10600..<10700).contains(version), "libpng \(version): the simplified API needs 1.6")
    }

    func testTurboJPEGRoundTripsAHeader() throws {
        let (width, height) = (16, 8)
        let pixels = [UInt8](repeating: 128, count: width * height)
        guard let compressor = tjInitCompress() else { return XCTFail("tjInitCompress failed") }
        defer { tjDestroy(compressor) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let jpeg { tjFree(jpeg) } }
        XCTAssertEqual(tjCompress2(compressor, pixels, Int32(width), 0, Int32(height), Int32(TJPF_GRAY.rawValue), &jpeg, &size,
                                   Int32(TJSAMP_GRAY.rawValue), 90, 0), 0)
        guard let decompressor = tjInitDecompress() else { return XCTFail("tjInitDecompress failed") }
        defer { tjDestroy(decompressor) }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        XCTAssertEqual(tjDecompressHeader3(decompressor, jpeg, size, &w, &h, &subsampling, &colorspace), 0)
        XCTAssertEqual([Int(w), Int(h)], [width, height])
    }
}
