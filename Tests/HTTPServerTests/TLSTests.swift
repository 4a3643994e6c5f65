import COpenSSL
import Foundation
import Glibc
import Testing

@testable import HTTPServer

/// TLS on the server's one port: from the first byte, by HTTP Upgrade, and required (426).
@Suite(.serialized) struct TLSTests {
    @Test func tlsFromTheFirstByteIsServedAndReportedToTheHandler() throws {
        try withTLSServer(handler: transportHandler) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS()
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            let response = try client.response()
            #expect(response.status == 200)
            #expect(response.headers["X-Encrypted"] == "yes")
            #expect(client.tlsVersion == "TLSv1.3")
            try client.send("GET /again HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.response().status == 200)
        }
    }

    @Test func plainHTTPStillWorksOnATLSPort() throws {
        try withTLSServer(handler: transportHandler) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            let response = try client.response()
            #expect(response.status == 200)
            #expect(response.headers["X-Encrypted"] == "no")
        }
    }

    @Test func httpUpgradeSwitchesAndAnswersTheRequestOverTLS() throws {
        try withTLSServer(handler: transportHandler) { server in
            let client = try TestClient(port: server.port)
            try client.send(
                "OPTIONS * HTTP/1.1\r\nHost: h\r\nConnection: upgrade\r\nUpgrade: TLS/1.2,TLS/1.1,TLS/1.0\r\n\r\n")
            let switching = try client.response()
            #expect(switching.status == 101)
            #expect(switching.headers["Upgrade"]?.hasPrefix("TLS/1.2") == true)
            try client.startTLS()
            let response = try client.response()
            #expect(response.status == 200)
            #expect(response.headers["X-Encrypted"] == "yes")
        }
    }

    @Test func upgradeWithoutConnectionUpgradeIsIgnored() throws {
        try withTLSServer(handler: transportHandler) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\nUpgrade: TLS/1.2\r\n\r\n")
            let response = try client.response()
            #expect(response.status == 200)
            #expect(response.headers["X-Encrypted"] == "no")
        }
    }

    @Test func tlsOnlyAnswersPlainRequestsWith426AndStillUpgrades() throws {
        try withTLSServer(requiresTLS: true, handler: transportHandler) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            let refused = try client.response()
            #expect(refused.status == 426)
            #expect(refused.headers["Upgrade"] == "TLS/1.2, HTTP/1.1")
            #expect(refused.headers["Connection"] == "Upgrade")
            try client.send("OPTIONS * HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: TLS/1.2\r\n\r\n")
            #expect(try client.response().status == 101)
            try client.startTLS()
            #expect(try client.response().headers["X-Encrypted"] == "yes")
        }
    }

    @Test func filesAndStreamsGoThroughTLS() throws {
        let path = TLSTestSupport.folder + "/payload.bin"
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(payload)))
        let handler = ClosureHandler { request, _ in
            if request.path == "/file" { return HTTPResponse(status: 200, body: .file(path: path)) }
            return HTTPResponse(
                status: 200,
                body: .stream { stream in
                    for _ in 0..<10 { try stream.write(String(repeating: "x", count: 10_000)) }
                    try stream.flush()
                })
        }
        try withTLSServer(handler: handler) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS()
            try client.send("GET /file HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.response().body == payload)
            try client.send("GET /stream HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.response().body.count == 100_000)
        }
    }

    @Test func largeBodiesArriveWholeOverTLS() throws {
        try withTLSServer { server in
            let client = try TestClient(port: server.port)
            try client.startTLS()
            let body = [UInt8](repeating: 0x41, count: 1_000_000)
            try client.send(
                Array("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            let response = try client.response()
            #expect(response.status == 200)
            #expect(response.body.count == body.count)
        }
    }
}

/// Bad input on a TLS port: each costs only its own connection.
@Suite(.serialized) struct TLSBadInputTests {
    /// A short slow-client time, so that the stalled handshakes below end soon.
    static let shortTimeouts = HTTPServerLimits(idleTimeout: 1, slowClientTimeout: 1)

    private func expectServed(_ server: HTTPServer) throws {
        let client = try TestClient(port: server.port)
        try client.startTLS()
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().status == 200)
    }

    @Test func aHandshakeCutAtEveryByteClosesOnlyThatConnection() throws {
        let hello = TLSTestSupport.clientHello
        #expect(hello.count > 100)
        #expect(hello.prefix(2) == [0x16, 0x03])
        try withTLSServer(limits: Self.shortTimeouts) { server in
            for length in 1..<hello.count {
                let client = try TestClient(port: server.port)
                try client.send(Array(hello.prefix(length)))
                shutdown(client.descriptor, Int32(SHUT_WR))
                #expect(try client.readUntilClosed().count < 10, "cut after \(length) bytes")
            }
            try expectServed(server)
        }
    }

    @Test func garbageInsteadOfAClientHelloIsClosed() throws {
        var random = SystemRandomNumberGenerator()
        try withTLSServer(limits: Self.shortTimeouts) { server in
            for prefix: [UInt8] in [[0x16, 0x03, 0x01], [0x16, 0x03, 0x03, 0xFF, 0xFF], [0x16, 0x07], [0x16]] {
                let client = try TestClient(port: server.port)
                try client.send(prefix + (0..<600).map { _ in UInt8.random(in: 0...255, using: &random) })
                _ = try? client.readUntilClosed()
            }
            try expectServed(server)
        }
    }

    @Test func stalledHandshakesEndAtTheSlowClientLimitWhileOthersAreServed() throws {
        try withTLSServer(limits: Self.shortTimeouts) { server in
            let stalled = try (0..<20).map { _ in try TestClient(port: server.port) }
            for client in stalled { try client.send(Array(TLSTestSupport.clientHello.prefix(40))) }
            try expectServed(server)
            for client in stalled { #expect(try client.isClosed()) }
        }
    }

    @Test func renegotiationIsRefusedAndCostsOnlyThatConnection() throws {
        try withTLSServer(limits: Self.shortTimeouts) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(maximumVersion: TLS1_2_VERSION)
            #expect(client.tlsVersion == "TLSv1.2")
            _ = client.requestRenegotiation()
            try? client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            _ = try? client.readResponse()
            try expectServed(server)
        }
    }

    @Test func manyHandshakesAtOnceAreAllServed() throws {
        try withTLSServer { server in
            let clients = try (0..<100).map { _ in try TestClient(port: server.port) }
            for client in clients { try client.startTLS() }
            for client in clients { try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n") }
            for client in clients { #expect(try client.response().status == 200) }
        }
    }
}
