/// Where the server listens and how it protects itself.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric addresses to bind (`"127.0.0.1"`, `"::1"`, `"[::1]"`). Empty binds all addresses: IPv6 `::`
    /// accepting IPv4 too (dual-stack), or `0.0.0.0` on a machine without IPv6.
    public var addresses: [String]
    /// The TCP port; 0 picks any free port, and every further listener then shares the port the first got.
    public var port: UInt16
    /// The limits applied to every connection.
    public var limits: HTTPServerLimits
    /// TLS on the same port, or nil for plain HTTP only.
    public var tls: TLSConfiguration?

    /// Creates a configuration.
    public init(
        addresses: [String] = [], port: UInt16, limits: HTTPServerLimits = .default, tls: TLSConfiguration? = nil
    ) {
        self.addresses = addresses
        self.port = port
        self.limits = limits
        self.tls = tls
    }
}

/// TLS on the server's one port: a connection whose first bytes are a ClientHello is TLS from the start
/// (`ipps://`), a plain one may switch with HTTP Upgrade (RFC 2817).
public struct TLSConfiguration: Sendable {
    /// The certificate and key.
    public var context: TLSContext
    /// Whether plain HTTP is refused: a plain request that does not upgrade gets 426 Upgrade Required.
    public var requiresTLS: Bool

    /// Creates a TLS configuration.
    public init(context: TLSContext, requiresTLS: Bool = false) {
        self.context = context
        self.requiresTLS = requiresTLS
    }
}
