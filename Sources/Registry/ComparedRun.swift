import Evaluation
import Foundation

/// One thing `screenlab compare` compares: a run (by id from the registry, or by its folder) or
/// an evaluation report folder. Runs bring their config, epochs and thresholds; all bring the
/// report whose per-class AP is compared (a run's test report, else its val report).
public struct ComparedRun {
    public var label: String
    public var run: RunResults?
    public var report: EvaluationReport?
    public var reportFolder: URL?
    /// Why a run has no report (it stopped before its reports), for the page's notes.
    public var note: String?

    /// `argument` is a run folder, a report folder (or its metrics.json), or a run id in `registry`.
    public static func resolve(_ argument: String, registry: () throws -> RunRegistry, split: String = "test") throws -> ComparedRun {
        let url = URL(fileURLWithPath: argument).standardizedFileURL
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue, RunFolderReader.isRunFolder(url) {
            // The registry's rows when it has the run (thresholds picked later live there), else the folder's own files.
            var recorded: RunResults?
            if let opened = try? registry(), let run = try? opened.run(inFolder: url) { recorded = try? opened.details(run.id) }
            return try fromRun(recorded ?? RunFolderReader.read(url), label: argument, split: split)
        }
        if exists {
            let (report, folder) = try EvaluationReport.load(url.path)
            return ComparedRun(label: argument, run: nil, report: report, reportFolder: folder, note: nil)
        }
        if argument.contains("/") {
            throw RegistryError.badRunFolder(folder: argument, reason: "no such run folder or report folder")
        }
        return try fromRun(try registry().details(argument), label: argument, split: split)
    }

    public static func fromRun(_ run: RunResults, label: String, split: String) throws -> ComparedRun {
        let reports = run.artifacts.filter { $0.kind == "report" }
        let folder = reports.first { $0.name == split } ?? reports.first { $0.name == "test" } ?? reports.first { $0.name == "val" }
        guard let folder, FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder.path).appendingPathComponent("metrics.json").path) else {
            return ComparedRun(label: label, run: run, report: nil, reportFolder: nil,
                               note: "\(run.run.id) has no evaluation report (\(run.run.status.rawValue)): only its config and curves by epoch are compared")
        }
        let (report, url) = try EvaluationReport.load(folder.path)
        let note = folder.name == split ? nil : "\(run.run.id): no \(split) report, its \(folder.name) report is compared"
        return ComparedRun(label: label, run: run, report: report, reportFolder: url, note: note)
    }

    /// Flattened resolved config, when this is a run.
    var configKeys: [String: String]? {
        guard let text = run?.run.configYAML else { return nil }
        return try? ConfigKeys.flatten(yaml: text, file: "\(label)/config.resolved.yaml")
    }

    /// Where a class's operating curve is (the report's curves/*.csv) and its ground-truth count.
    func curveFile(of className: String) -> (url: URL, groundTruth: Int)? {
        guard let report, let folder = reportFolder, let c = report.classes.first(where: { $0.name == className }) else { return nil }
        return (folder.appendingPathComponent(c.curveCSV), c.groundTruth)
    }
}
