import Foundation
import GRDB
import Support

/// The SQLite run registry (`Experiments/runs.sqlite`; schema in SCHEMA.md).
///
/// A GRDB `DatabasePool`: WAL mode, so readers (`runs list`, `compare`) never wait for a
/// training's writes and writers from several processes take turns; a writer that finds the
/// database locked waits up to `busyTimeout` seconds, then fails naming the file. Every write is
/// one transaction, so a killed process leaves whole rows or none.
public final class RunRegistry {
    public let file: URL
    let pool: DatabasePool
    let busyTimeout: Double

    /// Long enough to outlast another run's epoch write (milliseconds); short enough that a
    /// stuck lock is reported while the user still waits on the command.
    public static let defaultBusyTimeout = 15.0

    /// Opens (creating it and its folder if needed) and upgrades the database; runs left
    /// `running` by a process that no longer exists on this host are marked interrupted.
    public init(file: URL, busyTimeout: Double = RunRegistry.defaultBusyTimeout) throws {
        self.file = file
        self.busyTimeout = busyTimeout
        try Self.checkKind(of: file)
        try Self.checkHeader(of: file)
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw RegistryError.cannotOpen(file: file.path, reason: "cannot create its folder: \(error.localizedDescription)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "screenlab.registry"
        pool = try Self.openPool(file: file, configuration: configuration, busyTimeout: busyTimeout)
        try migrate()
        try markVanishedRuns()
    }

    /// Opening switches a new file to WAL, which needs a moment of exclusive access: a second
    /// process opening at the same time gets SQLITE_BUSY at once, before any busy handler can
    /// wait, so the open is retried like every other step until the busy timeout.
    static func openPool(file: URL, configuration: Configuration, busyTimeout: Double) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                return try DatabasePool(path: file.path, configuration: configuration)
            } catch let error as DatabaseError where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && Date() < deadline {
                usleep(20_000)
            } catch {
                throw translate(error, file: file.path, busyTimeout: busyTimeout)
            }
        }
    }

    /// The registry is an output too: a regular file or nothing, after following links. Opening a
    /// FIFO blocked every command forever, and SQLite given /dev/null (or a link to it) created
    /// /dev/null-journal in /dev.
    static func checkKind(of file: URL) throws {
        let resolved = file.resolvingSymlinksInPath()
        for path in [resolved.path] + ["-wal", "-shm", "-journal"].map({ resolved.path + $0 }) {
            let kind = FileKind.of(path)
            guard kind == .missing || kind == .regularFile else {
                let what = path == resolved.path ? (resolved.path == file.path ? file.path : "\(file.path) (→ \(resolved.path))") : path
                throw RegistryError.cannotOpen(file: file.path, reason: "\(what) is \(kind), not a database file; give --registry a regular file or a new path")
            }
        }
        let folder = FileKind.of(resolved.deletingLastPathComponent().path)
        guard folder == .missing || folder == .directory else {
            throw RegistryError.cannotOpen(file: file.path, reason: "its folder \(resolved.deletingLastPathComponent().path) is \(folder)")
        }
    }

    /// "SQLite format 3\0" starts every SQLite file; anything else (a copied log, a truncated
    /// download) is refused before SQLite sees it, with a message rather than SQLITE_NOTADB.
    static func checkHeader(of file: URL) throws {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return }  // absent: created below
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard !header.isEmpty else { return }  // an empty file is a new database to SQLite
        if header != Data("SQLite format 3\0".utf8) {
            throw RegistryError.corrupt(file: file.path, reason: "it is not an SQLite database")
        }
    }

    private func migrate() throws {
        try withRetryOnBusy {
            let found = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            let migrator = RegistrySchema.migrator
            let superseded = try pool.read { try migrator.hasBeenSuperseded($0) }
            if found > RegistrySchema.currentVersion || superseded {
                throw RegistryError.newerSchema(file: file.path, found: found, supported: RegistrySchema.currentVersion)
            }
            try migrateOnce(migrator)
            // A file SQLite can open may still be damaged inside; the cheap check reads every page header.
            let check = try pool.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "" }
            if check != "ok" { throw RegistryError.corrupt(file: file.path, reason: "integrity check: \(check)") }
        }
    }

    /// Two openers of a new file can both start the same migration; the loser fails with
    /// "table … already exists" or "duplicate column" (not BUSY). The goal is the current schema,
    /// so once the other opener has completed it that is success; otherwise that race is retried
    /// until the timeout. Any other failure says the same thing on every try and is reported at
    /// once (it waited out the whole timeout, 15 s, before).
    private func migrateOnce(_ migrator: DatabaseMigrator) throws {
        // A registry already at the current schema needs no write: readers (`runs list`, `serve`)
        // open it without waiting for a training's write transaction to end.
        if try pool.read(migrator.hasCompletedMigrations) { return }
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                return try migrator.migrate(pool)
            } catch let error as DatabaseError {
                if try pool.read(migrator.hasCompletedMigrations) { return }
                let message = error.message ?? ""
                let race = error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
                    || message.contains("already exists") || message.contains("duplicate column")
                guard race, Date() < deadline else { throw error }
                usleep(20_000)
            }
        }
    }

    /// Two processes opening a new file at once both try to create the schema; the one that
    /// loses a deferred transaction's upgrade gets SQLITE_BUSY at once (the busy handler cannot
    /// help a stale snapshot), so the whole step is retried until the busy timeout.
    func withRetryOnBusy<T>(_ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && Date() < deadline {
                usleep(20_000)
            } catch {
                throw Self.translate(error, file: file.path, busyTimeout: busyTimeout)
            }
        }
    }

    static func translate(_ error: Error, file: String, busyTimeout: Double) -> Error {
        guard let error = error as? DatabaseError else { return error }
        let reason = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return RegistryError.locked(file: file, seconds: busyTimeout)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return RegistryError.corrupt(file: file, reason: reason)
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH: return RegistryError.cannotOpen(file: file, reason: reason)
        default: return RegistryError.database(file: file, reason: reason)
        }
    }

    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try withRetryOnBusy { try pool.write(updates) }
    }

    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try withRetryOnBusy { try pool.read(value) }
    }

    /// The schema version stored in the file (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int { try read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 } }

    // MARK: Runs whose process is gone

    public static var hostName: String { ProcessInfo.processInfo.hostName }

    /// `kill(pid, 0)` probes without signalling: ESRCH means no such process (EPERM: it exists
    /// but belongs to someone else). A reused pid keeps a dead run "running" until that process
    /// ends too — rare, and harmless.
    static func processIsAlive(_ pid: Int) -> Bool {
        guard RegistryRanges.pid.contains(pid) else { return false }  // no process has it (pid_t(99999999999) trapped)
        return kill(pid_t(pid), 0) == 0 || errno == EPERM
    }

    /// Where a bad registry value is reported (standard error; tests replace it).
    nonisolated(unsafe) static var reportProblem: (String) -> Void = { message in
        FileHandle.standardError.write(Data("warning: registry: \(message)\n".utf8))
    }

    private func markVanishedRuns() throws {
        let host = Self.hostName
        let running = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, pid, run_folder FROM runs WHERE status = 'running' AND host = ?", arguments: [host])
        }
        // A pid no process can have counts as gone; one that is not a number leaves the row as it is.
        let vanished = running.compactMap { row -> (id: String, pid: Int, folder: String)? in
            var values = CheckedRow(row, table: "runs", label: "running row")
            guard let id = values.text("id"), let pid = values.int("pid", in: Int.min...Int.max), !Self.processIsAlive(pid) else { return nil }
            return (id, pid, values.text("run_folder") ?? id)
        }
        guard !vanished.isEmpty else { return }
        try write { db in
            for (id, pid, folder) in vanished {
                let reason = "the training process (pid \(pid) on \(host)) ended without finishing (killed?); continue with `screenlab train --resume \(folder)`"
                try db.execute(sql: "UPDATE runs SET status = 'interrupted', stop_reason = ?, updated_at = ? WHERE id = ? AND status = 'running'",
                               arguments: [reason, Self.timestamp(), id])
            }
        }
    }

    /// ISO 8601 in UTC: sorts as text and reads in the sqlite3 tool (`datetime(started_at)`).
    public static func timestamp(_ date: Date = Date()) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
