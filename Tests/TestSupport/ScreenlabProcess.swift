import Foundation
import XCTest

/// The real `screenlab` executable as a child process, for tests of what only a process shows:
/// kill -9 and resume, several writers at once, exit statuses and messages.
public enum ScreenlabProcess {
    /// `swift build --build-tests` puts the executable beside the test bundle; a test that needs
    /// it skips, saying how to build it, when it is not there.
    public static func binary() throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("screenlab") }
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("no screenlab executable beside the tests (\(folder.path)); build with `swift build --build-tests`")
        }
        return binary
    }

    /// Starts `screenlab ARGUMENTS` with `environment` added to this process's; its output goes to
    /// `output` (a log file), or nowhere.
    public static func start(_ arguments: [String], output: URL? = nil, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// Runs `screenlab ARGUMENTS` to the end: its exit status and what it printed (stdout and
    /// stderr together).
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
