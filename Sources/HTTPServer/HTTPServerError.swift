/// Everything that can go wrong in the HTTP server, from binding a port to decoding one chunk.
///
/// This is the module's only error type. Cases that describe a bad request map to an HTTP status through
/// `responseStatus`; the connection that caused them is answered (when it makes sense) and closed.
public enum HTTPServerError: Error, Equatable, Sendable {
    /// The port is already bound by another socket (`EADDRINUSE`).
    case addressInUse(port: UInt16)
    /// A listen address is not a numeric IPv4 or IPv6 address.
    case invalidAddress(String)
    /// A system call failed; `call` names it and `errno` is the value the kernel returned.
    case system(call: String, errno: Int32)
    /// The peer closed the connection (or reset it) before the exchange finished.
    case connectionClosed
    /// The peer was too slow: the head, a body read or a send took longer than the configured timeout.
    case timedOut
    /// The server is stopping and no longer serves this connection.
    case stopped
    /// The bytes received do not even start like an HTTP request (binary data, a TLS ClientHello).
    case notHTTP
    /// The request head is malformed; `reason` says what was wrong, for logs.
    case malformedRequest(reason: String)
    /// The request head grew past `HTTPServerLimits.maximumHeadBytes` (RFC 6585 section 5, status 431).
    case headTooLarge
    /// The request has more header fields than `HTTPServerLimits.maximumHeaderCount` (status 431).
    case tooManyHeaders
    /// The request names an HTTP version other than 1.0 or 1.1 (RFC 9110 section 15.6.6, status 505).
    case unsupportedVersion
    /// The request uses a transfer coding other than chunked (RFC 9112 section 6.1, status 501).
    case unsupportedTransferCoding(String)
    /// The request carries an `Expect` value other than `100-continue` (RFC 9110 section 10.1.1, status 417).
    case unsupportedExpectation(String)
    /// A chunked body is malformed: bad size line, missing CRLF, oversized extension or trailer
    /// (RFC 9112 section 7.1, status 400).
    case badChunk
    /// The body is longer than `HTTPServerLimits.maximumBodyBytes` (status 413).
    case bodyTooLarge
    /// TLS failed: a certificate or key that does not load, or a handshake or record the client got wrong;
    /// `reason` is OpenSSL's word for it, for logs.
    case tls(reason: String)
    /// A fetch's destination is one its policy refuses (`FetchPolicy`); nothing was sent to it.
    case destinationRefused(FetchRefusal)

    /// The HTTP status that answers this error, or nil when the connection is closed without an answer.
    public var responseStatus: Int? {
        switch self {
        case .malformedRequest, .badChunk: 400
        case .timedOut: 408
        case .bodyTooLarge: 413
        case .unsupportedExpectation: 417
        case .headTooLarge, .tooManyHeaders: 431
        case .unsupportedTransferCoding: 501
        case .unsupportedVersion: 505
        case .addressInUse, .invalidAddress, .system, .connectionClosed, .stopped, .notHTTP, .tls, .destinationRefused:
            nil
        }
    }
}
