import Testing

@testable import HTTPServer

@Test(arguments: [
    ("Basic YWxpY2U6c2VjcmV0", HTTPAuthorization.basic(user: "alice", password: "secret")),
    ("basic   YWxpY2U6c2VjcmV0  ", .basic(user: "alice", password: "secret")),
    ("Basic YWxpY2U6czpl", .basic(user: "alice", password: "s:e")),
    ("Basic YWxpY2U6", .basic(user: "alice", password: "")),
    ("Basic w6lsw6htOnDDpHNz", .basic(user: "élèm", password: "päss")),
    ("Basic YWxpY2U6c2VjcmV0", .basic(user: "alice", password: "secret")),
    ("Bearer abc-123._~+/=", .bearer(token: "abc-123._~+/=")),
    ("Digest username=\"a\"", .other(scheme: "digest")),
])
func authorizationHeadersParse(_ value: String, _ expected: HTTPAuthorization) {
    #expect(HTTPAuthorization.parse(value) == expected)
}

@Test(arguments: [
    "", "Basic", "Basic ", "Basic !!!!", "Basic YWxpY2U", "Basic YWxpY2U6c2VjcmV0=", "Basic YQ", "Bearer",
    "Bearer a b", "Basic AAEC", "Basic YWxp\u{0}Y2U6", "Basic /w==", "\u{1}Basic x", "Basic YWxpY2U6c2VjcmV0===",
])
func malformedAuthorizationHeadersAreMalformed(_ value: String) {
    guard case .malformed = HTTPAuthorization.parse(value) else {
        Issue.record("\(value.debugDescription) parsed as \(HTTPAuthorization.parse(value))")
        return
    }
}

@Test func severalAuthorizationFieldsAreMalformedAndNoneIsNil() {
    #expect(HTTPAuthorization.parse(HTTPHeaders()) == nil)
    let headers: HTTPHeaders = ["Authorization": "Basic YWxpY2U6c2VjcmV0", "authorization": "Basic YWxpY2U6c2VjcmV0"]
    #expect(HTTPAuthorization.parse(headers) == .malformed(reason: "several Authorization fields"))
}

@Test func credentialsPastTheLimitAreMalformed() {
    let long = "Basic " + String(repeating: "QUFB", count: HTTPAuthorization.maximumCredentialsLength / 4)
    #expect(HTTPAuthorization.parse(long) == .malformed(reason: "credentials too long"))
}

@Test func base64DecodesTheRFC4648Vectors() {
    let vectors = [
        "": "", "Zg==": "f", "Zm8=": "fo", "Zm9v": "foo", "Zm9vYg==": "foob", "Zm9vYmE=": "fooba",
        "Zm9vYmFy": "foobar", "Zm9vYg": "foob",
    ]
    for (encoded, decoded) in vectors {
        #expect(Base64.decode(Substring(encoded).utf8) == Array(decoded.utf8), "\(encoded)")
        if encoded.count % 4 == 0 { #expect(Base64.encode(Array(decoded.utf8)) == encoded) }
    }
    #expect(Base64.decode(Substring("Zm9=v").utf8) == nil)
    #expect(Base64.decode(Substring("Zh==").utf8) == nil)
}

@Test func firstBytesTellTLSFromHTTP() {
    #expect(TransportDetection.classify([UInt8]()) == nil)
    #expect(TransportDetection.classify([0x16]) == .tls)
    #expect(TransportDetection.classify([0x16, 0x03, 0x01]) == .tls)
    #expect(TransportDetection.classify([0x16, 0x02]) == .http)
    #expect(TransportDetection.classify(Array("GET ".utf8)) == .http)
    #expect(TransportDetection.classify([0x80, 0x2E]) == .http)
}

@Test func upgradeNeedsTLSInUpgradeAndUpgradeInConnection() {
    #expect(HTTPUpgrade.requestsTLS(["Connection": "upgrade", "Upgrade": "TLS/1.2,TLS/1.1,TLS/1.0"]))
    #expect(HTTPUpgrade.requestsTLS(["Connection": "keep-alive, Upgrade", "Upgrade": "h2c, tls/1.3"]))
    #expect(!HTTPUpgrade.requestsTLS(["Upgrade": "TLS/1.2"]))
    #expect(!HTTPUpgrade.requestsTLS(["Connection": "upgrade", "Upgrade": "websocket"]))
    #expect(!HTTPUpgrade.requestsTLS(["Connection": "upgrade"]))
}
