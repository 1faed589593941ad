import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a reader sees either the old file or the whole new one, never a
/// half-written file: write a temporary file beside the target, fsync it, rename it over.
///
/// Before anything is written the destination is checked: the rename replaces whatever is at
/// the path, so a destination that is not a regular file (as root, `--out /dev/null` became a
/// regular file; a symbolic link would be replaced, not written through) is refused, and so is
/// a destination that is one of the command's own inputs (`notReplacing`: `weights export
/// w.slw --safetensors w.slw` overwrote its source), compared by device and inode so another
/// spelling or a hard link is caught too.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL, notReplacing inputs: [URL] = []) throws {
        try checkReplaceable(url, notReplacing: inputs)
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FileWriteError(path: url.path, reason: "cannot create folder \(directory.path): \(plainReason(error))")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try writeNew(data, at: temporary.path, reportingAs: url.path, sync: true)
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw FileWriteError(path: url.path, reason: "rename: \(reason)")
        }
        syncFolder(directory.path)
    }

    public static func write(_ text: String, to url: URL, notReplacing inputs: [URL] = []) throws {
        try write(Data(text.utf8), to: url, notReplacing: inputs)
    }

    /// Refuses a destination that exists and is not a regular file, or is one of `inputs`.
    public static func checkReplaceable(_ url: URL, notReplacing inputs: [URL] = []) throws {
        let kind = FileKind.of(url.path)
        guard kind == .missing || kind == .regularFile else {
            let link = kind == .symbolicLink ? " (it would be replaced by a file, not written through)" : ""
            throw FileWriteError(path: url.path, reason: "it is \(kind)\(link); outputs replace their path, so give the path of a regular file or of nothing yet")
        }
        if kind == .regularFile, let input = inputs.first(where: { FileKind.sameFile($0.path, url.path) }) {
            throw FileWriteError(path: url.path, reason: "it is the input \(input.relativePath) of this command; write the output to another path")
        }
    }

    /// `writeNew` where a regular file already at `path` (a file written twice into one staging
    /// folder) is replaced; anything else there is still refused. Like `writeNew`, it never
    /// creates folders: a writer into a staging folder that a signal has just removed fails
    /// instead of bringing the folder back.
    public static func writeReplacingFile(_ data: Data, at path: String, reportingAs name: String, sync: Bool) throws {
        if FileKind.of(path) == .regularFile { unlink(path) }
        try writeNew(data, at: path, reportingAs: name, sync: sync)
    }

    /// Creates `path` (which must not exist: `O_EXCL`, no link followed) holding `data`.
    static func writeNew(_ data: Data, at path: String, reportingAs name: String, sync: Bool) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileWriteError(path: name, reason: "cannot create \(path): \(String(cString: strerror(errno)))") }
        var failure: String?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; failure = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        if failure == nil, sync, fsync(fd) != 0 { failure = "fsync: \(String(cString: strerror(errno)))" }
        close(fd)
        if let failure {
            unlink(path)
            throw FileWriteError(path: name, reason: failure)
        }
    }

    /// Persists renames and creations in a folder.
    static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// Foundation's error text without the "NSCocoaErrorDomain error 256" boilerplate.
    public static func plainReason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}

public struct FileWriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "could not write \(path): \(reason) (nothing was changed at that path)" }
}
