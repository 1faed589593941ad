import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What is at a path, for messages that say what was found instead of a bare errno, and for
/// writers that must not replace what is not a regular file.
public enum FileKind: Equatable, CustomStringConvertible {
    case missing, regularFile, directory, symbolicLink, fifo, characterDevice, blockDevice, socket

    /// The entry itself (`lstat`: a symbolic link is reported as a link, not followed).
    public static func of(_ path: String) -> FileKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        return kind(mode: info.st_mode)
    }

    static func kind(mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .fifo
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        default: return .socket
        }
    }

    public var description: String {
        switch self {
        case .missing: return "nothing"
        case .regularFile: return "a regular file"
        case .directory: return "a folder"
        case .symbolicLink: return "a symbolic link"
        case .fifo: return "a named pipe (FIFO)"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        }
    }

    /// Device and inode of the file a path names (links followed), to tell that two paths are
    /// one file (hard links, `./x` and `x`, symlinks).
    public static func identity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// True when `a` and `b` name the same existing file.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = identity(a), let y = identity(b) else { return false }
        return x == y
    }
}
