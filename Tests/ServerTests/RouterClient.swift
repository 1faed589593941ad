import Hummingbird
import Logging
import NIOEmbedded

/// Requests straight into the workbench's router, no socket and no HTTP client: what
/// HummingbirdTesting's `.router` mode does, on Hummingbird's public API. (HummingbirdTesting
/// would bring AsyncHTTPClient, NIOSSL and BoringSSL into the test build: minutes of CI for a
/// live mode these tests do not use; the browser test covers the real socket.)
struct RouterClient: Sendable {
    struct Answer {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
    }

    let responder: RouterResponder<BasicRequestContext>
    let logger = Logger(label: "screenlab.serve.tests")

    init(_ router: Router<BasicRequestContext>) {
        responder = router.buildResponder()
    }

    /// One request through the router, its answer handed to `check`. Errors the handlers throw
    /// become answers as in the server (the router turns HTTPResponseErrors into responses; any
    /// other error is a 500, as Hummingbird's server answers it).
    func execute<Value>(uri: String, method: HTTPRequest.Method, body: ByteBuffer? = nil,
                        _ check: (Answer) async throws -> Value) async throws -> Value {
        var fields = HTTPFields()
        if let body { fields[.contentLength] = String(body.readableBytes) }
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: fields),
                              body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        return try await check(Answer(status: response.status, headers: response.headers, body: collector.buffer))
    }
}

/// Gathers a response body as the server would send it.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ part: ByteBuffer) async throws {
        var part = part
        buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
