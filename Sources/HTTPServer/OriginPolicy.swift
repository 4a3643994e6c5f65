/// Which `Origin` (RFC 6454) a request that changes something may come with: the server's own, or one allowed
/// (`--allow-origin`). A browser sends Origin with every cross-site POST, and sends a form's or a script's simple
/// request (text/plain, a form) without asking first: refusing other origins stops any web page the tester has
/// open from changing the server. Clients that are not browsers send no Origin, and are not concerned.
public struct OriginPolicy: Sendable, Hashable {
    /// The origins allowed besides the server's own, as `normalized` makes them.
    public private(set) var allowed: Set<String>
    /// Whether any origin is allowed (`--allow-origin '*'`).
    public private(set) var allowsAny: Bool

    /// The origin that stands for any.
    public static let anyOrigin = "*"

    public init(allowing origins: [String] = []) {
        allowsAny = origins.contains(Self.anyOrigin)
        allowed = Set(origins.filter { $0 != Self.anyOrigin }.compactMap(Self.normalized))
    }

    /// Whether a request with this Origin may change something: its origin is the server's own (the scheme of the
    /// connection, the authority of the request's `Host` field) or an allowed one. `null` (a sandboxed page, a
    /// file) and anything that is no origin are refused.
    public func allows(_ origin: String, hostField: String?, isEncrypted: Bool) -> Bool {
        if allowsAny { return true }
        guard let origin = Self.normalized(origin) else { return false }
        if allowed.contains(origin) { return true }
        guard let hostField else { return false }
        return Self.normalized((isEncrypted ? "https://" : "http://") + hostField) == origin
    }

    /// An origin as compared: `scheme://host[:port]`, lowercased, without the scheme's default port; nil when the
    /// text is no http or https origin.
    public static func normalized(_ text: String) -> String? {
        let lowered = text.lowercased().trimmingSuffix("/")
        let scheme: String
        let defaultPort: String
        if lowered.hasPrefix("http://") {
            (scheme, defaultPort) = ("http", ":80")
        } else if lowered.hasPrefix("https://") {
            (scheme, defaultPort) = ("https", ":443")
        } else {
            return nil
        }
        var authority = lowered.dropFirst(scheme.count + 3)
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return nil }
        if authority.hasSuffix(defaultPort) { authority = authority.dropLast(defaultPort.count) }
        return scheme + "://" + authority
    }
}

extension String {
    /// The text without one `suffix` at its end.
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
