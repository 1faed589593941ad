import ArgumentParser
import Foundation
import Registry

/// `--registry PATH` for every command that reads or writes the run registry.
struct RegistryOptions: ParsableArguments {
    @Option(help: "Run registry (SQLite). Default: SCREENLAB_REGISTRY, else Experiments/runs.sqlite of this checkout.")
    var registry: String?

    var file: URL { RegistryLocation.resolve(flag: registry) }

    func open() throws -> RunRegistry {
        do { return try RunRegistry(file: file) } catch { throw failure("\(error)") }
    }
}

extension RunRecord.Status: ExpressibleByArgument {}

/// Runs a registry call, turning its error into a message and exit 1.
func reportingRegistryErrors<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch { throw failure("\(error)") }
}

struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "The run registry: list, show and import training runs.",
        discussion: """
        Every `screenlab train` records its run in one SQLite database as it goes (schema: Sources/Registry/SCHEMA.md); \
        the sqlite3 tool reads it too. Default Experiments/runs.sqlite of the checkout; --registry PATH or SCREENLAB_REGISTRY.
        """,
        subcommands: [RunsListCommand.self, RunsShowCommand.self, RunsImportCommand.self])
}

struct RunsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Runs, oldest first: status, epochs, val/test mAP@0.5, speed, duration.")

    @OptionGroup var options: RegistryOptions
    @Option(help: "Only this experiment's runs.") var experiment: String?
    @Option(help: "Only runs with this status: running, finished, failed, interrupted.") var status: RunRecord.Status?

    func run() throws {
        let registry = try options.open()
        let runs = try reportingRegistryErrors { try registry.runs(experiment: experiment, status: status) }
        print(RunText.list(runs))
    }
}

struct RunsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "One run: metrics by epoch (with a small chart), per-class results, thresholds, artifacts, config.")

    @OptionGroup var options: RegistryOptions
    @Argument(help: "A run id (or a unique part of one, e.g. its pid suffix).") var runID: String

    func run() throws {
        let registry = try options.open()
        let details = try reportingRegistryErrors { try registry.details(runID) }
        print(RunText.show(details), terminator: "")
    }
}

struct RunsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Add existing run folders (summary.json, metrics.csv, config.resolved.yaml) to the registry.",
        discussion: """
        DIR is a run folder, an experiment's folder or Experiments/runs. Importing again replaces a run's rows with the folder's \
        (idempotent); a run whose registered folder is gone now points at the imported one. A folder whose run id the registry \
        has from another folder that still exists (a copy) is refused unless --replace.
        """)

    @OptionGroup var options: RegistryOptions
    @Argument(help: "Run folders, or folders holding them.") var folders: [String]
    @Flag(help: "Point a run id the registry has from another, existing folder at the imported folder instead.") var replace = false

    func run() throws {
        let registry = try options.open()
        var imported = 0, refused = 0
        for path in folders {
            let runs = try reportingRegistryErrors { try RunFolderReader.runFolders(under: URL(fileURLWithPath: path)) }
            if runs.isEmpty { FileHandle.standardError.write(Data("warning: \(path): no run folders found (a run folder holds experiment.yaml and config.resolved.yaml)\n".utf8)) }
            for folder in runs {
                do {
                    let results = try RunFolderReader.read(folder)
                    let outcome = try registry.importRun(results, replace: replace)
                    imported += 1
                    let moved: String
                    if case .moved(let from) = outcome { moved = "  (was \(from))" } else { moved = "" }
                    print("\(results.run.id)  \(results.run.experiment)  \(results.run.status.rawValue)  \(results.epochs.count) epochs\(moved)")
                } catch let error as RegistryError {
                    if case .badRunFolder = error {
                        refused += 1
                        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                    } else {
                        throw failure("\(error)")
                    }
                } catch {
                    throw failure("\(error)")
                }
            }
        }
        print("imported \(imported) run\(imported == 1 ? "" : "s") into \(registry.file.path)" + (refused > 0 ? "; \(refused) refused (see above)" : ""))
        if refused > 0 { throw ExitCode(1) }
    }
}
