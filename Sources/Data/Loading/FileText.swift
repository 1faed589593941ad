import Foundation

/// Reads dataset files with errors in plain words and the path ("is a folder, not a file",
/// "not found", "permission denied"), instead of Foundation's "NSCocoaErrorDomain error 256".
enum FileText {
    static func data(_ url: URL) throws -> Data {
        if let problem = problem(url) { throw DatasetError.unreadable(file: url.path, line: nil, reason: problem) }
        do { return try Data(contentsOf: url) } catch {
            throw DatasetError.unreadable(file: url.path, line: nil, reason: problem(url) ?? "cannot read: \(error.localizedDescription)")
        }
    }

    static func read(_ url: URL) throws -> String {
        guard let text = String(data: try data(url), encoding: .utf8) else {
            throw DatasetError.unreadable(file: url.path, line: nil, reason: "is not UTF-8 text")
        }
        return text
    }

    /// Why `url` cannot be read as a file, or nil when it looks readable.
    static func problem(_ url: URL) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return "not found" }
        if isDirectory.boolValue { return "is a folder, not a file" }
        if !FileManager.default.isReadableFile(atPath: url.path) { return "permission denied" }
        return nil
    }
}
