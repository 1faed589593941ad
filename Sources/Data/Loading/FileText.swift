import Foundation
import Support

/// Reads dataset files (through Support's `ReadableFile`: regular files only, size-bounded)
/// with errors in the words dataset messages use ("is a folder, not a file", "not found",
/// "permission denied", "is a named pipe (FIFO)…") and the path.
enum FileText {
    /// Text files of a dataset (label files, lists, manifests, configs); a COCO JSON may be large.
    static let maximumBytes = 4 << 30

    static func data(_ url: URL) throws -> Data {
        do { return Data(try ReadableFile.contents(of: url, maximumBytes: maximumBytes)) } catch let error as FileReadError {
            let reason: String
            switch error.kind {
            case .notFound: reason = "not found"
            case .isDirectory: reason = "is a folder, not a file"
            case .permissionDenied: reason = "permission denied"
            default: reason = error.reason.hasPrefix("it is ") ? String(error.reason.dropFirst(3)) : error.reason  // "label file is a named pipe…"
            }
            throw DatasetError.unreadable(file: url.path, line: nil, reason: reason)
        }
    }

    static func read(_ url: URL) throws -> String {
        do { return try UTF8Text.decode([UInt8](try data(url)), path: url.path) } catch let error as FileReadError {
            throw DatasetError.unreadable(file: url.path, line: nil, reason: error.reason)
        }
    }
}
