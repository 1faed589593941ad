import Foundation
import Hummingbird
import Registry

/// `/compare?runs=A,B[,…]`: `screenlab compare`'s page for registry runs (the same
/// `RunComparison`: per-class AP side by side with differences, the config keys that differ,
/// curves by epoch and per class overlaid), inside the workbench's navigation.
extension Workbench {
    static let maximumCompared = 8

    func comparePage(query: Query) async throws -> Response {
        let ids = (query["runs"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard (2...Self.maximumCompared).contains(ids.count) else {
            throw WorkbenchError.badRequest("compare takes 2 to \(Self.maximumCompared) run ids: /compare?runs=ID1,ID2 (got \(ids.count))")
        }
        guard Set(ids).count == ids.count else { throw WorkbenchError.badRequest("a run is named twice in runs=\(ids.joined(separator: ","))") }
        let split = query["split"] ?? "test"
        var runs: [ComparedRun] = []
        for id in ids { runs.append(try ComparedRun.fromRun(try await details(id), label: id, split: split)) }
        let page = try await offload { RunComparison(runs).html() }
        let links = ids.map { "<a href=\"/runs/\(HTML.urlComponent($0))\">\(HTML.escape($0))</a>" }.joined(separator: " · ")
        let navigation = "<nav class=\"top\"><a class=\"brand\" href=\"/\">ScreenLab</a><a href=\"/\">Runs</a></nav>"
            + "<p class=\"crumbs\" id=\"compared\" data-runs=\"\(HTML.escape(ids.joined(separator: ",")))\">Comparing \(links) on \(HTML.escape(split))</p>"
        let styled = page.replacingOccurrences(of: "</head>", with: "<link rel=\"stylesheet\" href=\"/assets/workbench.css\"></head>")
        guard let body = styled.range(of: "<body>") else { return Self.html(styled) }
        return Self.html(styled.replacingCharacters(in: body, with: "<body>" + navigation))
    }

    /// `/runs/ID/files/KIND/NAME`: a file the registry lists for the run (weights, thresholds, …).
    func download(id: String, kind: String, name: String) async throws -> Response {
        let details = try await details(id)
        guard ["weights", "thresholds", "picked-weights", "picked-thresholds", "summary", "metrics", "config"].contains(kind) else {
            throw WorkbenchError.notFound("files of kind '\(kind)' are not served; weights, thresholds, picked-weights, picked-thresholds, summary, metrics and config are")
        }
        let file = try RunFiles.artifactFile(of: details, kind: kind, name: name)
        let data = try await offload { try Data(contentsOf: file) }
        let type = file.pathExtension == "yaml" ? "application/yaml" : file.pathExtension == "json" ? "application/json" : "application/octet-stream"
        let fileName = kind.hasPrefix("picked") ? "\(id)-\(name)-\(file.lastPathComponent)" : "\(id)-\(file.lastPathComponent)"
        return Self.bytes(data, type: type, fileName: fileName)
    }
}
