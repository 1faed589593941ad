import Evaluation
import Foundation
import Hummingbird
import Registry
import Support
import Weights

/// `/runs/ID/thresholds`: per class, the PR curve on the pick split (val) with the operating
/// point on it, moved by a slider or a click; precision, recall, F1 and the detections kept
/// at that point on the pick split and on the shown split (test); strategies as starting points;
/// Save writes a new weights file and thresholds.yaml beside the run's, never over them.
extension Workbench {
    /// `/api/runs/ID/curves`: each class's operating points on the pick split, with the point the
    /// same confidence gives on the shown split. Every point is an exact point of the curve
    /// (long curves are thinned to at most `pointsPerClass`, keeping the max-F1 and current points).
    struct CurvesAnswer: Codable {
        struct ClassCurve: Codable {
            var name: String
            var groundTruth: Int
            var groundTruthShown: Int?
            var ap50: Double?
            var current: Double?
            var maxF1: Double?
            /// [confidence, tp, fp, precision, recall, f1] on the pick split, then
            /// [tp, fp, precision, recall, f1] on the shown split when there is one.
            var points: [[Double]]
            enum CodingKeys: String, CodingKey {
                case name, ap50, current, points
                case groundTruth = "ground_truth", groundTruthShown = "ground_truth_shown", maxF1 = "max_f1"
            }
        }
        var run: String
        var split: String
        var shown: String?
        var strategy: String?
        var classes: [ClassCurve]
    }

    static let pointsPerClass = 400

    /// The pick split's and the shown split's reports and curves (from the reports' curve files:
    /// no dataset needed, exactly what `thresholds pick` reads).
    struct PickData {
        var pick: (report: EvaluationReport, folder: URL)
        var shown: (report: EvaluationReport, folder: URL)?
        var split: String
        var shownSplit: String?

        func curve(_ c: EvaluationReport.ClassReport, in folder: URL) -> OperatingCurve? {
            CurveCache.shared.curve(folder.appendingPathComponent(c.curveCSV), groundTruthCount: c.groundTruth)
        }
    }

    func pickData(_ details: RunResults, query: Query) async throws -> PickData {
        let splits = RunFiles.reportSplits(of: details)
        let split = query["split"] ?? details.run.valSplit ?? "val"
        guard splits.contains(split) else {
            throw WorkbenchError.notFound("run \(details.run.id) has no report on '\(split)' to pick thresholds on"
                                         + (splits.isEmpty ? " (it has no reports yet)" : "; it has \(splits.joined(separator: ", "))"))
        }
        let shownSplit = query["shown"] ?? splits.first { $0 != split }
        if let shownSplit, !splits.contains(shownSplit) {
            throw WorkbenchError.notFound("run \(details.run.id) has no report on '\(shownSplit)' to show the thresholds on")
        }
        return try await offload {
            PickData(pick: try RunFiles.report(of: details, split: split),
                     shown: try shownSplit.flatMap { $0 == split ? nil : try RunFiles.report(of: details, split: $0) },
                     split: split, shownSplit: shownSplit == split ? nil : shownSplit)
        }
    }

    func curvesJSON(id: String, query: Query) async throws -> Response {
        let details = try await details(id)
        let data = try await pickData(details, query: query)
        let current = Dictionary(details.thresholds.map { ($0.className, $0.confidence) }, uniquingKeysWith: { first, _ in first })
        let classes = try await offload { () -> [CurvesAnswer.ClassCurve] in
            data.pick.report.classes.map { c in
                let curve = data.curve(c, in: data.pick.folder) ?? OperatingCurve(points: [], groundTruthCount: c.groundTruth)
                let shownClass = data.shown?.report.classes.first { $0.name == c.name }
                let shownCurve = shownClass.flatMap { s in data.shown.flatMap { data.curve(s, in: $0.folder) } }
                let best = ThresholdPicker.pick(curve, className: c.name, strategy: .maxF1).point?.confidence
                let now = current[c.name] ?? nil
                let points = Self.thinned(curve.points, keeping: [best, now].compactMap { $0 }).map { p -> [Double] in
                    var row = [p.confidence, Double(p.truePositives), Double(p.falsePositives), p.precision, p.recall, p.f1]
                    if let shownCurve { row += Self.row(shownCurve.point(atConfidence: p.confidence)) }
                    return row
                }
                return .init(name: c.name, groundTruth: c.groundTruth, groundTruthShown: shownClass?.groundTruth, ap50: c.ap50,
                             current: now, maxF1: best, points: points)
            }
        }
        return try Self.json(CurvesAnswer(run: id, split: data.split, shown: data.shownSplit, strategy: details.thresholds.first?.strategy, classes: classes))
    }

