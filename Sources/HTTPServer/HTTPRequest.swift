/// A request as the handler sees it: the parsed head and the facts of the connection it came on.
public struct HTTPRequest: Sendable {
    /// The method token, case-sensitive (`GET`, `POST`).
    public var method: String
    /// The request-target exactly as sent (RFC 9112 section 3.2).
    public var target: String
    /// The percent-decoded path without the query (`/ipp/print`); `*` for `OPTIONS *`.
    public var path: String
    /// The query's `name=value` pairs in order, percent-decoded.
    public var query: [(name: String, value: String)]
    /// The protocol version, 1.0 or 1.1.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders
    /// The host the client addressed (from the `Host` field or an absolute target), without port; IPv6
    /// literals keep their brackets. Nil when an HTTP/1.0 client sent none.
    public var host: String?
    /// The port the client addressed (from the `Host` field or an absolute target), nil when it named none. Behind
    /// a forwarded or mapped port it differs from `localPort`.
    public var hostPort: UInt16?
    /// The client's address, `"127.0.0.1"` or `"::1"`; IPv4-mapped IPv6 addresses are shown as IPv4.
    public var remoteAddress: String
    /// The client's port.
    public var remotePort: UInt16
    /// The connection's number in this process (1 for the first one accepted): requests on one keep-alive
    /// connection share it.
    public var connectionNumber: Int
    /// The port of the listener the request arrived on.
    public var localPort: UInt16
    /// Whether the client connected from a loopback address.
    public var isLoopback: Bool
    /// The declared body length; nil for a chunked body, 0 without a body.
    public var contentLength: Int?
    /// Whether the client waits for `100 Continue` before sending the body.
    public var expectsContinue: Bool
    /// Whether the request arrived over TLS (from the first byte, or after an HTTP Upgrade).
    public var isEncrypted: Bool
    /// The instant the head had to be in by: its first byte's arrival plus `HTTPServerLimits.slowClientTimeout`.
    /// A handler that reads the start of the body before it answers (IPP's attributes) can hold that part to the
    /// same deadline (`HTTPRequestBody.deadline`), so that a client cannot trickle it for ever.
    public var headDeadline: ContinuousClock.Instant

    /// Creates a request; the server does this, tests of handlers may too.
    public init(
        method: String, target: String, path: String, query: [(name: String, value: String)] = [],
        version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(), host: String? = nil,
        hostPort: UInt16? = nil,
        remoteAddress: String = "127.0.0.1", remotePort: UInt16 = 0, connectionNumber: Int = 0, localPort: UInt16 = 0,
        isLoopback: Bool = true, contentLength: Int? = 0, expectsContinue: Bool = false, isEncrypted: Bool = false,
        headDeadline: ContinuousClock.Instant = .now + .seconds(30)
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.host = host
        self.hostPort = hostPort
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.connectionNumber = connectionNumber
        self.localPort = localPort
        self.isLoopback = isLoopback
        self.contentLength = contentLength
        self.expectsContinue = expectsContinue
        self.isEncrypted = isEncrypted
        self.headDeadline = headDeadline
    }

    /// The credentials of the `Authorization` field, parsed; nil when the request has none.
    public var authorization: HTTPAuthorization? {
        HTTPAuthorization.parse(headers)
    }

    /// `host:port` for the absolute URIs an answer gives (RFC 8011 section 4.1.5: the URIs a client is given are
    /// for it to reach the printer with): the host the client addressed (`localhost` when an HTTP/1.0 client
    /// named none; an IPv6 literal in brackets) and the port it addressed, or the port it arrived on when it named
    /// none. `servicePort` is the port of the object the URI names when that object has a listener of its own (a
    /// printer of a fleet on its own port): a URI for it names that port, unless the request arrived there.
    public func uriAuthority(servicePort: UInt16? = nil) -> String {
        Self.uriAuthority(host: host ?? "localhost", port: uriPort(servicePort: servicePort))
    }

    /// `host:port` for an absolute URI (RFC 3986 section 3.2.2): an IPv6 literal goes in brackets, unless it
    /// already is in them (a Host field brings it bracketed).
    public static func uriAuthority(host: String, port: UInt16) -> String {
        let bytes = host.utf8
        let hostPart = bytes.first != UInt8(ascii: "[") && bytes.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return "\(hostPart):\(port)"
    }

    /// The port of `uriAuthority(servicePort:)`.
    public func uriPort(servicePort: UInt16? = nil) -> UInt16 {
        if let servicePort, servicePort != localPort { return servicePort }
        return hostPort ?? localPort
    }

    /// The first query value with this name, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
