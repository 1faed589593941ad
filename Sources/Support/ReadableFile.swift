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
        case .pathPartNotDirectory: return "a part of the path is not a directory"
        case let .shrank(bytes): return "the file shrank to \(bytes) bytes while being read (another program is writing it?)"
        case let .system(message): return message
        }
    }

    public var description: String { "\(path): \(reason)" }

    static func kind(errno code: Int32) -> Kind {
        switch code {
        case ENOENT: return .notFound
        case EACCES, EPERM: return .permissionDenied
        case EISDIR: return .isDirectory
        case ENOTDIR: return .pathPartNotDirectory
        default: return .system(String(cString: strerror(code)))
        }
    }
}

/// A file opened for reading in pieces, so a reader can check a small prefix (and the lengths
/// it declares against the real size) before reading the rest, or read it whole. One `open`
/// and an `fstat` of that descriptor (no check-then-open race); failures are `FileReadError`s.
public final class ReadableFile {
    /// The path as given, for messages.
    public let name: String
    public let size: Int
    private let descriptor: Int32

    public init(_ url: URL) throws {
        name = url.relativePath
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: name, kind: FileReadError.kind(errno: errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileReadError(path: name, kind: FileReadError.kind(errno: code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileReadError(path: name, kind: info.st_mode & S_IFMT == S_IFDIR ? .isDirectory : .notRegularFile)
        }
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// The whole file in one read.
    public static func contents(of url: URL) throws -> [UInt8] { try ReadableFile(url).readAll(after: []) }

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
