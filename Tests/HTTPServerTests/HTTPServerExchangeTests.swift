import Glibc
import Synchronization
import Testing

@testable import HTTPServer

@Test(.timeLimit(.minutes(1))) func answersAndKeepsTheConnectionAlive() throws {
    try withServer { server in
        let client = try TestClient(port: server.port)
        for index in 0..<3 {
            try client.send("POST /ipp/print HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello")
            let response = try client.response()
            #expect(response.status == 200, "request \(index)")
            #expect(response.text == "hello")
            #expect(response.headers["Server"] == "vprinter")
            #expect(response.headers["Date"]?.hasSuffix(" GMT") == true)
            #expect(response.headers["Connection"] == nil)
        }
    }
}

@Test(.timeLimit(.minutes(1))) func pipelinedRequestsAreAnsweredInOrder() throws {
    try withServer { server in
        let client = try TestClient(port: server.port)
        let requests = (1...3).map { "POST /\($0) HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\n\($0)" }
        try client.send(requests.joined())
        for index in 1...3 {
            let response = try client.response()
            #expect(response.headers["X-Path"] == "/\(index)")
            #expect(response.text == "\(index)")
        }
    }
}

@Test(.timeLimit(.minutes(1))) func chunkedBodyIsDecodedAndTheNextRequestFollows() throws {
    try withServer { server in
        let client = try TestClient(port: server.port)
        try client.send(
            "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: x\r\n\r\n"
                + "GET /b HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().text == "Wikipedia")
        #expect(try client.response().headers["X-Path"] == "/b")
    }
}

@Test(.timeLimit(.minutes(1))) func largeBodyIsStreamedIntact() throws {
    try withServer { server in
        let client = try TestClient(port: server.port)
        let body = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.count)\r\n\r\n")
        try client.send(body)
        #expect(try client.response().body == body)
    }
}

@Test(.timeLimit(.minutes(1))) func headRequestGetsTheHeadWithTheLengthOnly() throws {
    let handler = ClosureHandler { _, _ in HTTPResponse(status: 200, text: "twelve bytes") }
    try withServer(handler: handler) { server in
        let client = try TestClient(port: server.port)
        try client.send("HEAD / HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        let head = try client.response(toHead: true)
        #expect(head.headers["Content-Length"] == "12")
        #expect(head.body.isEmpty)
        #expect(try client.response().text == "twelve bytes")
    }
}

@Test(.timeLimit(.minutes(1))) func http10WithoutKeepAliveIsClosedAfterTheResponse() throws {
    try withServer { server in
        let client = try TestClient(port: server.port)
        try client.send("GET /x HTTP/1.0\r\n\r\n")
        let response = try client.response()
        #expect(response.status == 200)
        #expect(response.headers["Connection"] == "close")
        #expect(try client.isClosed())
    }
}

@Test(.timeLimit(.minutes(1))) func connectionCloseIsHonoured() throws {
    try withServer { server in
        let client = try TestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try client.response().headers["Connection"] == "close")
        #expect(try client.isClosed())
    }
}

@Test(.timeLimit(.minutes(1))) func requestCarriesConnectionFacts() throws {
    let seen = Mutex<[HTTPRequest]>([])
    let handler = ClosureHandler { request, _ in
        seen.withLock { $0.append(request) }
        return HTTPResponse(status: 204)
    }
    try withServer(handler: handler) { server in
        let client = try TestClient(port: server.port)
        try client.send("GET http://printer:631/api/v1/jobs?printer=a%20b HTTP/1.1\r\nHost: other\r\n\r\n")
        #expect(try client.response().status == 204)
    }
    let request = try #require(seen.withLock { $0.first })
    #expect(request.host == "printer")
    #expect(request.path == "/api/v1/jobs")
    #expect(request.queryValue("printer") == "a b")
    #expect(request.remoteAddress == "127.0.0.1")
    #expect(request.isLoopback)
    #expect(request.localPort != 0)
}

@Test(.timeLimit(.minutes(1))) func streamResponseIsChunkedAndEndsWhenTheClosureReturns() throws {
    let handler = ClosureHandler { _, _ in
        HTTPResponse(
            status: 200, headers: ["Content-Type": "text/event-stream"],
            body: .stream { stream in
                for index in 1...3 {
                    try stream.write("data: \(index)\n\n")
                    try stream.flush()
                }
            })
    }
    try withServer(handler: handler) { server in
        let client = try TestClient(port: server.port)
        try client.send("GET /events HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = try client.response()
        #expect(response.headers["Transfer-Encoding"] == "chunked")
        #expect(response.text == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
        try client.send("GET /events HTTP/1.0\r\n\r\n")
        let old = try client.response()
        #expect(old.headers["Transfer-Encoding"] == nil)
        #expect(old.text == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
    }
}

@Test(.timeLimit(.minutes(1))) func fileResponseSendsTheFileOr404() throws {
    let path = "/tmp/vprinter-http-test-\(getpid()).txt"
    let contents = String(repeating: "file contents\n", count: 5000)
    // fopen's result is an implicitly unwrapped optional with Debian 12's glibc and an optional with Debian 13's.
    let file = try #require(fopen(path, "w"), "fopen(\(path)) failed: errno \(errno)")
    defer { unlink(path) }
    #expect(fputs(contents, file) >= 0)
    #expect(fclose(file) == 0)
    let handler = ClosureHandler { request, _ in
        HTTPResponse(status: 200, body: .file(path: request.path == "/file" ? path : path + ".missing"))
    }
    try withServer(handler: handler) { server in
        let client = try TestClient(port: server.port)
        try client.send("GET /file HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().text == contents)
        try client.send("GET /missing HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().status == 404)
    }
}

@Test(.timeLimit(.minutes(1))) func http10KeepAliveIsConfirmedAndKept() throws {
    try withServer { server in
        let client = try TestClient(port: server.port)
        for _ in 0..<2 {
            try client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let response = try client.response()
            #expect(response.status == 200)
            #expect(response.headers["Connection"] == "keep-alive")
        }
    }
}

@Test(.timeLimit(.minutes(1))) func clientLeavingDuringALargeFileDoesNotKillTheServer() throws {
    let path = "/tmp/vprinter-http-test-large-\(getpid()).bin"
    let file = try #require(fopen(path, "w"), "fopen(\(path)) failed: errno \(errno)")
    defer { unlink(path) }
    let block = [UInt8](repeating: 0x55, count: 1 << 20)
    for _ in 0..<16 { #expect(block.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == block.count) }
    #expect(fclose(file) == 0)
    let handler = ClosureHandler { _, _ in HTTPResponse(status: 200, body: .file(path: path)) }
    // The default action of SIGPIPE terminates the process; the server must set it aside itself.
    signal(SIGPIPE, SIG_DFL)
    try withServer(handler: handler) { server in
        for _ in 0..<20 {
            let leaving = try TestClient(port: server.port)
            try leaving.send("GET /large HTTP/1.1\r\nHost: h\r\n\r\n")
        }
        let client = try TestClient(port: server.port)
        try client.send("GET /large HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().body.count == 16 << 20)
    }
}

@Test(.timeLimit(.minutes(1))) func twoHundredFiftySixSimultaneousConnectionsAreAllAnswered() throws {
    try withServer { server in
        let clients = try (0..<256).map { _ in try TestClient(port: server.port) }
        for (index, client) in clients.enumerated() {
            try client.send("POST /\(index) HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nok")
        }
        let paths = try clients.map { try $0.response().headers["X-Path"] }
        #expect(paths == (0..<256).map { "/\($0)" })
    }
}
