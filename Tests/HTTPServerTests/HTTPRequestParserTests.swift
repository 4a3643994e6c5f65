import Testing

@testable import HTTPServer

/// Parses `text` in one piece with the given limits.
private func parse(_ text: String, limits: HTTPServerLimits = .default) throws(HTTPServerError) -> HTTPRequestHead? {
    var parser = HTTPRequestParser(limits: limits)
    let bytes = Array(text.utf8)
    let result = bytes.withUnsafeBytes { raw in Result { () throws(HTTPServerError) in try parser.parse(raw) } }
    return try result.get()?.head
}

/// The error parsing `text` throws, or nil.
private func parseError(_ text: String, limits: HTTPServerLimits = .default) -> HTTPServerError? {
    do {
        _ = try parse(text, limits: limits)
        return nil
    } catch {
        return error
    }
}

private let validHead =
    "POST /ipp/print HTTP/1.1\r\nHost: localhost:631\r\nContent-Type: application/ipp\r\n"
    + "Content-Length: 5\r\n\r\nhello"

@Test func parsesRequestLineAndFields() throws {
    let head = try #require(try parse(validHead))
    #expect(head.method == "POST")
    #expect(head.target == "/ipp/print")
    #expect(head.version == .http1_1)
    #expect(head.headers["content-type"] == "application/ipp")
    #expect(head.headers["HOST"] == "localhost:631")
    #expect(try head.bodyFraming(maximumBodyBytes: 100) == .length(5))
}

@Test func reportsTheHeadLengthSoTheBodyStaysBuffered() throws {
    var parser = HTTPRequestParser(limits: .default)
    let bytes = Array(validHead.utf8)
    let length = try bytes.withUnsafeBytes { raw in try #require(try parser.parse(raw)).length }
    #expect(length == bytes.count - 5)
}

@Test func everyPrefixOfAHeadNeedsMoreBytes() throws {
    let bytes = Array(validHead.utf8)
    let headLength = bytes.count - 5
    for end in 0..<headLength {
        var parser = HTTPRequestParser(limits: .default)
        let result = try bytes[0..<end].withUnsafeBytes { raw in try parser.parse(raw) }
        #expect(result == nil, "prefix of \(end) bytes")
    }
}

@Test func headSplitAtEveryOffsetParsesTheSame() throws {
    let bytes = Array(validHead.utf8)
    for split in 1..<bytes.count {
        var parser = HTTPRequestParser(limits: .default)
        let first = try bytes[0..<split].withUnsafeBytes { raw in try parser.parse(raw) }
        let whole = try bytes.withUnsafeBytes { raw in try parser.parse(raw) }
        let parsed = first ?? whole
        #expect(parsed?.head.headers.count == 3, "split at \(split)")
        #expect(parsed?.length == bytes.count - 5)
    }
}

@Test func bareLineFeedsAndLeadingEmptyLinesAreAccepted() throws {
    let head = try #require(try parse("\r\n\nGET / HTTP/1.0\nHost: a\n\n"))
    #expect(head.method == "GET")
    #expect(head.version == .http1_0)
    #expect(head.headers["Host"] == "a")
}

@Test func tlsClientHelloIsNotHTTP() {
    let hello = String(decoding: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01], as: UTF8.self)
    #expect(parseError(hello) == .notHTTP)
}

@Test func controlCharacterAfterAMethodIsMalformed() {
    #expect(parseError("GET\u{0}") == .malformedRequest(reason: "control character in head"))
    #expect(parseError("GET / HTTP/1.1\rX") == .malformedRequest(reason: "bare CR"))
}

@Test func otherHTTPVersionsAreUnsupported() {
    #expect(parseError("GET / HTTP/2.0\r\n\r\n") == .unsupportedVersion)
    #expect(parseError("GET / HTTP/1.2\r\n\r\n") == .unsupportedVersion)
    #expect(parseError("GET / HTTQ/1.1\r\n\r\n") == .malformedRequest(reason: "bad HTTP version"))
    #expect(parseError("GET /\r\n\r\n") == .malformedRequest(reason: "request line needs three parts"))
}

