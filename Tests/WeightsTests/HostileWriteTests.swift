import Foundation
import XCTest
@testable import Weights

/// `weights export w.slw --safetensors w.slw` overwrote its own source (issue 15).
final class HostileWriteTests: XCTestCase {
    func testExportOrWriteOverTheInputIsRefusedAndTheInputKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weights-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("w.slw")
        try Sample.file().write(to: input)
        let before = try Data(contentsOf: input)
        let weights = try WeightsFile.read(contentsOf: input)
        XCTAssertThrowsError(try weights.safetensors().write(to: input, notReplacing: [input])) { error in
            XCTAssertTrue("\(error)".contains("is the input"), "\(error)")
        }
        XCTAssertThrowsError(try weights.write(to: folder.appendingPathComponent("./w.slw"), notReplacing: [input]))
        XCTAssertEqual(try Data(contentsOf: input), before)
        XCTAssertThrowsError(try weights.write(to: URL(fileURLWithPath: "/dev/null"))) { error in
            XCTAssertTrue("\(error)".contains("character device"), "\(error)")
        }
    }
}
