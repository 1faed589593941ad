import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a reader sees either the old file or the whole new one, never a
/// half-written file: write a temporary file beside the target, fsync it, rename it over.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FileWriteError(path: url.path, reason: "cannot create folder \(directory.path): \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw FileWriteError(path: url.path, reason: "cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
        var failure: String?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; failure = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = "fsync: \(String(cString: strerror(errno)))" }
        close(fd)
        if let failure {
            unlink(temporary.path)
            throw FileWriteError(path: url.path, reason: failure)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw FileWriteError(path: url.path, reason: "rename: \(reason)")
        }
        // Persist the rename itself.
        let dirFD = open(directory.path, O_RDONLY)
        if dirFD >= 0 { fsync(dirFD); close(dirFD) }
    }

    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }
}

public struct FileWriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "could not write \(path): \(reason) (nothing was changed at that path)" }
}
