/// How the end of a response body is shown to the client (RFC 9112 section 6).
enum HTTPResponseFraming: Equatable, Sendable {
    /// `Content-Length: n` (also sent for HEAD, as the length a GET would have had).
    case length(Int)
    /// `Transfer-Encoding: chunked`.
    case chunked
    /// Neither: the body ends when the connection closes (streams to HTTP/1.0 clients).
    case untilClose
    /// No body and no length field (1xx, 204, 304).
    case none
}

extension HTTPResponse {
    /// Appends the status line and header fields of a response, ending with the empty line.
    ///
    /// The handler's own `Content-Length`, `Transfer-Encoding`, `Connection`, `Date` and `Server` fields are
    /// replaced by the server's; `Connection: close` ends a connection the server closes, and
    /// `Connection: keep-alive` tells an HTTP/1.0 client that it stays open. CR and LF inside names or values become spaces, so a value taken from a
    /// request can never split the response.
    static func appendHead(
        status: Int, reason: String?, headers: HTTPHeaders, framing: HTTPResponseFraming, keepAlive: Bool,
        requestVersion: HTTPVersion, date: String, to output: inout [UInt8]
    ) {
        output.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status, to: &output)
        output.append(ASCII.space)
        appendSanitized(reason ?? standardReason(status), to: &output)
        output.append(contentsOf: "\r\nDate: ".utf8)
        output.append(contentsOf: date.utf8)
        output.append(contentsOf: "\r\nServer: vprinter\r\n".utf8)
        for (name, value) in headers where !serverOwned(name) {
            appendSanitized(name, to: &output)
            output.append(contentsOf: ": ".utf8)
            appendSanitized(value, to: &output)
            output.append(contentsOf: "\r\n".utf8)
        }
        switch framing {
        case .length(let length):
            output.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(length, to: &output)
            output.append(contentsOf: "\r\n".utf8)
        case .chunked:
            output.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        case .untilClose, .none:
            break
        }
        if headers.contains("Upgrade") {
            // RFC 9110 section 7.8: a response offering an upgrade names it in Connection too.
            output.append(contentsOf: (keepAlive ? "Connection: Upgrade\r\n" : "Connection: Upgrade, close\r\n").utf8)
        } else if !keepAlive {
            output.append(contentsOf: "Connection: close\r\n".utf8)
        } else if requestVersion == .http1_0 {
            output.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        output.append(contentsOf: "\r\n".utf8)
    }

    /// Whether the server writes this field itself.
    private static func serverOwned(_ name: String) -> Bool {
        ["Content-Length", "Transfer-Encoding", "Connection", "Date", "Server"].contains {
            HTTPHeaders.namesMatch($0, name)
        }
    }

    /// Appends text with CR and LF replaced by spaces.
    private static func appendSanitized(_ text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            output.append(byte == ASCII.cr || byte == ASCII.lf ? ASCII.space : byte)
        }
    }

    /// Appends a non-negative number in decimal.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        output.append(contentsOf: String(value).utf8)
    }

    /// Appends the size line of one chunk (RFC 9112 section 7.1), `1a\r\n`.
    static func appendChunkSize(_ size: Int, to output: inout [UInt8]) {
        output.append(contentsOf: String(size, radix: 16).utf8)
        output.append(contentsOf: "\r\n".utf8)
    }
}
