/// How a printer is reached and whether it asks who the client is: what its URIs, `uri-security-supported`,
/// `uri-authentication-supported` and DNS-SD record say (docs/security.md).
public struct PrinterSecurity: Sendable, Equatable {
    /// The transports the printer's port speaks.
    public enum Transport: Sendable, Equatable {
        /// Plain HTTP only (`ipp://`).
        case plain
        /// Plain HTTP and TLS on the same port (`ipp://` and `ipps://`, HTTP Upgrade too).
        case tlsOffered
        /// TLS only (`ipps://`, or HTTP Upgrade; other plain requests get 426).
        case tlsOnly
    }

    /// What the port speaks.
    public var transport: Transport
    /// Whether job operations, records and pages need HTTP Basic credentials.
    public var requiresAuthentication: Bool
    /// The highest TLS version offered (`1.3`), for DNS-SD's `TLS` key; nil without TLS.
    public var tlsVersion: String?

    /// Creates a description; the default is a plain, open printer.
    public init(transport: Transport = .plain, requiresAuthentication: Bool = false, tlsVersion: String? = nil) {
        self.transport = transport
        self.requiresAuthentication = requiresAuthentication
        self.tlsVersion = tlsVersion
    }

    /// Whether plain `ipp://` is served.
    public var offersPlain: Bool { transport != .tlsOnly }
    /// Whether `ipps://` is served.
    public var offersTLS: Bool { transport != .plain }

    /// The URI schemes of the printer with their `uri-security-supported` keyword, the one the client used
    /// first (clients take the first), for a client that came over TLS or not.
    package func schemes(clientUsedTLS: Bool) -> [(scheme: String, security: String)] {
        var schemes: [(scheme: String, security: String)] = []
        if offersPlain { schemes.append(("ipp", "none")) }
        if offersTLS { schemes.append(("ipps", "tls")) }
        if clientUsedTLS { schemes.reverse() }
        return schemes
    }

    /// `uri-authentication-supported` of every URI: `basic` when credentials are asked for.
    package var authenticationKeyword: String { requiresAuthentication ? "basic" : "none" }
}
