import Foundation
import XCTest
@testable import Imaging

/// Decodes a sample of the real VINS screenshots (skipped when the shared dataset is absent).
final class RealDatasetImageTests: XCTestCase {
    private func datasetImages() throws -> URL {
        let shared = ProcessInfo.processInfo.environment["SCREENLAB_SHARED"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared").standardized.path
        let images = URL(fileURLWithPath: shared).appendingPathComponent("datasets/vins-ui/images")
        guard FileManager.default.fileExists(atPath: images.path) else {
            throw XCTSkip("../shared/datasets/vins-ui not found: looked in \(images.path) (set SCREENLAB_SHARED)")
        }
        return images
    }

    func testReadSizeAgreesWithDecodeOnRealScreens() throws {
        let folder = try datasetImages()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().prefix(12)
        XCTAssertFalse(names.isEmpty)
        var pixels = 0
        let start = Date()
        for name in names {
            let url = folder.appendingPathComponent(name)
            let image = try ImageIO.read(url)
            let size = try ImageIO.readSize(url)
            XCTAssertTrue(size == (image.width, image.height), "\(name)")
            pixels += image.width * image.height
        }
        let seconds = Date().timeIntervalSince(start)
        print("decoded \(names.count) real screens (\(pixels / names.count) px each) in \(String(format: "%.3f", seconds)) s")
    }
}
