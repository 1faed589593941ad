import Data
import Evaluation
import Foundation
import Hummingbird
import Imaging
import Registry

/// `/runs/ID/examples?split=S&truth=T&predicted=P` (a confusion cell) or `&class=C` (every error
/// of a class: its missed boxes, its false detections and its confusions both ways): the screens
/// behind them, worst first, each drawn with exactly those boxes (`/runs/ID/screens/N.png`).
extension Workbench {
    /// Which confusion entries a page shows, parsed from the query against the report's labels.
    struct ExampleSelection {
        var split: String
        var truth: Int?
        var predicted: Int?
        var classIndex: Int?
        let background: Int

        init(query: Query, labels: [String], split: String) throws {
            self.split = split
            background = labels.count - 1
            func index(_ key: String) throws -> Int? {
                guard let name = query[key] else { return nil }
                guard let i = labels.firstIndex(of: name) else {
                    throw WorkbenchError.notFound("no class '\(name)' in this report (\(key)=); it has \(labels.joined(separator: ", "))")
                }
                return i
            }
            truth = try index("truth")
            predicted = try index("predicted")
            classIndex = try index("class")
            guard (truth != nil && predicted != nil) != (classIndex != nil) else {
                throw WorkbenchError.badRequest("name a confusion cell (truth=CLASS&predicted=CLASS) or a class (class=CLASS), not both or neither")
            }
            if let classIndex, classIndex == background {
                throw WorkbenchError.badRequest("class=background has no errors of its own: open a cell of the background row or column")
            }
        }

        func keeps(_ entry: ConfusionEntry) -> Bool {
            if let classIndex {
                return entry.trueClass != entry.predictedClass && (entry.trueClass == classIndex || entry.predictedClass == classIndex)
            }
            return entry.trueClass == truth && entry.predictedClass == predicted
        }

        /// The query that selects the same entries, for the pictures' URLs.
        func query(labels: [String]) -> String {
            var parts = ["split=\(HTML.urlComponent(split))"]
            if let classIndex { parts.append("class=\(HTML.urlComponent(labels[classIndex]))") }
            if let truth, let predicted {
                parts.append("truth=\(HTML.urlComponent(labels[truth]))")
                parts.append("predicted=\(HTML.urlComponent(labels[predicted]))")
            }
            return parts.joined(separator: "&amp;")
        }

        func title(labels: [String]) -> String {
            if let classIndex { return "Errors of \(labels[classIndex])" }
            guard let truth, let predicted else { return "" }
            if truth == background { return "\(labels[predicted]) detected where there is no element" }
            if predicted == background { return "\(labels[truth]) boxes missed" }
            if truth == predicted { return "\(labels[truth]) found" }
            return "\(labels[truth]) detected as \(labels[predicted])"
        }
    }

    static let screensPerPage = 12

    func selection(_ details: RunResults, query: Query) async throws -> (SplitEvaluation, ExampleSelection) {
        let split = query["split"] ?? RunFiles.reportSplits(of: details).first ?? "test"
        let evaluation = try await cache.evaluation(run: details, split: split, registryFile: registryFile)
        let labels = evaluation.dataset.classes + ["background"]
        return (evaluation, try ExampleSelection(query: query, labels: labels, split: split))
    }

