import Foundation
import XCTest

/// The `screenlab` executable `swift build --build-tests` puts beside the test bundle.
enum ScreenlabProcess {
    static func binary() throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("screenlab") }
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("no screenlab executable beside the tests (\(folder.path)); build with `swift build --build-tests`")
        }
        return binary
    }

    static func start(_ arguments: [String], output: URL) throws -> Process {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-output-\(UUID().uuidString)")
        let process = try start(arguments, output: output)
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