@Test func fieldSyntaxErrorsAreMalformed() {
    #expect(parseError("GET / HTTP/1.1\r\nHost : a\r\n\r\n") == .malformedRequest(reason: "bad header name"))
    #expect(
        parseError("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n") == .malformedRequest(reason: "obsolete line folding")
    )
    #expect(parseError("GET / HTTP/1.1\r\nNoColon\r\n\r\n") == .malformedRequest(reason: "header line without colon"))
    #expect(parseError("GET  / HTTP/1.1\r\n\r\n") == .malformedRequest(reason: "request line needs three parts"))
}

@Test func headerCountLimitIsCrossedAtOneMoreField() throws {
    let limits = HTTPServerLimits(maximumHeaderCount: 3)
    let fields = (0..<3).map { "X-\($0): v\r\n" }.joined()
    #expect(try parse("GET / HTTP/1.1\r\n" + fields + "\r\n", limits: limits) != nil)
    #expect(parseError("GET / HTTP/1.1\r\n" + fields + "X-3: v\r\n", limits: limits) == .tooManyHeaders)
}

@Test func headSizeLimitIsCrossedAtOneMoreByte() throws {
    let head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
    let limits = HTTPServerLimits(maximumHeadBytes: head.utf8.count)
    #expect(try parse(head, limits: limits) != nil)
    #expect(parseError("GET / HTTP/1.1\r\nHost: ab\r\n\r\n", limits: limits) == .headTooLarge)
}

@Test func framingFollowsTransferEncodingAndContentLength() throws {
    func framing(_ fields: String, version: String = "1.1") throws(HTTPServerError) -> HTTPBodyFraming {
        guard let head = try parse("POST / HTTP/\(version)\r\n\(fields)\r\n") else { throw .connectionClosed }
        return try head.bodyFraming(maximumBodyBytes: 1000)
    }
    #expect(try framing("") == .length(0))
    #expect(try framing("Transfer-Encoding: Chunked\r\n") == .chunked)
    #expect(try framing("Content-Length: 7, 7\r\n") == .length(7))
    #expect(throws: HTTPServerError.unsupportedTransferCoding("gzip")) {
        try framing("Transfer-Encoding: gzip, chunked\r\n")
    }
    #expect(throws: HTTPServerError.malformedRequest(reason: "both Transfer-Encoding and Content-Length")) {
        try framing("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n")
    }
    #expect(throws: HTTPServerError.malformedRequest(reason: "conflicting Content-Length")) {
        try framing("Content-Length: 3\r\nContent-Length: 4\r\n")
    }
    #expect(throws: HTTPServerError.malformedRequest(reason: "bad Content-Length")) {
        try framing("Content-Length: -1\r\n")
    }
    #expect(throws: HTTPServerError.malformedRequest(reason: "bad Content-Length")) {
        try framing("Content-Length: 99999999999999999999999\r\n")
    }
    #expect(try framing("Content-Length: 1000\r\n") == .length(1000))
    #expect(throws: HTTPServerError.bodyTooLarge) { try framing("Content-Length: 1001\r\n") }
}

@Test func keepAliveAndExpectationFollowTheVersion() throws {
    let http10 = try #require(try parse("GET / HTTP/1.0\r\nExpect: 100-continue\r\n\r\n"))
    #expect(!http10.wantsKeepAlive)
    #expect(try !http10.expectsContinue())
    let http10KeepAlive = try #require(try parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"))
    #expect(http10KeepAlive.wantsKeepAlive)
    let closing = try #require(try parse("GET / HTTP/1.1\r\nConnection: foo, close\r\nExpect: 100-Continue\r\n\r\n"))
    #expect(!closing.wantsKeepAlive)
    #expect(try closing.expectsContinue())
    let odd = try #require(try parse("GET / HTTP/1.1\r\nExpect: teapot\r\n\r\n"))
    #expect(throws: HTTPServerError.unsupportedExpectation("teapot")) { try odd.expectsContinue() }
}
