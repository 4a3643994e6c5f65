import Testing

@testable import HTTPServer

@Test func originFormIsSplitAndDecoded() throws {
    let target = try RequestTarget.parse("/api/v1/jobs%2F3?printer=My+Printer&x=%41&flag", method: "GET")
    #expect(target.path == "/api/v1/jobs/3")
    #expect(target.query.map(\.name) == ["printer", "x", "flag"])
    #expect(target.query.map(\.value) == ["My Printer", "A", ""])
    #expect(target.host == nil)
}

@Test func absoluteFormGivesHostAndPath() throws {
    let target = try RequestTarget.parse("http://printer.local:631/ipp/print?a=b", method: "POST")
    #expect(target.host == "printer.local")
    #expect(target.path == "/ipp/print")
    #expect(try RequestTarget.parse("HTTP://[::1]:8631", method: "GET").host == "[::1]")
    #expect(try RequestTarget.parse("http://h", method: "GET").path == "/")
}

@Test func malformedTargetsAreRejected() throws {
    for bad in ["ipp/print", "ftp://h/x", "/a%2", "/a%zz", "/nul%00", "http://[::1/x", "http://h:12a/"] {
        #expect(throws: HTTPServerError.self, "\(bad)") { try RequestTarget.parse(bad, method: "GET") }
    }
    #expect(throws: HTTPServerError.self) { try RequestTarget.parse("*", method: "GET") }
    #expect(try RequestTarget.parse("*", method: "OPTIONS").path == "*")
}

@Test func hostLosesItsPortButKeepsIPv6Brackets() throws {
    #expect(try RequestTarget.hostWithoutPort("localhost:631") == "localhost")
    #expect(try RequestTarget.hostWithoutPort("[fe80::1]:631") == "[fe80::1]")
    #expect(try RequestTarget.hostWithoutPort("10.0.0.1") == "10.0.0.1")
    #expect(try RequestTarget.hostWithoutPort("") == nil)
}

@Test func theHostsPortIsKeptForTheURIsOfAnAnswer() throws {
    #expect(try RequestTarget.hostAndPort("printer.local:18000")! == ("printer.local", 18000))
    #expect(try RequestTarget.hostAndPort("[fe80::1]:631")! == ("[fe80::1]", 631))
    #expect(try RequestTarget.hostAndPort("printer.local")! == ("printer.local", nil))
    #expect(try RequestTarget.hostAndPort("printer.local:")! == ("printer.local", nil))
    #expect(try RequestTarget.parse("http://h:8631/x", method: "GET").port == 8631)
    for bad in ["h:65536", "h:0", "h:123456", "[::1]:99999"] {
        #expect(throws: HTTPServerError.self, "\(bad)") { try RequestTarget.hostAndPort(Substring(bad)) }
    }
}

@Test func uriAuthorityNamesWhatTheClientAddressed() {
    var request = HTTPRequest(method: "GET", target: "/", path: "/", host: "printer.local", localPort: 8631)
    #expect(request.uriAuthority() == "printer.local:8631")
    request.hostPort = 18000
    #expect(request.uriAuthority() == "printer.local:18000")
    // A printer of a fleet on a listener of its own: its URI names that port unless the request arrived there.
    #expect(request.uriAuthority(servicePort: 9000) == "printer.local:9000")
    #expect(request.uriAuthority(servicePort: 8631) == "printer.local:18000")
    request.host = "fe80::1"
    #expect(request.uriAuthority() == "[fe80::1]:18000")
    request.host = nil
    #expect(request.uriAuthority() == "localhost:18000")
}
