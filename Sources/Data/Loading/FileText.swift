import Foundation
import Support

/// Reads dataset files (through Support's `ReadableFile`) with errors in the words dataset
/// messages use ("is a folder, not a file", "not found", "permission denied") and the path.
enum FileText {
    static func data(_ url: URL) throws -> Data {
        do { return Data(try ReadableFile.contents(of: url)) } catch let error as FileReadError {
            let reason: String
            switch error.kind {
            case .notFound: reason = "not found"
            case .isDirectory: reason = "is a folder, not a file"
            case .permissionDenied: reason = "permission denied"
            default: reason = "cannot read: \(error.reason)"
            }
            throw DatasetError.unreadable(file: url.path, line: nil, reason: reason)
        }
    }

    static func read(_ url: URL) throws -> String {
        guard let text = String(data: try data(url), encoding: .utf8) else {
            throw DatasetError.unreadable(file: url.path, line: nil, reason: "is not UTF-8 text")
        }
        return text
    }
}
