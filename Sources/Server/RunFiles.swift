import Evaluation
import Foundation
import Registry

/// Where a run's files are, from its registry rows only: a URL names a run by id and a split or
/// artifact by name, and these look the name up; no part of a URL becomes a path.
enum RunFiles {
    /// The run's folder, which must still exist.
    static func folder(of run: RunResults) throws -> URL {
        guard let path = run.run.runFolder else {
            throw WorkbenchError.gone("the registry has no run folder for run \(run.run.id); import it with `screenlab runs import FOLDER`")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WorkbenchError.gone("run \(run.run.id)'s folder \(path) is gone (moved or deleted); `screenlab runs import` it from where it is now")
        }
        return URL(fileURLWithPath: path)
    }

    /// The splits the run has evaluation reports for, test first.
    static func reportSplits(of run: RunResults) -> [String] {
        let names = run.artifacts.filter { $0.kind == "report" }.map(\.name)
        return names.sorted { ($0 == "test" ? 0 : 1, $0) < ($1 == "test" ? 0 : 1, $1) }
    }

    /// The run's evaluation report on `split` (a name the registry lists for it).
    static func report(of run: RunResults, split: String) throws -> (report: EvaluationReport, folder: URL) {
        guard let artifact = run.artifacts.first(where: { $0.kind == "report" && $0.name == split }) else {
            let known = reportSplits(of: run)
            throw WorkbenchError.notFound("run \(run.run.id) has no report on '\(split)'"
                                          + (known.isEmpty ? " (it has none: \(run.run.status.rawValue))" : "; it has \(known.joined(separator: ", "))"))
        }
        let metrics = URL(fileURLWithPath: artifact.path).appendingPathComponent("metrics.json")
        guard FileManager.default.fileExists(atPath: metrics.path) else {
            throw WorkbenchError.gone("run \(run.run.id)'s \(split) report (\(metrics.path)) is gone")
        }
        do {
            return try EvaluationReport.load(metrics.path)
        } catch {
            throw WorkbenchError.gone("run \(run.run.id)'s \(split) report cannot be read: \(error)")
        }
    }

    /// A report's dataset path, which training may have recorded relative to the folder it ran
    /// in: tried as given, then against each folder above the run folder and the registry.
    static func datasetReference(_ data: EvaluationReport.SplitReference, run: RunResults, registryFile: URL) -> String {
        let path = data.config ?? data.dataset
        guard !path.hasPrefix("/") else { return path }
        var bases = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        for start in [run.run.runFolder.map { URL(fileURLWithPath: $0) }, registryFile.deletingLastPathComponent()].compactMap({ $0 }) {
            var folder = start.standardizedFileURL
            while folder.path != "/" {
                bases.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        for base in bases where FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path) {
            return base.appendingPathComponent(path).path
        }
        return path
    }

    /// A file the run registered (`artifacts`) by kind and name, if it is a regular file inside
    /// the run's folder (a registry row edited to point elsewhere is not served).
    static func artifactFile(of run: RunResults, kind: String, name: String) throws -> URL {
        guard let artifact = run.artifacts.first(where: { $0.kind == kind && $0.name == name }) else {
            throw WorkbenchError.notFound("run \(run.run.id) has no \(kind) file named '\(name)'")
        }
        let folder = try self.folder(of: run).resolvingSymlinksInPath().standardizedFileURL
        let file = URL(fileURLWithPath: artifact.path).resolvingSymlinksInPath().standardizedFileURL
        guard file.path.hasPrefix(folder.path + "/") else {
            throw WorkbenchError.notFound("run \(run.run.id)'s \(kind) file '\(name)' lies outside its run folder (\(artifact.path)); it is not served")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw WorkbenchError.gone("run \(run.run.id)'s \(kind) file \(artifact.path) is gone")
        }
        return file
    }
}
