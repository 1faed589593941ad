import Foundation

/// Staging that SIGINT/SIGTERM must not leave behind. While a command writes into a staging folder
/// (`OutputFolder`, the synthetic-cache render) the folder is registered here; a signal then removes
/// every registered folder, says so, and ends the process with status 128 + the signal, as the
/// signal's default action would. SIGKILL cannot be caught: `StaleStaging` sweeps what it
/// leaves at the next start.
///
/// A process that handles the signals itself (the trainer stops at the next step boundary and
/// checkpoints) claims them with `claim()`; registered folders are then left to their writers,
/// which finish or discard them as the process winds down.
public enum SignalCleanup {
    private static let lock = NSLock()
    private static var registered: [Int: String] = [:]
    private static var nextToken = 0
    private static var claims = 0
    private static var sources: [DispatchSourceSignal] = []
    private static let signals = [SIGINT, SIGTERM]

    /// Registers `url` for removal on a signal; pass the token to `unregister` once it is committed or discarded.
    public static func register(_ url: URL) -> Int {
        lock.lock(); defer { lock.unlock() }
        nextToken += 1
        registered[nextToken] = url.path
        updateHandlers()
        return nextToken
    }

    public static func unregister(_ token: Int) {
        lock.lock(); defer { lock.unlock() }
        registered[token] = nil
        updateHandlers()
    }

    /// The caller handles SIGINT/SIGTERM from now until `release()`.
    public static func claim() {
        lock.lock(); defer { lock.unlock() }
        claims += 1
        updateHandlers()
    }

    public static func release() {
        lock.lock(); defer { lock.unlock() }
        claims = max(0, claims - 1)
        updateHandlers()
    }

    /// Handlers exist exactly while something is registered and nobody claims the signals, so a
    /// process with nothing staged keeps the default actions. Called with the lock held.
    private static func updateHandlers() {
        let wanted = !registered.isEmpty && claims == 0
        if wanted, sources.isEmpty {
            for number in signals {
                signal(number, SIG_IGN)  // delivered to the dispatch source instead
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { cleanUpAndEnd(number) }
                source.resume()
                sources.append(source)
            }
        } else if !wanted, !sources.isEmpty {
            sources.forEach { $0.cancel() }
            sources = []
            // A claimant has set its own dispositions; otherwise back to the defaults.
            if claims == 0 { signals.forEach { signal($0, SIG_DFL) } }
        }
    }

    private static func cleanUpAndEnd(_ number: Int32) {
        lock.lock()
        let paths = claims == 0 ? Array(registered.values) : []
        if claims == 0 { registered = [:] }
        lock.unlock()
        if paths.isEmpty && claims > 0 { return }
        for path in paths.sorted() {
            try? FileManager.default.removeItem(atPath: path)
            FileHandle.standardError.write(Data("\ninterrupted: removed the unfinished output \(path)\n".utf8))
        }
        // 128 + the signal, as a shell reports a process the signal ended.
        exit(128 + number)
    }
}