    static func row(_ p: OperatingPoint) -> [Double] {
        [Double(p.truePositives), Double(p.falsePositives), p.precision, p.recall, p.f1]
    }

    /// At most `pointsPerClass` points, evenly along the curve, always with its ends and the
    /// points at the `keeping` confidences.
    static func thinned(_ points: [OperatingPoint], keeping: [Double]) -> [OperatingPoint] {
        guard points.count > pointsPerClass else { return points }
        var chosen = Set((0..<pointsPerClass).map { $0 * (points.count - 1) / (pointsPerClass - 1) })
        for confidence in keeping {
            if let i = points.firstIndex(where: { $0.confidence == confidence }) { chosen.insert(i) }
        }
        return chosen.sorted().map { points[$0] }
    }

    /// `/api/runs/ID/strategy?strategy=precision:0.9`: the exact point the strategy picks per class
    /// (what `thresholds pick --strategy` would write), for the page to move its points to.
    func strategyJSON(id: String, query: Query) async throws -> Response {
        guard let text = query["strategy"] else { throw WorkbenchError.badRequest("give strategy=max-f1, precision:P or recall:R") }
        let strategy: ThresholdStrategy
        do { strategy = try ThresholdStrategy(parsing: text) } catch { throw WorkbenchError.badRequest("\(error)") }
        let details = try await details(id)
        let data = try await pickData(details, query: query)
        struct Picked: Codable {
            var name: String
            var point: [Double]?
            var note: String?
            var fellBack: Bool
            enum CodingKeys: String, CodingKey { case name, point, note, fellBack = "fell_back" }
        }
        let picked = try await offload { () -> [Picked] in
            data.pick.report.classes.map { c in
                let curve = data.curve(c, in: data.pick.folder) ?? OperatingCurve(points: [], groundTruthCount: c.groundTruth)
                let choice = ThresholdPicker.pick(curve, className: c.name, strategy: strategy, split: data.split)
                let shownCurve = data.shown.flatMap { shown in shown.report.classes.first { $0.name == c.name }.flatMap { data.curve($0, in: shown.folder) } }
                let point = choice.point.map { p -> [Double] in
                    [p.confidence] + Self.row(p) + (shownCurve.map { Self.row($0.point(atConfidence: p.confidence)) } ?? [])
                }
                return Picked(name: c.name, point: point, note: choice.note, fellBack: choice.fellBack)
            }
        }
        return try Self.json(["strategy": AnyCodable(strategy.description), "classes": AnyCodable(picked)])
    }

    // MARK: Save

    /// The body of POST `/api/runs/ID/thresholds`.
    struct SaveRequest: Decodable {
        var split: String?
        /// Class name → confidence; null (or absent) leaves the class without a threshold.
        var confidences: [String: Double?]
        var strategy: String?
    }

    struct SaveAnswer: Codable {
        var weights: String
        var thresholds: String
        var weightsURL: String
        var thresholdsURL: String
        var classes: [String: Double]
        enum CodingKeys: String, CodingKey {
            case weights, thresholds, classes
            case weightsURL = "weights_url", thresholdsURL = "thresholds_url"
        }
    }

