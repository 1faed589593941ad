import TestSupport
import Foundation
import GRDB
import XCTest
@testable import Registry

final class RegistryOpeningTests: XCTestCase {
    func testAnEmptyOrMissingFileIsMigratedToTheCurrentSchema() throws {
        let folder = try RunFolderFixture.temporaryFolder()
        let missing = folder.appendingPathComponent("sub/runs.sqlite")
        let registry = try RunRegistry(file: missing)
        XCTAssertEqual(try registry.schemaVersion(), RegistrySchema.currentVersion)
        let empty = folder.appendingPathComponent("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        XCTAssertEqual(try RunRegistry(file: empty).schemaVersion(), RegistrySchema.currentVersion)
        // WAL, so readers never wait for a training's writes.
        let mode = try DatabaseQueue(path: missing.path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "wal")
        // Reopening an up-to-date file changes nothing.
        XCTAssertEqual(try RunRegistry(file: missing).runs(), [])
    }

    /// A version-1 registry (before the data-parallel columns) whose rows a user edited with
    /// sqlite3 into orphans (foreign keys are off there) is upgraded, its rows kept: found by
    /// Fuzz/registry, where GRDB's deferred whole-file key check refused the upgrade — after the
    /// opener had retried that refusal for the whole busy timeout (15 s).
    func testAVersionOneFileWithOrphanRowsIsUpgraded() throws {
        let file = try RunFolderFixture.temporaryFolder().appendingPathComponent("v1.sqlite")
        var version1 = DatabaseMigrator()
        version1.registerMigration("v1") { db in
            try db.execute(sql: RegistrySchema.version1)
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        try version1.migrate(queue)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO runs (id, experiment, status, updated_at) VALUES ('r1', 'e', 'finished', '2026-11-28T00:00:00Z')")
            try db.execute(sql: "INSERT INTO epochs (run_id, epoch, lr) VALUES ('gone', 0, 0.001)")  // its run deleted by hand
        }
        try queue.close()
        let registry = try RunRegistry(file: file, busyTimeout: 15)
        XCTAssertEqual(try registry.schemaVersion(), 2)
        XCTAssertEqual(try registry.runs().map(\.id), ["r1"])
        XCTAssertNil(try registry.runs().first?.ranks, "a run of version 1 trained on one process")
        let orphans = try DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM epochs WHERE run_id = 'gone'") }
        XCTAssertEqual(orphans, 1, "the upgrade changes no row")
    }

    func testANewerSchemaIsRefusedNamingTheFile() throws {
        let file = try RunFolderFixture.temporaryFolder().appendingPathComponent("runs.sqlite")
        _ = try RunRegistry(file: file)
        try DatabaseQueue(path: file.path).write { try $0.execute(sql: "PRAGMA user_version = 7") }
        XCTAssertThrowsError(try RunRegistry(file: file)) { error in
            XCTAssertEqual(error as? RegistryError, .newerSchema(file: file.path, found: 7, supported: RegistrySchema.currentVersion))
            XCTAssertTrue("\(error)".contains(file.path) && "\(error)".contains("newer"), "\(error)")
        }
    }

    func testACorruptFileIsRefusedAndLeftAsItWas() throws {
        let file = try RunFolderFixture.temporaryFolder().appendingPathComponent("runs.sqlite")
        let garbage = Data("epoch,loss\n1,0.5\n".utf8) + Data(repeating: 7, count: 5000)
        try garbage.write(to: file)
        XCTAssertThrowsError(try RunRegistry(file: file)) { error in
            guard case .corrupt(let path, _)? = error as? RegistryError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, file.path)
            XCTAssertTrue("\(error)".contains("runs import"), "says how to rebuild: \(error)")
        }
        XCTAssertEqual(try Data(contentsOf: file), garbage, "a refused file is not touched")

        // A real SQLite header over damaged pages.
        let damaged = file.deletingLastPathComponent().appendingPathComponent("damaged.sqlite")
        _ = try RunRegistry(file: damaged)
        try DatabaseQueue(path: damaged.path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        var bytes = try Data(contentsOf: damaged)
        for i in 100..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        try bytes.write(to: damaged)
        XCTAssertThrowsError(try RunRegistry(file: damaged)) { error in
            guard case .corrupt? = error as? RegistryError else { return XCTFail("\(error)") }
        }
    }

    func testALockedDatabaseWaitsThenFailsNamingTheFile() throws {
        let file = try RunFolderFixture.temporaryFolder().appendingPathComponent("runs.sqlite")
        let registry = try RunRegistry(file: file, busyTimeout: 0.3)
        // Another connection holds the write lock for the whole attempt (GRDB wants a
        // transaction closed within one access, so the attempt runs inside it).
        let holder = try DatabaseQueue(path: file.path)
        try holder.inDatabase { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            defer { try? db.execute(sql: "ROLLBACK") }
            let clock = Date()
            XCTAssertThrowsError(try registry.startRun(RunRecord(id: "a", experiment: "x", status: .running), epochs: [])) { error in
                XCTAssertEqual(error as? RegistryError, .locked(file: file.path, seconds: 0.3))
                XCTAssertTrue("\(error)".contains(file.path) && "\(error)".contains("try again"), "\(error)")
            }
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(clock), 0.3, "waited for the lock first")
        }
        try registry.startRun(RunRecord(id: "a", experiment: "x", status: .running), epochs: [])
        XCTAssertEqual(try registry.runs().map(\.id), ["a"])
    }
}

