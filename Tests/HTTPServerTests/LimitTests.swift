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

@Test(.timeLimit(.minutes(1))) func oneAddressCannotTakeEveryConnection() throws {
    try withServer(limits: HTTPServerLimits(maximumConnections: 4, maximumConnectionsPerAddress: 2)) { server in
        let first = try TestClient(port: server.port)
        let second = try TestClient(port: server.port)
        for client in [first, second] {
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.response().status == 200)
        }
        let third = try TestClient(port: server.port)
        let refused = try third.response()
        #expect(refused.status == 503)
        #expect(String(decoding: refused.body, as: UTF8.self) == "Too many connections from your address\n")
        // Another address still gets in while the first holds its share, and the first gets its place back once
        // one of its connections ends.
        let other = try TestClient(port: server.port, source: "127.0.0.2")
        try other.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try other.response().status == 200)
        try first.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try first.response().status == 200)
        #expect(try first.isClosed())
        var status = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while status != 200 && ContinuousClock.now < deadline {
            let next = try TestClient(port: server.port)
            try? next.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            status = (try? next.response().status) ?? 0
            if status != 200 { Syscall.sleep(for: .milliseconds(50)) }
        }
        #expect(status == 200)
    }
}

@Test func anIPv6ClientCountsByItsSlash64() throws {
    let first = try SocketAddress(numeric: "2001:db8:1:2::1", port: 1).clientKey
    let sameNetwork = try SocketAddress(numeric: "2001:db8:1:2:ffff::9", port: 2).clientKey
    let otherNetwork = try SocketAddress(numeric: "2001:db8:1:3::1", port: 1).clientKey
    #expect(first == sameNetwork)
    #expect(first != otherNetwork)
    #expect(try SocketAddress(numeric: "::ffff:10.0.0.1", port: 1).clientKey == .ipv4(0x0A00_0001))
    #expect(try SocketAddress(numeric: "10.0.0.1", port: 1).clientKey == .ipv4(0x0A00_0001))
}

@Test(.timeLimit(.minutes(1))) func aBodyPartHeldToTheHeadDeadlineCannotBeTrickled() throws {
    // The handler reads the body by the head's deadline, as the IPP service reads the attributes; the client
    // sends a byte every 50 ms, well within each read's timeout, and still runs out of time as a whole.
    let limits = HTTPServerLimits(idleTimeout: 5, slowClientTimeout: 0.5)
    let handler = ClosureHandler { request, body in
        body.deadline = request.headDeadline
        do {
            _ = try body.readAll(maximum: 1 << 20)
            return HTTPResponse(status: 200)
        } catch {
            return HTTPResponse(status: 500)  // the server answers the read's own error (408) instead
        }
    }
    try withServer(limits: limits, handler: handler) { server in
        let client = try TestClient(port: server.port)
        let started = ContinuousClock.now
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n")
        var closed = false
        for _ in 0..<100 where !closed {
            Syscall.sleep(for: .milliseconds(50))
            closed = (try? client.send("a")) == nil
            if ContinuousClock.now - started > .seconds(1) { break }
        }
        #expect(try client.response().status == 408)
        #expect(ContinuousClock.now - started < .seconds(3))
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
