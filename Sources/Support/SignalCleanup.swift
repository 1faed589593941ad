import Foundation

/// SIGINT and SIGTERM for the whole process, once the first command asks: staging that a signal
/// must not leave behind, and the trainer's graceful stop.
///
/// While a command writes into a staging folder (`OutputFolder`, the synthetic-cache render) the
/// folder is registered here; a signal then removes every registered folder, says so, and ends the
/// process with status 128 + the signal, as the signal's default action would. SIGKILL cannot be
/// caught: `StaleStaging` sweeps what it leaves at the next start.
///
/// A process that handles the signals itself (the trainer stops at the next step boundary and
/// checkpoints) claims them with `claim(_:)`; its handler is called instead, and registered
/// folders are left to their writers, which finish or discard them as the process winds down.
///
/// The handlers are installed once and never removed: libdispatch on Linux does not re-arm a
/// signal source made after an earlier one for the same signal was cancelled and the signal's
/// disposition reset, so a trainer starting after a cache render never heard Ctrl-C.
public enum SignalCleanup {
    private static let lock = NSLock()
    private static var registered: [Int: String] = [:]
    private static var nextToken = 0
    private static var claimant: (@Sendable (Int32) -> Void)?
    private static var sources: [DispatchSourceSignal] = []

    /// Registers `url` for removal on a signal; pass the token to `unregister` once it is committed or discarded.
    public static func register(_ url: URL) -> Int {
        lock.lock(); defer { lock.unlock() }
        installOnce()
        nextToken += 1
        registered[nextToken] = url.path
        return nextToken
    }

    public static func unregister(_ token: Int) {
        lock.lock(); defer { lock.unlock() }
        registered[token] = nil
    }

    /// `handler` gets SIGINT/SIGTERM (on a dispatch queue, not in signal context) until `release()`.
    public static func claim(_ handler: @escaping @Sendable (Int32) -> Void) {
        lock.lock(); defer { lock.unlock() }
        installOnce()
        claimant = handler
    }

    public static func release() {
        lock.lock(); defer { lock.unlock() }
        claimant = nil
    }

    /// Called with the lock held.
    private static func installOnce() {
        guard sources.isEmpty else { return }
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // delivered to the dispatch source instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received(number) }
            source.resume()
            sources.append(source)
        }
    }

    private static func received(_ number: Int32) {
        lock.lock()
        if let claimant {
            lock.unlock()
            claimant(number)
            return
        }
        let paths = Array(registered.values)
        registered = [:]
        lock.unlock()
        for path in paths.sorted() {
            remove(path)
            FileHandle.standardError.write(Data("\ninterrupted: removed the unfinished output \(path)\n".utf8))
        }
        // Nobody handles it: end as the default action would, with the status a shell reports.
        exit(128 + number)
    }

    /// Workers may still be writing into the folder (`data synth` renders on several threads):
    /// it is first renamed to a staging name of the same pattern (`…-PID-N` with a new N), so new
    /// files cannot land in it, then removed, again while a file created just before the rename
    /// keeps it from being empty. What survives is swept by `StaleStaging` later.
    private static func remove(_ path: String) {
        var target = path
        if let dash = path.lastIndex(of: "-"), path[path.index(after: dash)...].allSatisfy(\.isNumber) {
            let moved = String(path[...dash]) + String(UInt32.random(in: 0...UInt32.max))
            if rename(path, moved) == 0 { target = moved }
        }
        for _ in 0..<50 {
            try? FileManager.default.removeItem(atPath: target)
            if !FileManager.default.fileExists(atPath: target) { return }
            usleep(10_000)
        }
    }
}
