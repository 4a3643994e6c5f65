/// HTTP Upgrade to TLS on an open connection (RFC 2817 section 3, RFC 9110 section 7.8), as CUPS clients
/// ask for it: `OPTIONS * HTTP/1.1`, `Connection: Upgrade`, `Upgrade: TLS/1.2,TLS/1.1,TLS/1.0`.
enum HTTPUpgrade {
    /// The `Upgrade` value of a 101 or 426 response: TLS first, HTTP/1.1 inside it (RFC 2817 section 3.3).
    static let offeredProtocols = "TLS/1.2, HTTP/1.1"

    /// Whether a request asks to switch the connection to TLS: `Upgrade` lists a `TLS` protocol (any
    /// version) and `Connection` lists `upgrade`, as RFC 9110 section 7.8 requires of the sender.
    static func requestsTLS(_ headers: HTTPHeaders) -> Bool {
        guard headers.listContains("Connection", token: "upgrade") else { return false }
        return headers.values("Upgrade").contains { value in
            value.split(separator: ",").contains { element in
                let name = element.trimmingSpacesAndTabs.prefix { $0 != "/" }
                return HTTPHeaders.namesMatch(String(name), "TLS")
            }
        }
    }
}
