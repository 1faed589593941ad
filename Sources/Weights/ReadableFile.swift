import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file opened for reading in pieces, so a reader can check a small prefix (and the lengths
/// it declares against the real size) before reading the rest. System errors are reported in
/// plain words with the path as the user gave it (`URL.relativePath`).
final class ReadableFile {
    /// The path as given, for messages.
    let name: String
    let size: Int
    private let descriptor: Int32

    init(_ url: URL) throws {
        name = url.relativePath
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WeightsError.unreadable(file: name, reason: Self.reason(errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw WeightsError.unreadable(file: name, reason: Self.reason(code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "it is not a regular file"
            throw WeightsError.unreadable(file: name, reason: kind + "; give the path of a file")
        }
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// Bytes `[offset, offset + count)`, clamped to the size seen at open.
    func read(offset: Int, count: Int) throws -> [UInt8] {
        let wanted = max(0, min(count, size - offset))
        return try [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            initialized = try read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
        }
    }

    /// Everything from `offset` to the end in one buffer whose first `prefix.count` bytes are
    /// `prefix` (bytes already read), with one read for the rest.
    func readAll(after prefix: [UInt8]) throws -> [UInt8] {
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
                throw WeightsError.unreadable(file: name, reason: Self.reason(errno))
            }
            guard count > 0 else {
                throw WeightsError.unreadable(file: name, reason: "the file shrank to \(offset + done) bytes while being read "
                                              + "(another program is writing it?)")
            }
            done += count
        }
        return done
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory; give the path of a file"
        case ENOTDIR: return "a part of the path is not a directory"
        default: return String(cString: strerror(code))
        }
    }
}
