import TestSupport
import Foundation
import GRDB
import XCTest
@testable import Registry

/// Values a user's `sqlite3` edit or a tampered run folder leaves in the registry (issue 30): each
/// is reported by run and column and read as empty, never fatal to the other rows or the command.
final class RegistryHostileValueTests: XCTestCase {
    var reported: [String] = []

    override func setUp() {
        reported = []
        RunRegistry.reportProblem = { [unowned self] in self.reported.append($0) }
    }

    override func tearDown() {
        RunRegistry.reportProblem = { FileHandle.standardError.write(Data("warning: registry: \($0)\n".utf8)) }
    }

    func registry(with runs: [RunRecord]) throws -> (RunRegistry, URL) {
        let file = try RunFolderFixture.temporaryFolder().appendingPathComponent("runs.sqlite")
        let registry = try RunRegistry(file: file)
        for run in runs { try registry.startRun(run, epochs: []) }
        return (registry, file)
    }

    func edit(_ file: URL, _ sql: String) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { try $0.execute(sql: sql) }
    }

    func testTextInNumberColumnsAndImpossiblePidsReadAsEmptyAndAreReported() throws {
        var good = RunRecord(id: "20261124-010000-1", experiment: "tiny", status: .finished)
        good.epochsDone = 3
        let bad = RunRecord(id: "20261124-020000-2", experiment: "tiny", status: .finished)
        let (registry, file) = try registry(with: [good, bad])
        try registry.recordEpoch(EpochRecord(epoch: 1, losses: ["cls": 0.5], learningRate: 0.01, valMAP50: 0.2, valMAPCenter: nil,
                                             imagesPerSecond: 5, seconds: 1), runID: bad.id)
        try edit(file, """
            UPDATE runs SET pid = 'abc', epochs_done = 'x', seconds = 1e308, test_map50 = 7 WHERE id = '\(bad.id)';
            UPDATE epochs SET lr = 1e308, seconds = 'soon' WHERE run_id = '\(bad.id)';
            """)
        let runs = try registry.runs()
        XCTAssertEqual(runs.map(\.id), [good.id, bad.id], "the bad row does not hide the good one")
        XCTAssertEqual(runs[0].problems, [])
        let read = runs[1]
        XCTAssertNil(read.pid)
        XCTAssertEqual(read.epochsDone, 0)
        XCTAssertNil(read.seconds)
        XCTAssertNil(read.test.map50)
        XCTAssertEqual(read.problems.count, 4, "\(read.problems)")
        XCTAssertTrue(read.problems.contains { $0.contains("runs \(bad.id): column pid holds") && $0.contains("\"abc\"") }, "\(read.problems)")
        let epochs = try registry.epochs(of: bad.id)
        XCTAssertEqual(epochs.count, 1)
        XCTAssertNil(epochs[0].learningRate)
        XCTAssertNil(epochs[0].seconds)
        XCTAssertEqual(epochs[0].valMAP50, 0.2)
        XCTAssertTrue(reported.contains { $0.contains("epochs of run \(bad.id): column lr") }, "\(reported)")
    }

    /// A running row whose pid no process can have (pid_t(99999999999) trapped in every command
    /// that opened the registry) counts as gone: the run shows interrupted.
    func testARunningRowWithAnImpossiblePidIsInterrupted() throws {
        var run = RunRecord(id: "20261124-030000-3", experiment: "tiny", status: .running)
        run.host = RunRegistry.hostName
        run.pid = Int(getpid())
        let (_, file) = try registry(with: [run])
        try edit(file, "UPDATE runs SET pid = 99999999999 WHERE id = '\(run.id)'")
        XCTAssertFalse(RunRegistry.processIsAlive(99_999_999_999))
        XCTAssertFalse(RunRegistry.processIsAlive(-5))
        let reopened = try RunRegistry(file: file)
        XCTAssertEqual(try reopened.run(run.id).status, .interrupted)
        try edit(file, "UPDATE runs SET status = 'running', pid = 'abc' WHERE id = '\(run.id)'")
        XCTAssertEqual(try RunRegistry(file: file).run(run.id).status, .running, "a pid that is not a number leaves the row as it is")
    }

    /// runs import refuses a folder whose numbers the registry could not read back.
    func testImportRefusesOutOfRangeNumbersNamingThem() throws {
        let root = try RunFolderFixture.temporaryFolder()
        let folder = try RunFolderFixture.write(in: root, id: "20261124-040000-4")
        let summaryURL = folder.appendingPathComponent("summary.json")
        var summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: summaryURL)) as? [String: Any])
        summary["seconds"] = 1e308
        try JSONSerialization.data(withJSONObject: summary).write(to: summaryURL)
        XCTAssertThrowsError(try RunFolderReader.read(folder)) { error in
            XCTAssertTrue("\(error)".contains("summary seconds is 1e+308"), "\(error)")
        }
        let lrFolder = try RunFolderFixture.write(in: root, id: "20261124-050000-5", lr: 1e308)
        XCTAssertThrowsError(try RunFolderReader.read(lrFolder)) { error in
            XCTAssertTrue("\(error)".contains("metrics.csv epoch 1: lr is 1e+308"), "\(error)")
        }
    }

    /// The registry path follows the output rules: never a FIFO (opening one blocked forever),
    /// a device (SQLite made /dev/null-journal in /dev), a link to one, or a folder.
    func testARegistryPathThatIsNoRegularFileIsRefusedAtOnce() throws {
        let folder = try RunFolderFixture.temporaryFolder()
        let fifo = folder.appendingPathComponent("fifo.sqlite")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let link = folder.appendingPathComponent("null.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/null")
        let cases: [(URL, String)] = [(fifo, "is a named pipe (FIFO)"), (URL(fileURLWithPath: "/dev/null"), "is a character device"),
                                      (link, "(→ /dev/null) is a character device"), (folder, "is a folder")]
        for (path, expected) in cases {
            XCTAssertThrowsError(try RunRegistry(file: path), path.path) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/null-journal"))
    }
}
