/// Where the server listens and how it protects itself.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric addresses to bind (`"127.0.0.1"`, `"::1"`, `"[::1]"`). Empty binds all addresses: IPv6 `::`
    /// accepting IPv4 too (dual-stack), or `0.0.0.0` on a machine without IPv6.
    public var addresses: [String]
    /// The TCP port; 0 picks any free port, and every further listener then shares the port the first got.
    public var port: UInt16
    /// The limits applied to every connection.
    public var limits: HTTPServerLimits

    /// Creates a configuration.
    public init(addresses: [String] = [], port: UInt16, limits: HTTPServerLimits = .default) {
        self.addresses = addresses
        self.port = port
        self.limits = limits
    }
}
