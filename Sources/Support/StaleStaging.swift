import Foundation

/// Staging left by a process that died mid-write (SIGKILL, Ctrl-C, a full disk): the hidden
/// `.NAME.partial-PID[-N]`, `.NAME.tmp-PID[-N]` and `.screenlab-partial-PID-N` entries that
/// `OutputFolder`, `AtomicFile`, checkpoints and the synthetic cache write beside their targets.
/// Swept when a later command writes into the same folder: an entry is removed only when its pid
/// is no live process here and it has not changed for `minimumAge` seconds (a live writer on
/// another host of a shared disk keeps touching its staging).
public enum StaleStaging {
    public static let minimumAge: TimeInterval = 60

    /// Removes the stale staging entries directly inside `folder` (only those whose name starts
    /// with `prefix`, in a folder ScreenLab does not own such as the parent of `--out`); returns
    /// their names.
    @discardableResult
    public static func sweep(in folder: URL, prefix: String = ".", now: Date = Date()) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) && name.hasPrefix(".") {
            guard let pid = stagingPID(name), !processIsAlive(pid) else { continue }
            let url = folder.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? now
            guard now.timeIntervalSince(modified) >= minimumAge else { continue }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed.append(name) }
        }
        return removed
    }

    /// The writer's pid in a staging name, nil for any other name.
    static func stagingPID(_ name: String) -> Int32? {
        for marker in [".partial-", ".tmp-", ".screenlab-partial-"] {
            guard let range = name.range(of: marker, options: .backwards) else { continue }
            let rest = name[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(rest.count), rest.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let pid = Int32(rest[0]), pid > 0 else { return nil }
            return pid
        }
        return nil
    }

    /// ESRCH: no such process; EPERM: it exists under another user.
    static func processIsAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