    func examplesPage(id: String, query: Query) async throws -> Response {
        let details = try await details(id)
        let (evaluation, selection) = try await selection(details, query: query)
        let labels = evaluation.dataset.classes + ["background"]
        let screens = evaluation.screens(matching: selection.keeps)
        let total = screens.reduce(0) { $0 + $1.entries.count }
        let pages = max(1, (screens.count + Self.screensPerPage - 1) / Self.screensPerPage)
        guard let page = Int(query["page"] ?? "1"), (1...pages).contains(page) else {
            throw WorkbenchError.badRequest("page must be a number from 1 to \(pages)")
        }
        let e = HTML.escape
        let runLink = "/runs/\(HTML.urlComponent(id))"
        let select = selection.query(labels: labels)
        var body = "<p class=\"crumbs\"><a href=\"/\">Runs</a> › <a href=\"\(runLink)?split=\(HTML.urlComponent(selection.split))\">\(e(details.run.experiment)) \(e(id))</a></p>\n"
        body += "<h1>\(e(selection.title(labels: labels))) <small>on \(e(selection.split))</small></h1>\n"
        body += "<p class=\"muted\" id=\"examples-summary\" data-entries=\"\(total)\" data-screens=\"\(screens.count)\">\(total) boxes and detections on "
            + "\(screens.count) of \(evaluation.dataset.samples.count) screens, at each class's threshold in the report; worst screens first. "
            + "Blue: a true box (its class); red: a detection on no element; purple: a detection of another class; green: a hit.</p>\n"
        if screens.isEmpty { body += "<p>Nothing here.</p>\n" }
        let shown = screens.dropFirst((page - 1) * Self.screensPerPage).prefix(Self.screensPerPage)
        body += "<div class=\"screens\">\n"
        for screen in shown {
            let sample = evaluation.dataset.samples[screen.imageIndex]
            body += "<figure class=\"screen\" data-screen=\"\(e(sample.id))\" data-count=\"\(screen.entries.count)\">"
                + "<img loading=\"lazy\" alt=\"\(e(sample.id))\" src=\"\(runLink)/screens/\(screen.imageIndex).png?\(select)\">"
                + "<figcaption>\(e(sample.id)) · \(screen.entries.count)</figcaption></figure>\n"
        }
        body += "</div>\n"
        if pages > 1 {
            body += "<p class=\"pager\">" + (1...pages).map { p in
                p == page ? "<strong>\(p)</strong>" : "<a href=\"\(runLink)/examples?\(select)&amp;page=\(p)\">\(p)</a>"
            }.joined(separator: " ") + "</p>\n"
        }
        return Self.html(HTML.page(title: selection.title(labels: labels), body: body))
    }

    /// One screen with the selected entries drawn (PNG, at most 900 pixels high).
    func screenPicture(id: String, screen: String, query: Query) async throws -> Response {
        let details = try await details(id)
        let (evaluation, selection) = try await selection(details, query: query)
        let number = screen.hasSuffix(".png") ? String(screen.dropLast(4)) : screen
        guard let index = Int(number), evaluation.dataset.samples.indices.contains(index) else {
            throw WorkbenchError.notFound("no screen \(screen) in \(selection.split) (\(evaluation.dataset.samples.count) screens)")
        }
        let entries = evaluation.entries.filter { $0.imageIndex == index && selection.keeps($0) }
        let data = try await offload { () -> Data in
            let dataset = evaluation.dataset
            let sample = dataset.samples[index]
            let image: RGBImage
            do {
                image = try ImageIO.read(dataset.imageURL(of: sample))
            } catch {
                throw WorkbenchError.gone("the screenshot of \(sample.id) cannot be read: \(error)")
            }
            let height = min(900, image.height)
            let scale = Double(height) / Double(max(image.height, 1))
            var canvas = image.resized(width: max(1, Int((Double(image.width) * scale).rounded())), height: height)
            let labels = dataset.classes
            var boxes: [OverlayBox] = []
            for entry in entries {
                if let truth = entry.truth {
                    boxes.append((truth.x * scale, truth.y * scale, truth.width * scale, truth.height * scale, labels[entry.trueClass], 2))
                }
                if let detection = entry.detection {
                    let color = entry.trueClass == entry.predictedClass ? 1 : entry.truth == nil ? 0 : 4
                    let b = detection.box
                    boxes.append((b.x * scale, b.y * scale, b.width * scale, b.height * scale,
                                  "\(labels[entry.predictedClass]) \(String(format: "%.2f", detection.score))", color))
                }
            }
            drawBoxes(boxes, on: &canvas, lineWidth: 2)
            return try ImageIO.encodePNG(canvas, fast: true)
        }
        return Self.bytes(data, type: "image/png")
    }
}
