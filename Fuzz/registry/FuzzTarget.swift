import Evaluation
import Foundation
import GRDB
@testable import Registry
import FuzzSupport

/// The run registry as the README invites users to treat it (`sqlite3 Experiments/runs.sqlite`):
/// each input is a list of SQL edits to a real registry (registry/seeds/registry.sqlite: three runs
/// of this machine's Experiments/runs.sqlite on 2026-11-27 — finished, interrupted, running — cut to
/// three epochs each so that an input costs milliseconds) —
/// any cell of any table set to a boundary integer, real, text, blob or NULL, rows deleted or
/// copied under another key, the schema version changed — made with foreign keys off, as the
/// sqlite3 shell has them. Then every read command runs on the edited file in process, as the CLI
/// does: opening (migration, the liveness check of running rows), `runs list` with each filter,
/// `runs show` of every run by id and by a part of it, `compare` of all runs (terminal, Markdown,
/// HTML, charts, config and threshold differences). A crash is a finding; errors are expected.

private let scratch = FuzzPaths.scratch("registry")
private let file = scratch.appendingPathComponent("runs.sqlite")
/// The seed with its report artifacts pointed at `registry/reports/` (a real run's val and test
/// reports, curves thinned to 64 points per class): the same on every machine, whether or not the
/// run folders the seed came from exist there, and ~1,000× less curve text per `compare` page
/// than the real reports (75,000 lines each), which made the HTML most of every input's time.
private let pristine: Data = {
    let seed = FuzzPaths.package.appendingPathComponent("registry/seeds/registry.sqlite")
    let staged = scratch.appendingPathComponent("seed.sqlite")
    try? FileManager.default.removeItem(at: staged)
    try! FileManager.default.copyItem(at: seed, to: staged)
    let queue = try! DatabaseQueue(path: staged.path)
    let reports = FuzzPaths.package.appendingPathComponent("registry/reports").path
    try! queue.write { try $0.execute(sql: "UPDATE artifacts SET path = ? || '/' || name WHERE kind = 'report'", arguments: [reports]) }
    try! queue.close()
    return try! Data(contentsOf: staged)
}()
private let tables = ["runs", "epochs", "epoch_losses", "class_results", "thresholds", "artifacts"]
/// Column names per table, read from the seed once.
private let columns: [String: [String]] = {
    let queue = try! DatabaseQueue(path: FuzzPaths.package.appendingPathComponent("registry/seeds/registry.sqlite").path,
                                   configuration: { var c = Configuration(); c.readonly = true; return c }())
    return try! queue.read { db in
        Dictionary(uniqueKeysWithValues: try tables.map { table in (table, try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('\(table)')")) })
    }
}()
private var problems = 0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegistry(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    RunRegistry.reportProblem = { message in problems &+= message.utf8.count }
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(file.path + suffix) }
    try! pristine.write(to: file)
    var input = FuzzBytes(Data(bytes: bytes, count: count))
    applyEdits(&input)
    // `compare`'s HTML reads every run's PR-curve files from its report folders (the same files for
    // every input) and drew 86 % of the time with the real reports: it runs on one input in
    // sixteen, the rest of `compare` (from the registry's rows) on half.
    let compare = input.bool()
    readEverything(compare: compare, html: compare && input.byte() % 8 == 0)
    return 0
}

private func applyEdits(_ input: inout FuzzBytes) {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = false
    guard let queue = try? DatabaseQueue(path: file.path, configuration: configuration) else { return }
    var edits = 0
    while !input.isEmpty, edits < 32 {
        edits += 1
        let table = tables[input.index(tables.count)]
        let names = columns[table]!
        // A row by position: the edits see the rows the earlier ones left.
        let row = "(SELECT rowid FROM \(table) ORDER BY rowid LIMIT 1 OFFSET \(input.index(8)))"
        switch input.byte() % 8 {
        case 0...4:
            let column = names[input.index(names.count)]
            try? queue.write { try $0.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE rowid = \(row)", arguments: [value(&input)]) }
        case 5:
            try? queue.write { try $0.execute(sql: "DELETE FROM \(table) WHERE rowid = \(row)") }
        case 6:
            // A copy of a row with one column changed (a duplicate under a new key, or refused by the key).
            let column = names[input.index(names.count)]
            let list = names.joined(separator: ", ")
            let selected = names.map { $0 == column ? "?" : $0 }.joined(separator: ", ")
            try? queue.write {
                try $0.execute(sql: "INSERT INTO \(table) (\(list)) SELECT \(selected) FROM \(table) WHERE rowid = \(row)", arguments: [value(&input)])
            }
        default:
            let version = input.int()
            try? queue.write { try $0.execute(sql: "PRAGMA user_version = \(version)") }
        }
    }
    try? queue.close()
}

/// A value for a cell: what the sqlite3 shell lets a user type.
private func value(_ input: inout FuzzBytes) -> DatabaseValue {
    switch input.byte() % 9 {
    case 0: return .null
    case 1, 2: return input.int().databaseValue
    case 3, 4:
        let number = input.double()
        return number.isNaN ? .null : number.databaseValue  // SQLite stores NaN as NULL
    case 5:
        let texts = ["", "abc", "x", "running", "finished", "failed", "interrupted", "test", "val", "train", "report", "1e308", "-5",
                     "99999999999", "NaN", RunRegistry.hostName, "\(getpid())", "/dev/null", "../../etc", "2026-11-27T12:00:00Z", "Text", "Icon"]
        return texts[input.index(texts.count)].databaseValue
    case 6: return String(decoding: input.bytes(40), as: UTF8.self).databaseValue
    case 7: return Data(input.bytes(40)).databaseValue
    default: return String(repeating: "é", count: Int(input.byte()) * 64).databaseValue
    }
}

private func readEverything(compare: Bool, html: Bool) {
    guard let registry = try? RunRegistry(file: file, busyTimeout: 0.5) else { return }
    _ = try? registry.schemaVersion()
    let all = (try? registry.runs()) ?? []
    _ = RunText.list(all)
    for status in [RunRecord.Status.running, .finished, .failed, .interrupted] {
        if let runs = try? registry.runs(status: status) { _ = RunText.list(runs) }
    }
    if let first = all.first { _ = try? registry.runs(experiment: first.experiment) }
    var compared: [ComparedRun] = []
    for run in all {
        guard let details = try? registry.details(run.id) else { continue }
        _ = RunText.show(details)
        _ = try? registry.run(String(run.id.suffix(5)))
        if let folder = run.runFolder { _ = try? registry.run(inFolder: URL(fileURLWithPath: folder)) }
        if compare, let one = try? ComparedRun.fromRun(details, label: run.id, split: "test") { compared.append(one) }
    }
    guard compare, !compared.isEmpty else { return }
    let comparison = RunComparison(compared)
    _ = comparison.terminal(color: true)
    _ = comparison.markdown()
    if html { _ = comparison.html() }
    _ = comparison.epochCharts()
    _ = comparison.configDifferences()
    _ = comparison.thresholdDifferences()
}
