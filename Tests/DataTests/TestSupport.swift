import Foundation
import XCTest

enum Fixtures {
    static func url(_ name: String) throws -> URL {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw XCTSkip("Fixtures folder missing from the test bundle")
        }
        return folder.appendingPathComponent(name)
    }

    /// The repository this test file lives in (Tests/DataTests/ is two levels down).
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh temporary folder removed at the end of the test.
    static func temporaryFolder(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// vins-ui from the shared folder, or a skip naming where it was looked for.
    static func vinsUI() throws -> URL {
        let shared = ProcessInfo.processInfo.environment["SCREENLAB_SHARED"].map { URL(fileURLWithPath: $0) }
            ?? repoRoot.appendingPathComponent("../shared").standardizedFileURL
        let url = shared.appendingPathComponent("datasets/vins-ui")
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("classes.txt").path) else {
            throw XCTSkip("../shared/datasets/vins-ui not found: looked at \(url.path)")
        }
        return url
    }
}

func XCTAssertBoxesEqual(_ a: [Double], _ b: [Double], accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, file: file, line: line) }
}