final class RegistryRecordingTests: XCTestCase {
    func testARunWhoseProcessIsGoneShowsAsInterruptedWithItsEpochs() throws {
        let file = try RunFolderFixture.temporaryFolder().appendingPathComponent("runs.sqlite")
        let registry = try RunRegistry(file: file)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        var run = RunRecord(id: "20261124-050000-1", experiment: "tiny", status: .running)
        run.host = RunRegistry.hostName
        run.pid = Int(gone.processIdentifier)
        run.runFolder = "/runs/tiny/20261124-050000-1"
        try registry.startRun(run, epochs: [])
        for e in 1...2 {
            try registry.recordEpoch(EpochRecord(epoch: e, losses: ["cls": 1.0 / Double(e)], learningRate: 0.01, valMAP50: 0.1 * Double(e),
                                                 valMAPCenter: nil, imagesPerSecond: 5, seconds: 1), runID: run.id)
        }
        var alive = RunRecord(id: "live", experiment: "tiny", status: .running)
        alive.host = RunRegistry.hostName
        alive.pid = Int(getpid())
        try registry.startRun(alive, epochs: [])

        let reopened = try RunRegistry(file: file)
        let found = try reopened.run(run.id)
        XCTAssertEqual(found.status, .interrupted)
        XCTAssertTrue(found.stopReason?.contains("--resume /runs/tiny/20261124-050000-1") == true, found.stopReason ?? "")
        XCTAssertEqual(found.epochsDone, 2)
        XCTAssertEqual(try reopened.epochs(of: run.id).map(\.losses), [["cls": 1.0], ["cls": 0.5]])
        XCTAssertEqual(try reopened.run("live").status, .running, "a live process keeps its run running")
    }

