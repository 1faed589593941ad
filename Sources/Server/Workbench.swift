import Foundation
import Hummingbird
import Registry
import Support

/// `screenlab serve`: the run registry and its runs' files as a local web app. Pages are
/// rendered here from the same library calls the commands use (`RunComparison` for compare,
/// `WeightsFile.writeWithThresholds` for Save); the browser gets HTML, SVG and a small script.
///
/// Routes — pages: `/` (runs), `/runs/ID` (a run), `/runs/ID/examples?split=S&truth=T&predicted=P`
/// or `&class=C` (the screens behind a confusion cell or a class), `/runs/ID/thresholds` (pick
/// and save), `/compare?runs=A,B`; files: `/runs/ID/screens/N.png?…` (one screen drawn),
/// `/runs/ID/files/KIND/NAME` (a file the registry lists for the run); JSON: `/api/runs`,
/// `/api/runs/ID/curves?split=val&shown=test`, `/api/runs/ID/strategy?strategy=…`, POST
/// `/api/runs/ID/thresholds`.
public struct Workbench: Sendable {
    public let registryFile: URL
    let registry: RegistryHandle
    let cache = SplitEvaluationCache()

    /// Opens the registry once (WAL: a training process keeps writing while pages read it).
    public init(registryFile: URL) throws {
        self.registryFile = registryFile
        registry = RegistryHandle(try RunRegistry(file: registryFile, busyTimeout: 2))
    }

    /// The router with every route; `Application(router:)` serves it, tests drive it in process.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in await self.respond { try await self.runsPage() } }
        router.get("/assets/workbench.css") { _, _ in Self.asset(WorkbenchAssets.css, type: "text/css; charset=utf-8") }
        router.get("/assets/workbench.js") { _, _ in Self.asset(WorkbenchAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/runs/:id") { request, context in
            await self.respond { try await self.runPage(id: try context.parameters.require("id"), query: Query(request)) }
        }
        router.get("/runs/:id/examples") { request, context in
            await self.respond { try await self.examplesPage(id: try context.parameters.require("id"), query: Query(request)) }
        }
        router.get("/runs/:id/screens/:screen") { request, context in
            await self.respond { try await self.screenPicture(id: try context.parameters.require("id"), screen: try context.parameters.require("screen"),
                                                                  query: Query(request)) }
        }
        router.get("/runs/:id/thresholds") { request, context in
            await self.respond { try await self.thresholdsPage(id: try context.parameters.require("id"), query: Query(request)) }
        }
        router.get("/runs/:id/files/:kind/:name") { _, context in
            await self.respond { try await self.download(id: try context.parameters.require("id"), kind: try context.parameters.require("kind"),
                                                             name: try context.parameters.require("name")) }
        }
        router.get("/compare") { request, _ in await self.respond { try await self.comparePage(query: Query(request)) } }
        router.get("/api/runs") { _, _ in await self.respond(json: true) { try await self.runsJSON() } }
        router.get("/api/runs/:id/curves") { request, context in
            await self.respond(json: true) { try await self.curvesJSON(id: try context.parameters.require("id"), query: Query(request)) }
        }
        router.get("/api/runs/:id/strategy") { request, context in
            await self.respond(json: true) { try await self.strategyJSON(id: try context.parameters.require("id"), query: Query(request)) }
        }
        router.post("/api/runs/:id/thresholds") { request, context in
            var request = request
            let id = try context.parameters.require("id")
            return await self.respond(json: true) {
                let body: ByteBuffer
                do {
                    body = try await request.collectBody(upTo: Self.maximumBodyBytes)
                } catch {
                    throw WorkbenchError.badRequest("the request body is over \(Self.maximumBodyBytes / 1024) KiB: send one confidence per class")
                }
                return try await self.saveThresholds(id: id, body: Data(buffer: body))
            }
        }
        return router
    }

    /// A Save names one confidence per class: a few KiB at most.
    static let maximumBodyBytes = 256 * 1024

    /// Serves until the process is stopped (Ctrl-C), calling `ready` with the bound address.
    public func serve(host: String, port: Int, ready: @escaping @Sendable (String) -> Void) async throws {
        let app = Application(router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "ScreenLab"),
                              onServerRunning: { channel in
                                  let bound = channel.localAddress?.port ?? port
                                  ready("http://\(host.contains(":") ? "[\(host)]" : host):\(bound)/")
                              })
        try await app.runService()
    }

    // MARK: Responses

    /// A page or JSON answer; every error becomes its status and a sentence (an HTML page or
    /// `{"error": …}`), never a stack trace.
    func respond(json: Bool = false, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            let problem = WorkbenchError.from(error)
            let status = HTTPResponse.Status(code: problem.status)
            if json {
                let text = "{\"error\":" + JSONWriter.quoted(problem.description) + "}"
                return Self.text(text, type: "application/json; charset=utf-8", status: status)
            }
            let page = HTML.page(title: "Error \(problem.status)", body: "<h1>\(problem.status) \(HTML.escape(status.reasonPhrase))</h1>\n"
                                 + "<p class=\"error\" data-error=\"\(problem.status)\">\(HTML.escape(problem.description))</p>\n<p><a href=\"/\">All runs</a></p>",
                                 script: false)
            return Self.text(page, type: "text/html; charset=utf-8", status: status)
        }
    }

    static func text(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func html(_ page: String) -> Response { text(page, type: "text/html; charset=utf-8") }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=300"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func bytes(_ data: Data, type: String, fileName: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: "no-store"]
        if let fileName { headers[.contentDisposition] = "attachment; filename=\"\(fileName.replacingOccurrences(of: "\"", with: ""))\"" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json<T: Encodable>(_ value: T) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return text(String(decoding: try encoder.encode(value), as: UTF8.self), type: "application/json; charset=utf-8")
    }

    // MARK: Registry access

    /// One run's rows, read off the cooperative threads.
    func details(_ id: String) async throws -> RunResults {
        guard Self.isRunID(id) else { throw WorkbenchError.notFound("no run '\(id)': run ids are letters, digits, '-', '_' and '.'") }
        let registry = self.registry
        return try await offload { try registry.value.details(id) }
    }

    /// Run ids as the trainer makes them (20261127-140849-31892) or an import names them; checked
    /// before the database sees them so a URL cannot smuggle anything else in.
    static func isRunID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 200 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}

/// `RunRegistry` wraps a GRDB `DatabasePool`, which is safe to share between threads.
final class RegistryHandle: @unchecked Sendable {
    let value: RunRegistry
    init(_ value: RunRegistry) { self.value = value }
}

/// A request's query string, decoded.
struct Query: Sendable {
    let values: [String: String]

    init(_ request: Request) {
        var values: [String: String] = [:]
        for (key, value) in request.uri.queryParameters {
            let k = String(key).removingPercentEncoding ?? String(key)
            values[k] = String(value)  // Hummingbird has percent-decoded values (not keys); '+' stays '+' (pages encode spaces as %20)
        }
        self.values = values
    }

    init(_ values: [String: String]) { self.values = values }

    subscript(key: String) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }
}
