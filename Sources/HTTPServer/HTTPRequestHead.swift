/// A request head as parsed from the wire, before the server adds what it knows of the connection.
struct HTTPRequestHead: Sendable {
    /// The method token, case-sensitive (`GET`, `POST`).
    var method: String
    /// The request-target exactly as sent.
    var target: String
    /// The protocol version of the request line.
    var version: HTTPVersion
    /// The header fields in order.
    var headers: HTTPHeaders
}

/// How the length of a request body is known (RFC 9112 section 6.3).
enum HTTPBodyFraming: Equatable, Sendable {
    /// A body of exactly this many bytes (no body at all is `length(0)`).
    case length(Int)
    /// A chunked body, which ends with its zero-size chunk.
    case chunked
}

extension HTTPRequestHead {
    /// How the body is framed, from `Transfer-Encoding` and `Content-Length` (RFC 9112 section 6.3).
    ///
    /// Only `chunked` is supported as a transfer coding (`unsupportedTransferCoding`, 501). A request with
    /// both fields, or with an invalid or conflicting Content-Length, is malformed: both would let a proxy
    /// and this server disagree on where the request ends. A declared length above `maximumBodyBytes` is
    /// `bodyTooLarge` (413).
    func bodyFraming(maximumBodyBytes: Int) throws(HTTPServerError) -> HTTPBodyFraming {
        // Most requests have no Transfer-Encoding and one Content-Length: no list is split or trimmed for them.
        let encodings = headers.values("Transfer-Encoding")
        let codings =
            encodings.isEmpty
            ? []
            : encodings.flatMap { $0.split(separator: ",") }.map { String($0.trimmingSpacesAndTabs) }
                .filter { !$0.isEmpty }
        let lengths = headers.values("Content-Length")
        if codings.isEmpty, lengths.count == 1,
            let value = Self.decimalValue(Substring(lengths[0]).trimmingSpacesAndTabs)
        {
            guard value <= maximumBodyBytes else { throw .bodyTooLarge }
            return .length(value)
        }
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw .malformedRequest(reason: "both Transfer-Encoding and Content-Length") }
            guard version == .http1_1 else { throw .malformedRequest(reason: "Transfer-Encoding in HTTP/1.0") }
            for coding in codings where !HTTPHeaders.namesMatch(coding, "chunked") {
                throw .unsupportedTransferCoding(coding)
            }
            guard codings.count == 1 else { throw .malformedRequest(reason: "chunked applied twice") }
            return .chunked
        }
        var length: Int?
        for element in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            guard let value = Self.decimalValue(element.trimmingSpacesAndTabs) else {
                throw .malformedRequest(reason: "bad Content-Length")
            }
            guard length == nil || length == value else {
                throw .malformedRequest(reason: "conflicting Content-Length")
            }
            length = value
        }
        guard let length else { return .length(0) }
        guard length <= maximumBodyBytes else { throw .bodyTooLarge }
        return .length(length)
    }

    /// Whether the client lets the connection persist after this exchange (RFC 9112 section 9.3):
    /// HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        if headers.listContains("Connection", token: "close") { return false }
        return version == .http1_1 || headers.listContains("Connection", token: "keep-alive")
    }

    /// Whether the client waits for `100 Continue` before sending the body (RFC 9110 section 10.1.1).
    /// HTTP/1.0 clients cannot ask for it; any other expectation is `unsupportedExpectation` (417).
    func expectsContinue() throws(HTTPServerError) -> Bool {
        guard version == .http1_1 else { return false }
        var expects = false
        for value in headers.values("Expect") {
            guard HTTPHeaders.namesMatch(value, "100-continue") else { throw .unsupportedExpectation(value) }
            expects = true
        }
        return expects
    }

    /// The host the client addressed and the port it named, if any: from an absolute-form target if present,
    /// else the `Host` field. HTTP/1.1 requires exactly one `Host` field (RFC 9112 section 3.2); IPv6 literals
    /// keep their brackets so the value can be put back into a URI.
    func authority(target: RequestTarget) throws(HTTPServerError) -> (host: String, port: UInt16?)? {
        let values = headers.values("Host")
        guard values.count <= 1 else { throw .malformedRequest(reason: "several Host fields") }
        if version == .http1_1 && values.isEmpty { throw .malformedRequest(reason: "missing Host") }
        if let host = target.host { return (host, target.port) }
        guard let value = values.first else { return nil }
        return try RequestTarget.hostAndPort(Substring(value))
    }

    /// The value of a non-negative decimal number without sign, or nil when it is not one or overflows.
    static func decimalValue(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18 else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard let digit = ASCII.digitValue(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