    /// Readers never wait: opening the registry and listing runs while another connection holds
    /// a write transaction returns at once (opening used to run the migrator, a write, and wait
    /// the whole busy timeout).
    func testOpeningAndListingDoNotWaitForAWriter() throws {
        let root = try RunFolderFixture.temporaryFolder()
        let file = root.appendingPathComponent("runs.sqlite")
        let registry = try RunRegistry(file: file)
        try registry.record(try RunFolderReader.read(try RunFolderFixture.write(in: root.appendingPathComponent("runs"), id: "20261124-010000-11")))
        // Another connection holds the write lock (an UPDATE inside an open transaction) until released.
        let writer = try DatabaseQueue(path: file.path)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? writer.write { db in
                try db.execute(sql: "UPDATE runs SET experiment = experiment")
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        let started = Date()
        let reader = try RunRegistry(file: file, busyTimeout: 15)
        XCTAssertEqual(try reader.runs().map(\.id), ["20261124-010000-11"])
        let waited = Date().timeIntervalSince(started)
        release.signal()
        done.wait()
        XCTAssertLessThan(waited, 5, "well under the 15-second busy timeout")
    }

    /// A copied run folder carries its run id: importing it must not silently move the original's
    /// rows. A folder whose registered home is gone is a move, and is followed.
    func testImportOfACopyIsRefusedUnlessReplacedAndAMovedFolderIsFollowed() throws {
        let root = try RunFolderFixture.temporaryFolder()
        let original = try RunFolderFixture.write(in: root.appendingPathComponent("runs"), id: "20261124-010000-11")
        let copy = root.appendingPathComponent("copy/tiny/20261124-010000-11")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: original, to: copy)
        // A threshold save from `serve` lives in picked/STAMP and survives a re-import.
        let picked = original.appendingPathComponent("picked/20261127-150000")
        try FileManager.default.createDirectory(at: picked, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: picked.appendingPathComponent("thresholds.yaml"))
        let registry = try RunRegistry(file: root.appendingPathComponent("runs.sqlite"))

        XCTAssertEqual(try registry.importRun(try RunFolderReader.read(original)), .added)
        XCTAssertEqual(try registry.importRun(try RunFolderReader.read(original)), .updated)
        XCTAssertEqual(try registry.artifacts(of: "20261124-010000-11").filter { $0.kind == "picked-thresholds" }.map(\.name), ["20261127-150000"])
        XCTAssertThrowsError(try registry.importRun(try RunFolderReader.read(copy))) { error in
            XCTAssertTrue("\(error)".contains("already in the registry from \(original.standardizedFileURL.path)"), "\(error)")
            XCTAssertTrue("\(error)".contains("--replace"), "\(error)")
        }
        XCTAssertEqual(try registry.run("20261124-010000-11").runFolder, original.standardizedFileURL.path, "nothing changed")
        XCTAssertEqual(try registry.importRun(try RunFolderReader.read(copy), replace: true), .moved(from: original.standardizedFileURL.path))
        XCTAssertEqual(try registry.run("20261124-010000-11").runFolder, copy.standardizedFileURL.path)
        // The copy's registered folder disappears: importing the original again follows it without --replace.
        try FileManager.default.removeItem(at: copy)
        XCTAssertEqual(try registry.importRun(try RunFolderReader.read(original)), .moved(from: copy.standardizedFileURL.path))
    }

    func testImportIsIdempotentAndReadsEveryTable() throws {
        let root = try RunFolderFixture.temporaryFolder()
        let runs = root.appendingPathComponent("runs")
        let finished = try RunFolderFixture.write(in: runs, id: "20261124-010000-11")
        try RunFolderFixture.write(in: runs, experiment: "other", id: "20261124-020000-999999", epochs: 2, finished: false)
        let registry = try RunRegistry(file: root.appendingPathComponent("runs.sqlite"))
        let folders = try RunFolderReader.runFolders(under: runs)
        XCTAssertEqual(folders.count, 2)
        for _ in 0..<2 { for folder in folders { try registry.record(try RunFolderReader.read(folder)) } }

        let all = try registry.runs()
        XCTAssertEqual(all.map(\.id), ["20261124-010000-11", "20261124-020000-999999"])
        let run = try registry.run("010000")
        XCTAssertEqual(run.status, .finished)
        XCTAssertEqual(run.runFolder, finished.standardizedFileURL.path)
        XCTAssertEqual(run.startedAt, "2026-11-24T01:00:00Z")
        XCTAssertEqual(run.test.map50, 0.25)
        XCTAssertEqual(run.dataset, "synthetic(count=24, seed=5, screens_per_app=1)")
        XCTAssertEqual(try registry.epochs(of: run.id).count, 3)
        let classes = try registry.classResults(of: run.id)
        XCTAssertEqual(classes.count, 4, "two classes on val and test")
        let valText = try XCTUnwrap(classes.first { $0.split == "val" && $0.className == "Text" })
        XCTAssertEqual(valText.threshold, 0.4)
        XCTAssertEqual(valText.precision, 0.9, "on the pick split, P/R/F1 of the pick")
        let testText = try XCTUnwrap(classes.first { $0.split == "test" && $0.className == "Text" })
        XCTAssertEqual(testText.precision, 0.8, "on test, P/R/F1 of the test report")
        XCTAssertEqual(try registry.thresholds(of: run.id).map(\.confidence), [0.4, nil])
        XCTAssertTrue(try registry.artifacts(of: run.id).contains { $0.kind == "summary" })
        let stopped = try registry.run("20261124-020000-999999")
        XCTAssertEqual(stopped.status, .interrupted, "status.json said running but no such process")
        XCTAssertEqual(try registry.runs(status: .finished).count, 1)
        XCTAssertEqual(try registry.runs(experiment: "other").count, 1)
    }