    /// Recomputes every class's point from its confidence on the pick split (the page's numbers
    /// are not trusted), writes `picked/STAMP/thresholds.yaml` and `picked/STAMP/model.slw` in the
    /// run folder through `WeightsFile.writeWithThresholds` (what `weights set-thresholds` runs),
    /// and lists both in the registry as the run's picked-thresholds / picked-weights.
    func saveThresholds(id: String, body: Data) async throws -> Response {
        let request: SaveRequest
        do {
            request = try JSONDecoder().decode(SaveRequest.self, from: body)
        } catch {
            throw WorkbenchError.badRequest("the body must be JSON {\"split\": \"val\", \"confidences\": {\"CLASS\": 0.31, …}}: \(error)")
        }
        let details = try await details(id)
        let data = try await pickData(details, query: Query(["split": request.split ?? ""]))
        let classNames = data.pick.report.classes.map(\.name)
        for (name, value) in request.confidences {
            guard classNames.contains(name) else {
                throw WorkbenchError.badRequest("'\(name)' is not a class of this run (\(classNames.joined(separator: ", ")))")
            }
            if let value, !(value.isFinite && (0...1).contains(value)) {
                throw WorkbenchError.badRequest("the confidence of '\(name)' must be a number from 0 to 1, got \(value)")
            }
        }
        let strategy = (request.strategy?.isEmpty == false ? request.strategy! : "manual").prefix(60)
        let folder = try RunFiles.folder(of: details)
        let source = try RunFiles.artifactFile(of: details, kind: "weights", name: details.artifacts.first { $0.kind == "weights" }?.name ?? "model")
        let registry = self.registry
        let answer = try await offload { () -> SaveAnswer in
            var entries: [ThresholdFile.Entry] = []
            for c in data.pick.report.classes {
                guard let confidence = request.confidences[c.name] ?? nil else {
                    entries.append(.init(name: c.name, confidence: nil, precision: nil, recall: nil, f1: nil, fallback: false,
                                         note: "left without a threshold in screenlab serve"))
                    continue
                }
                let curve = data.curve(c, in: data.pick.folder) ?? OperatingCurve(points: [], groundTruthCount: c.groundTruth)
                let p = curve.point(atConfidence: confidence)
                entries.append(.init(name: c.name, confidence: confidence, precision: p.precision, recall: p.recall, f1: p.f1, fallback: false, note: nil))
            }
            let file = ThresholdFile(strategy: String(strategy), iouThreshold: data.pick.report.iouThreshold, pickedOn: data.pick.report.data,
                                     report: data.pick.folder.path, classes: entries)
            let (stamp, target) = try Self.newPickFolder(in: folder)
            let yaml = target.appendingPathComponent("thresholds.yaml"), weights = target.appendingPathComponent("model.slw")
            do {
                try AtomicFile.write(file.yaml(), to: yaml)
                let picked = PickedThresholds(file: yaml.path, dataset: file.pickedOn.dataset, split: file.pickedOn.split, rows: entries.map {
                    .init(className: $0.name, confidence: $0.confidence, precision: $0.precision, recall: $0.recall, f1: $0.f1, fellBack: $0.fallback)
                })
                try WeightsFile.writeWithThresholds(from: source, picked: picked, to: weights, keeping: [yaml])
                try registry.value.recordArtifacts([ArtifactRecord(kind: "picked-weights", name: stamp, path: weights.path),
                                                    ArtifactRecord(kind: "picked-thresholds", name: stamp, path: yaml.path)], runID: id)
            } catch {
                try? FileManager.default.removeItem(at: target)  // nothing half-saved is left behind
                throw WorkbenchError.gone("nothing was saved: \(error)")
            }
            let link = "/runs/\(HTML.urlComponent(id))/files"
            return SaveAnswer(weights: weights.path, thresholds: yaml.path, weightsURL: "\(link)/picked-weights/\(stamp)",
                              thresholdsURL: "\(link)/picked-thresholds/\(stamp)",
                              classes: Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.confidence.map { (e.name, $0) } }))
        }
        return try Self.json(answer)
    }

    /// `picked/20261127-153012` (then `-2`, `-3`, … within one second), created here.
    static func newPickFolder(in runFolder: URL) throws -> (stamp: String, folder: URL) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = formatter.string(from: Date())
        let parent = runFolder.appendingPathComponent("picked")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        for n in 1...100 {
            let stamp = n == 1 ? base : "\(base)-\(n)"
            let folder = parent.appendingPathComponent(stamp)
            // mkdir fails when it exists, so two saves in one second never share a folder.
            if mkdir(folder.path, 0o755) == 0 { return (stamp, folder) }
        }
        throw WorkbenchError.unavailable("could not make a new folder under \(parent.path)")
    }

    // MARK: The page

    func thresholdsPage(id: String, query: Query) async throws -> Response {
        let details = try await details(id)
        let data = try await pickData(details, query: query)
        let e = HTML.escape
        let runLink = "/runs/\(HTML.urlComponent(id))"
        var body = "<p class=\"crumbs\"><a href=\"/\">Runs</a> › <a href=\"\(runLink)\">\(e(details.run.experiment)) \(e(id))</a></p>\n"
        body += "<h1>Pick thresholds <small>on \(e(data.split))\(data.shownSplit.map { ", shown on \(e($0))" } ?? "")</small></h1>\n"
        body += """
        <p class="muted">Each class keeps its detections with confidence ≥ its threshold. Move a point with its slider, the arrow
        keys or a click on the curve; the figures are exact points of the \(e(data.split)) curve and what the same confidence gives on
        \(e(data.shownSplit ?? "no other split")). Save writes a new weights file and thresholds.yaml in the run's folder
        (picked/…); the run's model.slw is not changed.</p>
        <div class="toolbar" id="strategies"><span>Start from:</span>
        <button data-strategy="max-f1">max F1</button>
        <label>precision ≥ <input id="precision-target" type="number" min="0.01" max="1" step="0.01" value="0.90"></label>
        <button data-strategy="precision">apply</button>
        <label>recall ≥ <input id="recall-target" type="number" min="0.01" max="1" step="0.01" value="0.90"></label>
        <button data-strategy="recall">apply</button>
        <button data-strategy="current">the run's current</button>
        <span class="spacer"></span><button id="save" class="primary">Save thresholds into new weights</button></div>
        <p id="save-result" class="muted" aria-live="polite"></p>
        <div id="picker" data-run="\(e(id))" data-split="\(e(data.split))" data-shown="\(e(data.shownSplit ?? ""))" class="cards">Loading curves…</div>

        """
        return Self.html(HTML.page(title: "Thresholds \(id)", body: body))
    }
}

