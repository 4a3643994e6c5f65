import Testing

@testable import HTTPServer

/// Sends `bytes` on a fresh connection and returns the status answered, or nil when closed silently.
private func statusAnswering(bytes: [UInt8], on server: HTTPServer) throws -> Int? {
    let client = try TestClient(port: server.port)
    try client.send(bytes)
    let status = try client.readResponse()?.status
    #expect(try client.isClosed())
    return status
}

private func statusAnswering(_ text: String, on server: HTTPServer) throws -> Int? {
    try statusAnswering(bytes: Array(text.utf8), on: server)
}

@Test(.timeLimit(.minutes(1))) func tlsClientHelloIsClosedWithoutAnswer() throws {
    try withServer { server throws in
        let hello: [UInt8] =
            [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03] + Array(repeating: 0x42, count: 64)
        #expect(try statusAnswering(bytes: hello, on: server) == nil)
    }
}

@Test(.timeLimit(.minutes(1))) func binaryGarbageAfterAMethodGets400() throws {
    try withServer { server throws in
        #expect(try statusAnswering(bytes: [0x47, 0x45, 0x54, 0x00, 0xFF, 0x13, 0x37], on: server) == 400)
    }
}

@Test(.timeLimit(.minutes(1))) func protocolErrorsGetTheirStatus() throws {
    try withServer { server throws in
        #expect(try statusAnswering("GET / HTTP/1.1\r\n\r\n", on: server) == 400)
        #expect(try statusAnswering("GET / HTTP/2.0\r\nHost: h\r\n\r\n", on: server) == 505)
        #expect(try statusAnswering("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", on: server) == 501)
        #expect(try statusAnswering("GET / HTTP/1.1\r\nHost: h\r\nExpect: tea\r\n\r\n", on: server) == 417)
        #expect(try statusAnswering("GET nopath HTTP/1.1\r\nHost: h\r\n\r\n", on: server) == 400)
        #expect(try statusAnswering("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: x\r\n\r\n", on: server) == 400)
    }
}

@Test(.timeLimit(.minutes(1))) func badChunkGets400AndCloses() throws {
    try withServer { server throws in
        let request = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX\r\n0\r\n\r\n"
        #expect(try statusAnswering(request, on: server) == 400)
    }
}

@Test(.timeLimit(.minutes(1))) func peerClosingInTheMiddleOfABodyDoesNotDisturbTheServer() throws {
    try withServer { server throws in
        do {
            let client = try TestClient(port: server.port)
            try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nabc")
        }
        let client = try TestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().status == 200)
    }
}
