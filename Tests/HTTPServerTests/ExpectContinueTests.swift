import Testing

@testable import HTTPServer

/// Reads the body only for `/read`; answers 404 from the head otherwise.
private let lazyHandler = ClosureHandler { request, body in
    guard request.path == "/read" else { return HTTPResponse(status: 404, text: "no") }
    let bytes = (try? body.readAll(maximum: 1000)) ?? []
    return HTTPResponse(status: 200, body: .bytes(bytes))
}

@Test(.timeLimit(.minutes(1))) func continueIsSentWhenTheHandlerReads() throws {
    try withServer(handler: lazyHandler) { server in
        let client = try TestClient(port: server.port)
        try client.send("POST /read HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(try client.response().status == 100)
        try client.send("data")
        let response = try client.response()
        #expect(response.status == 200)
        #expect(response.text == "data")
        #expect(response.headers["Connection"] == nil)
    }
}

@Test(.timeLimit(.minutes(1))) func finalAnswerComesWithoutContinueWhenTheHandlerDoesNotRead() throws {
    try withServer(handler: lazyHandler) { server in
        let client = try TestClient(port: server.port)
        try client.send("POST /other HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let response = try client.response()
        #expect(response.status == 404)
        #expect(response.headers["Connection"] == "close")
        #expect(try client.isClosed())
    }
}

@Test(.timeLimit(.minutes(1))) func unreadBodyWithoutExpectationIsDrainedToKeepTheConnection() throws {
    try withServer(handler: lazyHandler) { server in
        let client = try TestClient(port: server.port)
        try client.send(
            "POST /other HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nabcdGET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().status == 404)
        #expect(try client.response().status == 404)
    }
}

@Test(.timeLimit(.minutes(1))) func drainLimitIsCrossedAtOneMoreByte() throws {
    let limits = HTTPServerLimits(maximumDrainBytes: 10)
    try withServer(limits: limits, handler: lazyHandler) { server in
        let kept = try TestClient(port: server.port)
        try kept.send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789")
        #expect(try kept.response().headers["Connection"] == nil)
        let closed = try TestClient(port: server.port)
        try closed.send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n0123456789a")
        #expect(try closed.response().headers["Connection"] == "close")
    }
}

/// Reads the 4 bytes a client sends unasked, then accepts the request only when they are `good`.
private let attributesFirstHandler = ClosureHandler { _, body in
    body.sendsContinueOnRead = false
    var attributes: [UInt8] = []
    while attributes.count < 4, let chunk = try? body.read(maximum: 4 - attributes.count), !chunk.isEmpty {
        attributes += chunk
    }
    guard attributes == Array("good".utf8) else { return HTTPResponse(status: 400, text: "rejected") }
    do {
        try body.sendContinue()
        return HTTPResponse(status: 200, body: .bytes(try body.readAll(maximum: 100)))
    } catch {
        return HTTPResponse(status: 500, text: "\(error)")
    }
}

@Test(.timeLimit(.minutes(1))) func handlerReadsWhatCameUnaskedAndRejectsWithoutContinue() throws {
    try withServer(handler: attributesFirstHandler) { server in
        let client = try TestClient(port: server.port)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 12\r\n\r\nbad!")
        let response = try client.response()
        #expect(response.status == 400)
        #expect(response.headers["Connection"] == "close")
    }
}

@Test(.timeLimit(.minutes(1))) func handlerReadsWhatCameUnaskedThenAsksForTheRest() throws {
    try withServer(handler: attributesFirstHandler) { server in
        let client = try TestClient(port: server.port)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 12\r\n\r\ngood")
        #expect(try client.response().status == 100)
        try client.send("document")
        let response = try client.response()
        #expect(response.status == 200)
        #expect(response.text == "document")
    }
}
