#if canImport(Glibc)
    import Glibc
#endif

/// Which names a request's Host (RFC 9110 section 7.2) may give: the server's own. A web page whose site name an
/// attacker points at this machine (DNS rebinding) reaches the server with that name in Host, and reads whatever
/// it answers as its own site's; answering only the names this machine has stops that.
///
/// Always allowed: addresses (`127.0.0.1`, `[::1]`: no site name to rebind), `localhost` and names under it, and
/// this machine's own mDNS names (`LocalLinkNames`: the name the Avahi daemon advertises, `host.local`); besides,
/// the names given (the machine's host name, `--allowed-host`), and the names under a domain given with a leading
/// dot (`.svc.cluster.local`: a cluster's Services, whose names only the cluster's own DNS resolves). Another `.local`
/// name is refused: any host of the link can advertise one (RFC 6762 has no owner of names) and point it at this
/// machine, as DNS rebinding does with a site's name. No Host at all (HTTP/1.0) is allowed: browsers always send one.
public struct HostPolicy: Sendable, Hashable {
    /// The names allowed besides the ones always allowed, lowercased, without a trailing dot.
    public private(set) var names: Set<String>
    /// The domains under which every name is allowed, each with its leading dot (`.svc.cluster.local`).
    public private(set) var domains: Set<String>
    /// Whether any Host is allowed (`--allowed-host '*'`).
    public private(set) var allowsAny: Bool
    /// This machine's `.local` names; nil: only those given in `names`.
    public private(set) var localNames: LocalLinkNames?

    /// The name that stands for any Host.
    public static let anyHost = "*"

    /// The machine's own names (its host name) besides addresses, localhost and `.local` names.
    public static var machine: HostPolicy {
        HostPolicy(names: machineNames)
    }

    /// The machine's host name, as the system gives it (with its domain, when it has one), and its first label
    /// with `.local`, the mDNS name Avahi gives it unless that collides.
    public static var machineNames: [String] {
        guard let name = LocalAddresses.hostName else { return [] }
        let label = name.split(separator: ".").first.map(String.init) ?? name
        return [name, label + ".local"]
    }

    /// A policy allowing these names (`*` allows any) besides addresses, localhost and the machine's `.local`
    /// names (`localNames`, and the host name given with `.local`).
    public init(names: [String] = [], localNames: LocalLinkNames? = nil) {
        allowsAny = names.contains(Self.anyHost)
        let given = names.filter { $0 != Self.anyHost }.map(Self.normalized).filter { !$0.isEmpty }
        let plain = given.filter { !$0.hasPrefix(".") }
        // A host name given without a domain is this link's name too (`printer` and `printer.local`).
        self.names = Set(plain + plain.filter { !$0.contains(".") }.map { $0 + ".local" })
        domains = Set(given.filter { $0.hasPrefix(".") && $0.count > 1 })
        self.localNames = localNames
    }

    public static func == (left: HostPolicy, right: HostPolicy) -> Bool {
        left.names == right.names && left.domains == right.domains && left.allowsAny == right.allowsAny
            && left.localNames === right.localNames
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(domains)
        hasher.combine(allowsAny)
    }

    /// Whether a request naming `host` (the Host field without its port, IPv6 addresses in brackets) may be
    /// answered.
    public func allows(_ host: String?) -> Bool {
        guard let host, !allowsAny else { return true }
        let name = Self.normalized(host)
        if Self.isAddress(name) || name == "localhost" || name.hasSuffix(".localhost") || names.contains(name)
            || domains.contains(where: { name.hasSuffix($0) })
        {
            return true
        }
        return name.hasSuffix(".local") && localNames?.contains(name) == true
    }

    /// A host name as compared: lowercased, without the dot that may end a fully qualified name.
    static func normalized(_ host: String) -> String {
        let lowered = host.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }

    /// Whether a Host names an IPv4 address or a bracketed IPv6 address (with a zone, `%25eth0`, or without).
    static func isAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") {
            let inside = host.dropFirst().dropLast()
            let address = inside.split(separator: "%", maxSplits: 1).first.map(String.init) ?? ""
            var bytes = in6_addr()
            return inet_pton(AF_INET6, address, &bytes) == 1
        }
        var bytes = in_addr()
        return inet_pton(AF_INET, host, &bytes) == 1
    }
}
