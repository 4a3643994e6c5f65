import HTTPServer
import Synchronization

/// Failed logins per client and account (wrong passwords for one user name, wrong API tokens, unreadable
/// credentials): past `maximumFailures` for one account, or `maximumFailuresPerClient` for all accounts together,
/// within `window` seconds, that client's credentials (for that account, or for any) are not even compared until
/// the oldest failure leaves the window (429 with Retry-After), so that guessing a password or a token runs at ten
/// tries a minute. Other accounts from the client, and the account from other clients, go on. A correct login is
/// not counted.
///
/// A client is an IPv4 address or an IPv6 /64 (`ClientAddressGroup`: one IPv6 host commonly has a whole /64 to
/// pick source addresses from, so each new address is no new client). The state is bounded: at most
/// `maximumClients` clients and `maximumAccountsPerClient` accounts of each. Junk user names cannot flush the
/// failures of the account a client guesses at: a client that fails for that many accounts reaches its own cap
/// first, and other clients' failures never evict a client that is being throttled sooner than a quieter one.
final class LoginThrottle: Sendable {
    /// Failures a client may have for one account within the window before its attempts are refused.
    static let maximumFailures = 10
    /// Failures a client may have for all its accounts together within the window.
    static let maximumFailuresPerClient = 100
    /// The window, in seconds.
    static let window = 60.0
    /// Clients followed at once; past it, the one whose latest failure is oldest is forgotten.
    static let maximumClients = 10_000
    /// Accounts followed per client; past it, the one whose latest failure is oldest is forgotten (by then the
    /// client is at `maximumFailuresPerClient`, since each account followed has failed at least once).
    static let maximumAccountsPerClient = maximumFailuresPerClient

    /// One client's failures: all of them, and per account, each list oldest first.
    private struct Failures {
        var all: [Double] = []
        var accounts: [String: [Double]] = [:]
        var latest: Double { all.last ?? 0 }

        mutating func forget(before oldest: Double) {
            all.removeAll { $0 <= oldest }
            accounts = accounts.compactMapValues { times in
                let kept = times.filter { $0 > oldest }
                return kept.isEmpty ? nil : kept
            }
        }
    }

    private let clients = Mutex<[String: Failures]>([:])

    /// Seconds until `account` may be tried again from `address`, or nil when it may now.
    func retryAfter(address: String, account: String, now: Double) -> Double? {
        let client = ClientAddressGroup.name(of: address)
        return clients.withLock { clients in
            guard var failures = clients[client] else { return nil }
            failures.forget(before: now - Self.window)
            clients[client] = failures.all.isEmpty ? nil : failures
            var waits: [Double] = []
            if failures.all.count >= Self.maximumFailuresPerClient, let oldest = failures.all.first {
                waits.append(oldest + Self.window - now)
            }
            if let times = failures.accounts[account], times.count >= Self.maximumFailures, let oldest = times.first {
                waits.append(oldest + Self.window - now)
            }
            return waits.max()
        }
    }

    /// Counts a failed login for `account` from `address`.
    func recordFailure(address: String, account: String, now: Double) {
        let client = ClientAddressGroup.name(of: address)
        clients.withLock { clients in
            if clients[client] == nil, clients.count >= Self.maximumClients,
                let stalest = clients.min(by: { $0.value.latest < $1.value.latest })?.key
            {
                clients[stalest] = nil
            }
            var failures = clients[client, default: Failures()]
            failures.forget(before: now - Self.window)
            if failures.accounts[account] == nil, failures.accounts.count >= Self.maximumAccountsPerClient,
                let stalest = failures.accounts.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key
            {
                failures.accounts[stalest] = nil
            }
            failures.all = Array((failures.all + [now]).suffix(Self.maximumFailuresPerClient))
            failures.accounts[account] = Array(
                (failures.accounts[account, default: []] + [now]).suffix(Self.maximumFailures))
            clients[client] = failures
        }
    }
}
