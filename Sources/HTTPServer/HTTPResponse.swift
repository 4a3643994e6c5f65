/// A response the handler returns: status, header fields and a body.
///
/// The server adds `Date`, `Server`, `Content-Length` (or `Transfer-Encoding: chunked` for a stream) and
/// `Connection` itself; the handler should not set them.
public struct HTTPResponse: Sendable {
    /// The status code (RFC 9110 section 15).
    public var status: Int
    /// The reason phrase; nil uses the standard phrase of the status.
    public var reason: String?
    /// Header fields sent with the response.
    public var headers: HTTPHeaders
    /// The content.
    public var body: Body
    /// Set to break the exchange on purpose (a test printer playing a flaky network): nil answers normally.
    public var abort: Abort?
    /// With `abort` `.silence`: asked about once a second; true ends the silence (the connection then closes
    /// without a byte, and the client's next try is answered). Nil: only the client or the limit ends it.
    public var silenceEnds: (@Sendable () -> Bool)?

    /// How a response breaks off.
    public enum Abort: Sendable, Equatable {
        /// The connection closes before any byte of the response.
        case beforeResponse
        /// The head and half the content are sent, then the connection closes.
        case midResponse
        /// No byte at all, as from a host that is not there: the connection stays open and silent, costing
        /// no CPU, until the client gives up and closes it, `silenceEnds` says so, or
        /// `HTTPServerLimits.maximumSilence` passes; then it closes. Whatever the client sends meanwhile is
        /// left unread.
        case silence
    }

    /// Where the content of a response comes from.
    public enum Body: Sendable {
        /// These bytes.
        case bytes([UInt8])
        /// The contents of this file, sent with `sendfile`; a file that cannot be opened turns the
        /// response into 404.
        case file(path: String)
        /// Content produced while it is sent, in chunks (or until close for an HTTP/1.0 client), for
        /// server-sent events and other long answers. The closure writes and flushes as it wants, runs on
        /// the connection's thread, and ends the body by returning.
        case stream(@Sendable (HTTPResponseStream) throws -> Void)
    }

    /// Creates a response.
    public init(status: Int, reason: String? = nil, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// Creates a response with a text body and its content type (`text/plain; charset=utf-8` by default).
    public init(status: Int, text: String, contentType: String = "text/plain; charset=utf-8") {
        self.init(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }

    /// The standard reason phrase of a status code (RFC 9110 section 15), or `"Unknown"`.
    public static func standardReason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }

    /// Whether a response with this status never has content (RFC 9110 section 6.4.1).
    static func statusForbidsContent(_ status: Int) -> Bool {
        status < 200 || status == 204 || status == 304
    }
}

/// Answers requests. The server calls it on the connection's own thread, one request at a time per
/// connection, and many connections at once.
public protocol HTTPHandler: Sendable {
    /// Answers one request. It may block. Whatever part of the body it leaves unread the server drains
    /// (up to `HTTPServerLimits.maximumDrainBytes`) to keep the connection alive, or it closes the
    /// connection; an unread body of an `Expect: 100-continue` request is never asked for. When a body read
    /// failed (bad chunking 400, too large 413, too slow 408), the server sends that status instead of the
    /// returned response and closes the connection.
    func handle(_ request: HTTPRequest, body: inout HTTPRequestBody) -> HTTPResponse
}
