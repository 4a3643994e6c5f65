@testable import HTTPServer

/// A handler made of a closure, so that each test says what the server does.
struct ClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest, inout HTTPRequestBody) -> HTTPResponse

    func handle(_ request: HTTPRequest, body: inout HTTPRequestBody) -> HTTPResponse {
        self.body(request, &body)
    }
}

/// Answers with the method, path and the whole body read back.
let echoHandler = ClosureHandler { request, body in
    do {
        let bytes = try body.readAll(maximum: 1 << 24)
        return HTTPResponse(
            status: 200, headers: ["X-Method": request.method, "X-Path": request.path], body: .bytes(bytes))
    } catch {
        return HTTPResponse(status: 500, text: "\(error)")
    }
}

/// Runs `body` with a started server on a free port of the loopback addresses, then stops it.
func withServer(
    addresses: [String] = ["127.0.0.1"],
    limits: HTTPServerLimits = .default,
    handler: some HTTPHandler = echoHandler,
    _ body: (HTTPServer) throws -> Void
) throws {
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(addresses: addresses, port: 0, limits: limits), handler: handler)
    try server.start()
    defer { server.stop() }
    try body(server)
}