    func testAFolderWithoutMetricsIsRefusedAndWritesNothing() throws {
        let root = try RunFolderFixture.temporaryFolder()
        let folder = try RunFolderFixture.write(in: root, id: "20261124-030000-5")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("metrics.csv"))
        XCTAssertThrowsError(try RunFolderReader.read(folder)) { error in
            XCTAssertTrue("\(error)".contains("metrics.csv is missing") && "\(error)".contains(folder.lastPathComponent), "\(error)")
        }
    }

    func testAnUnknownRunSuggestsCloseIds() throws {
        let registry = try RunRegistry(file: try RunFolderFixture.temporaryFolder().appendingPathComponent("runs.sqlite"))
        for id in ["20261124-010000-11", "20261124-010000-12"] { try registry.startRun(RunRecord(id: id, experiment: "x", status: .finished), epochs: []) }
        XCTAssertThrowsError(try registry.run("010000")) { error in
            XCTAssertTrue("\(error)".contains("'20261124-010000-11'") && "\(error)".contains("runs list"), "\(error)")
        }
        XCTAssertThrowsError(try registry.run("nope")) { error in XCTAssertTrue("\(error)".contains("no run 'nope'"), "\(error)") }
    }

    /// Two connections in two threads, each writing runs and epochs as fast as it can: WAL and
    /// the busy timeout make them take turns, and no row is lost.
    func testTwoWritersAtOnceLoseNoRow() throws {
        let file = try RunFolderFixture.temporaryFolder().appendingPathComponent("runs.sqlite")
        let errors = NSMutableArray()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            do {
                let registry = try RunRegistry(file: file)
                for i in 0..<40 {
                    let id = "w\(writer)-\(i)"
                    try registry.startRun(RunRecord(id: id, experiment: "w\(writer)", status: .running), epochs: [])
                    for e in 1...3 {
                        try registry.recordEpoch(EpochRecord(epoch: e, losses: ["cls": 1], learningRate: 0.1, valMAP50: nil, valMAPCenter: nil,
                                                             imagesPerSecond: 1, seconds: 1), runID: id)
                    }
                    try registry.setStatus(.finished, reason: nil, runID: id)
                }
            } catch { errors.add("\(error)") }
        }
        XCTAssertEqual(errors.count, 0, "\(errors)")
        let registry = try RunRegistry(file: file)
        XCTAssertEqual(try registry.runs(status: .finished).count, 80)
        let epochs = try DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM epochs") }
        XCTAssertEqual(epochs, 240)
    }

    func testConfigDifferencesListOnlyKeysThatDiffer() throws {
        let a = try ConfigKeys.flatten(yaml: "optimizer: {lr: 0.002, name: adamw}\nepochs: 3\naugment: default\n", file: "a")
        let b = try ConfigKeys.flatten(yaml: "optimizer: {lr: 0.01, name: adamw}\nepochs: 3\nfreeze: backbone\n", file: "b")
        let diff = ConfigKeys.differences([a, b])
        XCTAssertEqual(diff.map(\.key), ["augment", "freeze", "optimizer.lr"])
        XCTAssertEqual(diff.last?.values, ["0.002", "0.01"])
    }
}
