import Foundation

/// Where the run registry lives: `--registry PATH`, else `SCREENLAB_REGISTRY`, else
/// `Experiments/runs.sqlite` of the checkout (git-ignored), so every run of a checkout lands
/// in one place whatever the working folder.
public enum RegistryLocation {
    public static let environmentVariable = "SCREENLAB_REGISTRY"
    public static let defaultRelativePath = "Experiments/runs.sqlite"

    /// `flag` wins over the environment; `checkout` is the repository root (the folder holding
    /// Package.swift), found from `start` upwards; the current folder when there is none.
    public static func resolve(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                               start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> URL {
        if let flag, !flag.isEmpty { return URL(fileURLWithPath: flag).standardizedFileURL }
        if let path = environment[environmentVariable], !path.isEmpty { return URL(fileURLWithPath: path).standardizedFileURL }
        return checkoutRoot(from: start).appendingPathComponent(defaultRelativePath)
    }

    /// Where `screenlab train` records a run: beside the runs folder it writes into
    /// (`Experiments/runs` → `Experiments/runs.sqlite`), so `train --runs DIR` keeps its runs and
    /// their registry together; the flag and the environment still win.
    public static func forRuns(folder runs: URL, flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let flag, !flag.isEmpty { return URL(fileURLWithPath: flag).standardizedFileURL }
        if let path = environment[environmentVariable], !path.isEmpty { return URL(fileURLWithPath: path).standardizedFileURL }
        let runs = runs.standardizedFileURL
        return runs.deletingLastPathComponent().appendingPathComponent(runs.lastPathComponent + ".sqlite")
    }

    static func checkoutRoot(from start: URL) -> URL {
        var folder = start.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent("Experiments").path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return start.standardizedFileURL }
            folder = parent
        }
    }
}
