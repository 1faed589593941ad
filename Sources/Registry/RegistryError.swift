import Foundation

/// What can go wrong with the registry, each naming the database file (or run) and what to do.
public enum RegistryError: Error, Equatable, CustomStringConvertible {
    /// Another process held the write lock for longer than the busy timeout.
    case locked(file: String, seconds: Double)
    /// Not an SQLite file, or a damaged one.
    case corrupt(file: String, reason: String)
    /// Written by a newer ScreenLab: opening it here could misread or damage it.
    case newerSchema(file: String, found: Int, supported: Int)
    case cannotOpen(file: String, reason: String)
    case unknownRun(file: String, id: String, suggestions: [String])
    /// A run folder that cannot be imported (missing or unreadable files).
    case badRunFolder(folder: String, reason: String)
    case database(file: String, reason: String)

    public var description: String {
        switch self {
        case .locked(let file, let seconds):
            return "\(file): the run registry is locked by another process (waited \(String(format: "%g", seconds)) s); "
                + "try again when the other `screenlab` finishes, or give another database with --registry PATH or SCREENLAB_REGISTRY"
        case .corrupt(let file, let reason):
            return "\(file): not a readable run registry (\(reason)); move it aside and rebuild it with "
                + "`screenlab runs import Experiments/runs`, or give another database with --registry PATH"
        case .newerSchema(let file, let found, let supported):
            return "\(file): the run registry has schema version \(found), newer than this ScreenLab reads (\(supported)); "
                + "use a newer screenlab, or give another database with --registry PATH"
        case .cannotOpen(let file, let reason):
            return "\(file): cannot open the run registry (\(reason)); check the folder exists and is writable, or give --registry PATH"
        case .unknownRun(let file, let id, let suggestions):
            let guess = suggestions.isEmpty ? "" : "did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))? "
            return "\(file): no run '\(id)' in the registry; \(guess)`screenlab runs list` shows the runs, and `screenlab runs import FOLDER` adds a run folder"
        case .badRunFolder(let folder, let reason):
            return "\(folder): \(reason)"
        case .database(let file, let reason):
            return "\(file): run registry error: \(reason)"
        }
    }
}