/// A JSON value of any encodable type, for small mixed answers.
struct AnyCodable: Encodable {
    let encode: (Encoder) throws -> Void
    init<T: Encodable>(_ value: T) { encode = value.encode }
    func encode(to encoder: Encoder) throws { try encode(encoder) }
}

/// Parsed curve files by path and modification time: the picker asks for the same curves on
/// load, on every strategy and on Save, and vins-ui's val and test curves are 140k lines.
final class CurveCache: @unchecked Sendable {
    static let shared = CurveCache()
    private let lock = NSLock()
    private var curves: [String: (stamp: Date, curve: OperatingCurve)] = [:]

    func curve(_ url: URL, groundTruthCount: Int) -> OperatingCurve? {
        let stamp = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? .distantPast
        let key = "\(url.path)\u{0}\(groundTruthCount)"
        lock.lock()
        if let hit = curves[key], hit.stamp == stamp { lock.unlock(); return hit.curve }
        lock.unlock()
        guard let curve = try? ReportFiles.readCurveCSV(url, groundTruthCount: groundTruthCount) else { return nil }
        lock.lock()
        if curves.count > 512 { curves.removeAll() }  // a bound, not an LRU: a workbench looks at a few runs at a time
        curves[key] = (stamp, curve)
        lock.unlock()
        return curve
    }
}
