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
/// The handlers are installed once and never removed, and they are real `sigaction` handlers that
/// write the signal's number into a pipe read by one thread of their own (the self-pipe of libuv
/// and libevent). Earlier versions used libdispatch signal sources: on Linux a source made after an
/// earlier one for the same signal was cancelled never fired, and their `signalfd` with the
/// disposition set to SIG_IGN relies on every thread blocking the signal.
public enum SignalCleanup {
    private static let lock = NSLock()
    private static var registered: [Int: String] = [:]
    private static var nextToken = 0
    private static var claimant: (@Sendable (Int32) -> Void)?
    private static var installed = false
    private static var ending = false

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

    /// For a command's error path: when a signal is already removing the staging, the error is
    /// most likely its consequence (a worker's file vanished with the renamed folder), so the
    /// process waits for the signal thread to end it with 128 + the signal and its message
    /// instead of reporting that write as the failure. Returns at once otherwise.
    public static func yieldToAnInterruption() {
        for _ in 0..<1000 {
            lock.lock(); let isEnding = ending; lock.unlock()
            guard isEnding else { return }
            usleep(10_000)
        }
    }

    /// Called with the lock held.
    private static func installOnce() {
        guard !installed else { return }
        installed = true
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // Without the pipe the signals keep their default action: the process still ends, and
            // `StaleStaging` sweeps the staging at the next start.
            FileHandle.standardError.write(Data("warning: cannot create the signal pipe (\(String(cString: strerror(errno)))); Ctrl-C will leave staging folders for the next run to sweep\n".utf8))
            return
        }
        let readEnd = ends[0]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }  // not inherited by `bench`'s child processes
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)  // a full pipe drops a repeated signal rather than blocking the handler
        signalPipeWriteEnd = ends[1]
        let reader = Thread {
            var number: Int32 = 0
            while true {
                let count = read(readEnd, &number, MemoryLayout<Int32>.size)
                if count == MemoryLayout<Int32>.size { received(number) } else if count < 0, errno != EINTR { return }
            }
        }
        reader.name = "screenlab.signals"
        reader.start()
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = writeSignalToPipe
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
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
        ending = true
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

/// The pipe's write end, set once before the handlers are installed (so the handler never runs
/// the global's lazy initialization).
private nonisolated(unsafe) var signalPipeWriteEnd: Int32 = -1

/// Runs in signal context: only async-signal-safe calls (`write`), errno kept for the interrupted code.
private func writeSignalToPipe(_ number: Int32) {
    let saved = errno
    var value = number
    _ = write(signalPipeWriteEnd, &value, MemoryLayout<Int32>.size)
    errno = saved
}
