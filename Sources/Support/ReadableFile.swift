import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be read. Readers word it for their own messages: `reason` is the
/// plain default ("no such file", "it is a directory; give the path of a file"), never
/// Foundation's "NSCocoaErrorDomain error 256".
public struct FileReadError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable {
        case notFound, permissionDenied, isDirectory, notRegularFile, pathPartNotDirectory
        /// A named pipe: reading one blocks until some other program writes to it.
        case fifo
        /// A character or block device (`/dev/zero`, a disk): endless or huge, never a data file.
        case device
        case socket
        /// A symbolic link that points (through others) back at itself.
        case symlinkLoop
        /// Larger than the reader accepts for this kind of file.
        case tooLarge(bytes: Int, limit: Int)
        /// Text that is not valid UTF-8; the offset of the first bad byte.
        case notUTF8(byteOffset: Int)
        /// The file got shorter while being read (another program writing it).
        case shrank(toBytes: Int)
        case system(String)
    }

    /// The path as the user gave it (`URL.relativePath`).
    public let path: String
    public let kind: Kind

    public var reason: String {
        switch kind {
        case .notFound: return "no such file"
        case .permissionDenied: return "permission denied"
        case .isDirectory: return "it is a directory; give the path of a file"
        case .notRegularFile: return "it is not a regular file; give the path of a file"
        case .fifo: return "it is a named pipe (FIFO), not a regular file; reading it would wait for a writer forever: give the path of a file"
        case .device: return "it is a device, not a regular file; give the path of a file"
        case .socket: return "it is a socket, not a regular file; give the path of a file"
        case .symlinkLoop: return "it is a symbolic link that loops back on itself; fix or remove the link"
        case let .tooLarge(bytes, limit): return "it is \(bytes) bytes, more than the \(limit) bytes accepted for this kind of file; is it the right file?"
        case let .notUTF8(offset): return "it is not UTF-8 text (invalid byte at offset \(offset)); save it as UTF-8"
        case .pathPartNotDirectory: return "a part of the path is not a directory"
        case let .shrank(bytes): return "the file shrank to \(bytes) bytes while being read (another program is writing it?)"
        case let .system(message): return message
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// The kind of a non-regular file from its `st_mode`.
    static func kind(mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFDIR: return .isDirectory
        case S_IFIFO: return .fifo
        case S_IFCHR, S_IFBLK: return .device
        case S_IFSOCK: return .socket
        default: return .notRegularFile
        }
    }

    static func kind(errno code: Int32) -> Kind {
        switch code {
        case ENOENT: return .notFound
        case EACCES, EPERM: return .permissionDenied
        case EISDIR: return .isDirectory
        case ENOTDIR: return .pathPartNotDirectory
        case ELOOP: return .symlinkLoop
        default: return .system(String(cString: strerror(code)))
        }
    }
}

/// A file opened for reading in pieces, so a reader can check a small prefix (and the lengths
/// it declares against the real size) before reading the rest, or read it whole. One `open`
/// and an `fstat` of that descriptor (no check-then-open race); failures are `FileReadError`s.
///
/// This is the one place ScreenLab opens an input file: only regular files are read. The open
/// is non-blocking, because opening a FIFO for reading otherwise waits for a writer forever
/// (a FIFO given as a weights file or an image hung the process); the descriptor is switched
/// back to blocking once `fstat` has shown a regular file, for which the flag changes nothing.
public final class ReadableFile {
    /// The path as given, for messages.
    public let name: String
    public let size: Int
    private let descriptor: Int32

    /// `maximumBytes`: a larger file is refused before anything is read (`.tooLarge`).
    public init(_ url: URL, maximumBytes: Int = Int.max) throws {
        name = url.relativePath
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw FileReadError(path: name, kind: FileReadError.kind(errno: errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileReadError(path: name, kind: FileReadError.kind(errno: code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileReadError(path: name, kind: FileReadError.kind(mode: info.st_mode))
        }
        guard Int(info.st_size) <= maximumBytes else {
            close(descriptor)
            throw FileReadError(path: name, kind: .tooLarge(bytes: Int(info.st_size), limit: maximumBytes))
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// The whole file in one read; a regular file of at most `maximumBytes`.
    public static func contents(of url: URL, maximumBytes: Int = Int.max) throws -> [UInt8] {
        try ReadableFile(url, maximumBytes: maximumBytes).readAll(after: [])
    }

    /// The whole file as UTF-8 text (a leading byte-order mark dropped); `.notUTF8` names the
    /// offset of the first invalid byte.
    public static func text(of url: URL, maximumBytes: Int = 64 << 20) throws -> String {
        let bytes = try contents(of: url, maximumBytes: maximumBytes)
        return try UTF8Text.decode(bytes, path: url.relativePath)
    }

    /// Bytes `[offset, offset + count)`, clamped to the size seen at open.
    public func read(offset: Int, count: Int) throws -> [UInt8] {
        let wanted = max(0, min(count, size - offset))
        return try [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            initialized = try read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
        }
    }

    /// Everything from `offset` to the end in one buffer whose first `prefix.count` bytes are
    /// `prefix` (bytes already read), with one read for the rest.
    public func readAll(after prefix: [UInt8]) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let head = min(prefix.count, size)
            for index in 0..<head { buffer[index] = prefix[index] }
            let rest = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[head...])
            initialized = head + (try read(into: rest, at: head))
        }
    }

    /// Fills `buffer` from `offset`, looping over short reads; a file that shrank since it was
    /// opened is reported as such rather than read past.
    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: name, kind: FileReadError.kind(errno: errno))
            }
            guard count > 0 else { throw FileReadError(path: name, kind: .shrank(toBytes: offset + done)) }
            done += count
        }
        return done
    }
}
