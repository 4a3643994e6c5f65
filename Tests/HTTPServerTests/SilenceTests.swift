import Glibc
import Synchronization
import Testing

@testable import HTTPServer

/// A silent answer (`HTTPResponse.Abort.silence`), as a switched-off printer on a shared port gives: not a byte,
/// the connection held open until the client gives up or the silence ends.
@Suite(.timeLimit(.minutes(1))) struct SilenceTests {
    /// Set from the test, read by the handler's `silenceEnds`.
    final class Switch: Sendable {
        let on = Atomic<Bool>(false)
    }

    static func silentHandler(endsWhen ended: Switch? = nil) -> ClosureHandler {
        ClosureHandler { _, _ in
            var response = HTTPResponse(status: 503)
            response.abort = .silence
            if let ended { response.silenceEnds = { ended.on.load(ordering: .acquiring) } }
            return response
        }
    }

    static let request = "POST /ipp/print HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"

    /// Whether `descriptor` has bytes (or an end of stream) to read within `milliseconds`.
    static func readable(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, milliseconds) > 0
    }

    /// Waits up to `seconds` for `condition`.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            Syscall.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    @Test func noByteComesBackAndTheConnectionEndsWhenTheClientLeaves() throws {
        try withServer(handler: Self.silentHandler()) { server in
            do {
                let client = try TestClient(port: server.port)
                try client.send(Self.request)
                #expect(!Self.readable(client.descriptor, within: 1500), "a silent server sent something or closed")
                #expect(server.activeConnections == 1)
            }  // the client gives up: its socket closes
            #expect(Self.eventually(3) { server.activeConnections == 0 }, "the silent connection outlived its client")
        }
    }

    @Test func theConnectionClosesWithoutAByteOnceTheSilenceEnds() throws {
        let ended = Switch()
        try withServer(handler: Self.silentHandler(endsWhen: ended)) { server in
            let client = try TestClient(port: server.port)
            try client.send(Self.request)
            #expect(!Self.readable(client.descriptor, within: 500))
            ended.on.store(true, ordering: .releasing)
            let checks = HTTPServerLimits.silenceCheckInterval.components.seconds
            #expect(Self.readable(client.descriptor, within: Int32(checks * 1000 + 2000)))
            #expect(try client.readUntilClosed().isEmpty)
        }
    }

    @Test func stoppingTheServerEndsASilence() throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(addresses: ["127.0.0.1"], port: 0),
            handler: Self.silentHandler())
        try server.start()
        // The silence first: a connection the server could not start a thread for is refused at once (503), which
        // a machine loaded by the other suites sometimes does; that client tries again, as a real one would.
        var silent: TestClient?
        for _ in 0..<Self.attemptsToBeSilent {
            let client = try TestClient(port: server.port)
            try client.send(Self.request)
            if !Self.readable(client.descriptor, within: 500) {
                silent = client
                break
            }
            let refused = try client.readUntilClosed()
            #expect(String(decoding: refused, as: UTF8.self).hasPrefix("HTTP/1.1 503"), "not silent, nor refused")
        }
        let client = try #require(silent, "no connection was served in silence")
        #expect(server.activeConnections == 1)
        server.stop()
        let after = try client.readUntilClosed()
        #expect(after.isEmpty, "the server sent \(String(decoding: after, as: UTF8.self))")
    }

    /// Connections tried until one is served in silence rather than refused.
    static let attemptsToBeSilent = 5
}
