import Glibc
import Synchronization
import Testing

@testable import HTTPServer

/// Where the printer may fetch a document from (issue: Print-URI read the printer's own API on 127.0.0.1): every
/// decision of `FetchPolicy` on resolved addresses, with no packet sent to an address it refuses.
@Suite(.timeLimit(.minutes(1))) struct FetchPolicyTests {
    static let wildcard = [ListeningSockets.Endpoint(address: "::", port: 8631)]
    static let loopbackOnly = [ListeningSockets.Endpoint(address: "127.0.0.1", port: 8631)]

    func address(_ text: String, _ port: UInt16) throws -> SocketAddress {
        try SocketAddress(numeric: text, port: port)
    }

    func reason(_ policy: FetchPolicy, _ text: String, _ port: UInt16, host: String? = nil) throws
        -> FetchRefusal.Reason?
    {
        policy.check(host: host ?? text, address: try address(text, port))?.reason
    }

    @Test func rulesParseHostsPortsNetworksAndAnything() {
        for good in [
            "docs.example", "docs.example:8080", "127.0.0.1", "127.0.0.1:8000", "[::1]:8000", "::1",
            "10.0.0.0/8", "fd00::/8", "0.0.0.0/0", "*",
        ] {
            #expect(FetchRule(good) != nil, "\(good)")
        }
        for bad in [
            "", "a b", "10.0.0.0/33", "fd00::/129", "[::1", "[::1]x", "host:0", "host:99999", "ho/st",
            "user@host", "host:\r\n", String(repeating: "a", count: FetchRule.maximumLength + 1),
        ] {
            #expect(FetchRule(bad) == nil, "\(bad)")
        }
    }

    @Test func ownListenersAreNeverFetchedEvenWhenAllowed() throws {
        let policy = FetchPolicy(allowed: [FetchRule("*")!], listeners: Self.wildcard)
        #expect(try reason(policy, "127.0.0.1", 8631) == .ownListener)
        #expect(try reason(policy, "::1", 8631) == .ownListener)
        #expect(try reason(policy, "::ffff:127.0.0.1", 8631) == .ownListener, "IPv4-mapped")
        let exact = FetchPolicy(allowed: [FetchRule("*")!], listeners: Self.loopbackOnly)
        #expect(try reason(exact, "127.0.0.1", 8631) == .ownListener)
        #expect(try reason(exact, "127.0.0.2", 8631) == nil, "a listener on 127.0.0.1 does not take 127.0.0.2")
    }

    @Test func unspecifiedLinkLocalMulticastAndBroadcastAreNeverFetched() throws {
        let policy = FetchPolicy(allowed: [FetchRule("*")!], listeners: Self.loopbackOnly)
        let cases: [(String, AddressScope)] = [
            ("0.0.0.0", .unspecified), ("::", .unspecified), ("169.254.169.254", .linkLocal),
            ("fe80::1", .linkLocal), ("224.0.0.251", .multicast), ("ff02::fb", .multicast),
            ("255.255.255.255", .broadcast), ("::ffff:169.254.169.254", .linkLocal),
        ]
        for (text, scope) in cases {
            #expect(try reason(policy, text, 80) == .scope(scope), "\(text)")
        }
    }

    /// Loopback is fetched while every listener is on loopback (the pytest fixture's case: a document server on
    /// 127.0.0.1 and a `--listen 127.0.0.1` printer), refused once one listens beyond it.
    @Test func loopbackOnlyWhileListeningOnLoopbackAlone() throws {
        #expect(try reason(FetchPolicy(listeners: Self.loopbackOnly), "127.0.0.1", 9000) == nil)
        #expect(try reason(FetchPolicy(listeners: []), "127.0.0.1", 9000) == nil)
        let beyond = FetchPolicy(listeners: Self.wildcard)
        #expect(try reason(beyond, "127.0.0.1", 9000) == .loopbackWhileListeningBeyondIt)
        #expect(try reason(beyond, "::1", 9000) == .loopbackWhileListeningBeyondIt)
        #expect(try reason(beyond, "127.0.0.1", 9000, host: "localhost") == .loopbackWhileListeningBeyondIt)
        let allowed = FetchPolicy(allowed: [FetchRule("127.0.0.1:9000")!], listeners: Self.wildcard)
        #expect(try reason(allowed, "127.0.0.1", 9000) == nil)
        #expect(try reason(allowed, "127.0.0.1", 9001) == .loopbackWhileListeningBeyondIt, "another port")
        let byName = FetchPolicy(allowed: [FetchRule("localhost")!], listeners: Self.wildcard)
        #expect(try reason(byName, "127.0.0.1", 9000, host: "localhost") == nil)
        #expect(try reason(FetchPolicy(allowsLoopback: true, listeners: Self.wildcard), "127.0.0.1", 9000) == nil)
    }

    @Test func anAllowRuleWinsOverADenyRuleAndDenyRefusesTheRest() throws {
        let policy = FetchPolicy(
            allowed: [FetchRule("10.1.2.3")!], denied: [FetchRule("10.0.0.0/8")!, FetchRule("fd00::/8")!],
            listeners: Self.wildcard)
        #expect(try reason(policy, "10.1.2.3", 80) == nil)
        #expect(try reason(policy, "10.9.9.9", 80) == .denied(rule: "10.0.0.0/8"))
        #expect(try reason(policy, "fd12::5", 80) == .denied(rule: "fd00::/8"))
        #expect(try reason(policy, "192.0.2.7", 80) == nil, "a network address no rule names")
        let denyAll = FetchPolicy(allowed: [FetchRule("docs.example")!], denied: [FetchRule("*")!])
        #expect(try reason(denyAll, "192.0.2.7", 443, host: "docs.example") == nil)
        #expect(try reason(denyAll, "192.0.2.8", 443, host: "other.example") == .denied(rule: "*"))
    }

    @Test func aRefusalNamesTheAddressTheRuleAndTheOption() throws {
        let refusal = FetchPolicy(listeners: Self.wildcard).check(host: "localhost", address: try address("::1", 9000))
        let text = try #require(refusal).description
        #expect(text.contains("localhost (::1 port 9000)"))
        #expect(text.contains("--fetch-allow [::1]:9000"))
    }

    /// The name is resolved, and each address checked before a socket is made for it: a server on loopback that
    /// the policy refuses sees no connection.
    @Test func aRefusedNameIsRefusedBeforeAnyConnection() throws {
        let hits = Mutex(0)
        let handler = ClosureHandler { _, _ in
            hits.withLock { $0 += 1 }
            return HTTPResponse(status: 200, body: .bytes(Array("document".utf8)))
        }
        try withServer(handler: handler) { server in
            let policy = FetchPolicy(listeners: Self.wildcard)
            let limits = DocumentDownload.Limits(maximumBytes: 1 << 20, timeout: 10, maximumRedirects: 5)
            let outcome = DocumentDownload.fetch("http://localhost:\(server.port)/doc", limits: limits, policy: policy)
            {
                _ in true
            }
            guard case .failure(.refused(let refusal)) = outcome else {
                Issue.record("expected a refusal, got \(outcome)")
                return
            }
            #expect(refusal.reason == .loopbackWhileListeningBeyondIt)
            #expect(hits.withLock { $0 } == 0)
            // The process's own listeners, as the printer's policy sees them: the test server is one.
            let own = DocumentDownload.fetch("http://127.0.0.1:\(server.port)/doc", limits: limits, policy: .standard) {
                _ in true
            }
            #expect(
                own
                    == .failure(
                        .refused(
                            FetchRefusal(
                                host: "127.0.0.1", address: "127.0.0.1", port: server.port, reason: .ownListener))))
            #expect(hits.withLock { $0 } == 0)
        }
    }

    /// A redirect to a refused destination is refused as the first URL would be.
    @Test func aRedirectIsCheckedAsTheFirstRequestIs() throws {
        try withServer(
            handler: ClosureHandler { request, _ in
                HTTPResponse(status: 302, headers: ["Location": "http://169.254.169.254/latest/meta-data/"])
            }
        ) { server in
            let limits = DocumentDownload.Limits(maximumBytes: 1 << 20, timeout: 10, maximumRedirects: 5)
            let outcome = DocumentDownload.fetch(
                "http://127.0.0.1:\(server.port)/", limits: limits, policy: FetchPolicy(listeners: [])
            ) { _ in true }
            guard case .failure(.refused(let refusal)) = outcome else {
                Issue.record("expected a refusal, got \(outcome)")
                return
            }
            #expect(refusal.reason == .scope(.linkLocal))
        }
    }

    /// A URL whose text could end the request line (CR, LF, space) is never sent: the server sees nothing.
    @Test func aURLThatWouldSplitTheRequestLineIsNotSent() throws {
        let hits = Mutex(0)
        try withServer(
            handler: ClosureHandler { _, _ in
                hits.withLock { $0 += 1 }
                return HTTPResponse(status: 200)
            }
        ) { server in
            let limits = DocumentDownload.Limits(maximumBytes: 1 << 20, timeout: 10, maximumRedirects: 5)
            let smuggled = "http://127.0.0.1:\(server.port)/livez HTTP/1.1\r\nHost: x\r\n\r\nDELETE /api/v1/jobs"
            let outcome = DocumentDownload.fetch(smuggled, limits: limits, policy: FetchPolicy(listeners: [])) { _ in
                true
            }
            #expect(outcome == .failure(.badURL(smuggled)))
            #expect(hits.withLock { $0 } == 0)
        }
    }

    /// A connect that gets no answer gives up at the deadline: a listener whose queue is full drops the SYN, as
    /// a blackholed address would (loopback only; no packet leaves the machine).
    @Test func aConnectWithoutAnAnswerEndsAtTheDeadline() throws {
        let listener = try Listener.open(address: "127.0.0.1", port: 0, dualStack: false, backlog: 0)
        defer { listener.close() }
        var fillers: [Int32] = []
        defer { fillers.forEach { Syscall.close($0) } }
        for _ in 0..<4 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let address = try SocketAddress(numeric: "127.0.0.1", port: listener.port)
            _ = address.withSockaddr { Glibc.connect(descriptor, $0, $1) }
            fillers.append(descriptor)
        }
        Syscall.sleep(for: .milliseconds(200))
        let deadline = ContinuousClock.now + .seconds(1)
        #expect(throws: HTTPServerError.timedOut) {
            _ = try HTTPClient.connect(host: "127.0.0.1", port: listener.port, deadline: deadline)
        }
    }
}
