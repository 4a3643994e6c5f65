import Glibc

/// Where the printer may connect when it fetches on a client's behalf (Print-URI and Send-URI over http, https and
/// ftp, their redirects, FTP's data connection): nowhere the client could not reach itself. Checked on each
/// address a host name resolves to, just before the connection to it, so a name that resolves to a forbidden
/// address (DNS rebinding included) is refused as the address itself is. docs/security.md lists the rules.
///
/// In order, the first that applies decides:
/// 1. never the process's own listeners (`ListeningSockets`: an address and port one of its servers takes), nor an
///    unspecified, link-local, multicast or broadcast address;
/// 2. an `--fetch-allow` rule allows;
/// 3. an `--fetch-deny` rule refuses;
/// 4. a loopback address only while every listener of the process is on loopback (then every client is on this
///    machine and can reach loopback itself), or with `allowsLoopback` (the operator's own peers);
/// 5. anything else is allowed.
public struct FetchPolicy: Sendable, Hashable {
    /// The rules that allow (`--fetch-allow`).
    public var allowed: [FetchRule]
    /// The rules that refuse (`--fetch-deny`).
    public var denied: [FetchRule]
    /// Whether loopback is allowed whatever the listeners are.
    public var allowsLoopback: Bool
    /// The listeners counted as the process's own; nil: those `ListeningSockets` has now.
    public var listeners: [ListeningSockets.Endpoint]?

    public init(
        allowed: [FetchRule] = [], denied: [FetchRule] = [], allowsLoopback: Bool = false,
        listeners: [ListeningSockets.Endpoint]? = nil
    ) {
        self.allowed = allowed
        self.denied = denied
        self.allowsLoopback = allowsLoopback
        self.listeners = listeners
    }

    /// The policy of a printer's fetches with no rules given.
    public static let standard = FetchPolicy()

    /// This policy with `other`'s rules added (a printer's own after the process's).
    public func adding(_ other: FetchPolicy) -> FetchPolicy {
        var merged = self
        merged.allowed += other.allowed
        merged.denied += other.denied
        merged.allowsLoopback = allowsLoopback || other.allowsLoopback
        return merged
    }

    /// Nil when a fetch of `host` (as the URL names it) may connect to `address`; else why not.
    func check(host: String, address: SocketAddress) -> FetchRefusal? {
        let port = address.port
        func refusal(_ reason: FetchRefusal.Reason) -> FetchRefusal {
            FetchRefusal(host: host, address: address.host, port: port, reason: reason)
        }
        let scope = address.scope
        let endpoints = listeners ?? ListeningSockets.current
        if isOwnListener(address, scope: scope, endpoints: endpoints) { return refusal(.ownListener) }
        switch scope {
        case .unspecified, .linkLocal, .multicast, .broadcast: return refusal(.scope(scope))
        case .loopback, .network: break
        }
        if allowed.contains(where: { $0.matches(host: host, address: address, port: port) }) { return nil }
        if let rule = denied.first(where: { $0.matches(host: host, address: address, port: port) }) {
            return refusal(.denied(rule: rule.description))
        }
        if scope == .loopback && !allowsLoopback && !endpoints.allSatisfy(\.isLoopback) {
            return refusal(.loopbackWhileListeningBeyondIt)
        }
        return nil
    }

    /// Whether `address` reaches one of `endpoints`: the same address and port, or the port of a wildcard
    /// listener on an address of this machine.
    private func isOwnListener(
        _ address: SocketAddress, scope: AddressScope, endpoints: [ListeningSockets.Endpoint]
    ) -> Bool {
        let mine = endpoints.filter { $0.port == address.port }
        guard !mine.isEmpty else { return false }
        let text = address.host
        if mine.contains(where: { $0.address == text }) { return true }
        guard mine.contains(where: \.isWildcard) else { return false }
        return scope == .loopback || LocalAddresses.interfaceAddresses.contains(text)
    }
}
