import Foundation
import XCTest
import TestSupport
@testable import Imaging

enum Fixtures {
    static func url(_ name: String) throws -> URL {
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        guard let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "Fixtures") else {
            throw XCTSkip("fixture \(name) missing from the test bundle")
        }
        return url
    }

    static func image(_ name: String) throws -> RGBImage { try ImageIO.read(url(name)) }

    static func scratchFolder(_ test: String) throws -> URL {
        try TestFolders.make("imaging-\(test)")
    }
}

/// Asserts that `body` throws an ImageError of `kind` whose description names `file`.
func assertImageError<T>(_ kind: ImageError.Kind, naming file: String, file callerFile: StaticString = #filePath,
                         line: UInt = #line, _ body: () throws -> T) {
    do {
        _ = try body()
        XCTFail("expected ImageError.\(kind)", file: callerFile, line: line)
    } catch let error as ImageError {
        XCTAssertEqual(error.kind, kind, "\(error)", file: callerFile, line: line)
        XCTAssertTrue(error.description.contains(file), "description does not name \(file): \(error)", file: callerFile, line: line)
    } catch {
        XCTFail("expected ImageError, got \(error)", file: callerFile, line: line)
    }
}

func pixelRows(_ image: RGBImage) -> [[RGB]] {
    (0..<image.height).map { y in (0..<image.width).map { x in image[x, y] } }
}
