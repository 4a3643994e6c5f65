import Testing

@testable import HTTPServer

/// Short timeouts so that limit tests end quickly; the assertions are about behaviour, not durations.
private let shortTimeouts = HTTPServerLimits(idleTimeout: 0.3, slowClientTimeout: 0.3)

/// Checks that a fresh connection on the same server is still answered.
private func expectServerStillAnswers(_ server: HTTPServer) throws {
    let client = try TestClient(port: server.port)
    try client.send("GET /ok HTTP/1.1\r\nHost: h\r\n\r\n")
    #expect(try client.response().status == 200)
}

@Test(.timeLimit(.minutes(1))) func oversizedHeadGets431AndOthersAreUnaffected() throws {
    let limits = HTTPServerLimits(maximumHeadBytes: 1024)
    try withServer(limits: limits) { server in
        let bystander = try TestClient(port: server.port)
        let client = try TestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 2000) + "\r\n\r\n")
        let response = try client.response()
        #expect(response.status == 431)
        #expect(response.headers["Connection"] == "close")
        #expect(try client.isClosed())
        try bystander.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try bystander.response().status == 200)
    }
}

@Test(.timeLimit(.minutes(1))) func headJustWithinTheLimitIsAnswered() throws {
    let head = "GET / HTTP/1.1\r\nHost: h\r\n\r\n"
    try withServer(limits: HTTPServerLimits(maximumHeadBytes: head.utf8.count)) { server in
        let client = try TestClient(port: server.port)
        try client.send(head)
        #expect(try client.response().status == 200)
    }
}

@Test(.timeLimit(.minutes(1))) func tooManyHeaderFieldsGet431() throws {
    try withServer(limits: HTTPServerLimits(maximumHeaderCount: 5)) { server in
        let client = try TestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\n" + (0..<6).map { "X-\($0): v\r\n" }.joined() + "\r\n")
        #expect(try client.response().status == 431)
        try expectServerStillAnswers(server)
    }
}

@Test(.timeLimit(.minutes(1))) func connectionsBeyondTheLimitGet503() throws {
    try withServer(limits: HTTPServerLimits(maximumConnections: 2)) { server in
        let first = try TestClient(port: server.port)
        let second = try TestClient(port: server.port)
        try first.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        try second.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try first.response().status == 200)
        #expect(try second.response().status == 200)
        let third = try TestClient(port: server.port)
        #expect(try third.response().status == 503)
        try first.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try first.response().status == 200)
    }
}

@Test(.timeLimit(.minutes(1))) func slowHeadGets408AndOthersAreUnaffected() throws {
    try withServer(limits: shortTimeouts) { server in
        let client = try TestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost:")
        let response = try client.response()
        #expect(response.status == 408)
        #expect(try client.isClosed())
        try expectServerStillAnswers(server)
    }
}

@Test(.timeLimit(.minutes(1))) func slowBodyEndsWith408() throws {
    try withServer(limits: shortTimeouts) { server in
        let client = try TestClient(port: server.port)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
        #expect(try client.response().status == 408)
        #expect(try client.isClosed())
    }
}

@Test(.timeLimit(.minutes(1))) func idleConnectionIsClosedSilently() throws {
    try withServer(limits: shortTimeouts) { server in
        let client = try TestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().status == 200)
        #expect(try client.readResponse() == nil)
    }
}

@Test(.timeLimit(.minutes(1))) func declaredBodyTooLargeGets413BeforeTheHandler() throws {
    try withServer(limits: HTTPServerLimits(maximumBodyBytes: 4)) { server in
        let client = try TestClient(port: server.port)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nabcd")
        #expect(try client.response().status == 200)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nabcde")
        #expect(try client.response().status == 413)
    }
}

@Test(.timeLimit(.minutes(1))) func chunkedBodyTooLargeGets413() throws {
    try withServer(limits: HTTPServerLimits(maximumBodyBytes: 4)) { server in
        let client = try TestClient(port: server.port)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n")
        #expect(try client.response().status == 413)
        #expect(try client.isClosed())
    }
}

@Test(.timeLimit(.minutes(1))) func partialHeadBehindAPipelinedRequestGets408() throws {
    try withServer(limits: HTTPServerLimits(idleTimeout: 60, slowClientTimeout: 0.3)) { server in
        let client = try TestClient(port: server.port)
        try client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHo")
        #expect(try client.response().status == 200)
        #expect(try client.response().status == 408)
    }
}
