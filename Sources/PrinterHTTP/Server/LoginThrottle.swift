import Synchronization

/// Failed logins per client address and account (wrong passwords for one user name, wrong API tokens, unreadable
/// credentials): past `maximumFailures` within `window` seconds, that address's credentials for that account are
/// not even compared until the oldest failure leaves the window (429 with Retry-After), so that guessing a password
/// or a token runs at ten tries a minute; other accounts from the address, and the account from other addresses, go
/// on. A correct login is not counted; the keys followed are bounded.
final class LoginThrottle: Sendable {
    /// Failures an address may have within the window before its attempts are refused.
    static let maximumFailures = 10
    /// The window, in seconds.
    static let window = 60.0
    /// Keys followed at once; past it, the one whose latest failure is oldest is forgotten.
    static let maximumKeys = 10_000

    private let failures = Mutex<[String: [Double]]>([:])

    /// The key of a login: the client's address and the account its credentials name.
    static func key(address: String, account: String) -> String {
        address + " " + account
    }

    /// Seconds until `key` may try again, or nil when it may now.
    func retryAfter(for key: String, now: Double) -> Double? {
        failures.withLock { failures in
            guard var times = failures[key] else { return nil }
            times.removeAll { $0 <= now - Self.window }
            failures[key] = times.isEmpty ? nil : times
            guard times.count >= Self.maximumFailures, let oldest = times.first else { return nil }
            return oldest + Self.window - now
        }
    }

    /// Counts a failed login of `key`.
    func recordFailure(of key: String, now: Double) {
        failures.withLock { failures in
            if failures[key] == nil, failures.count >= Self.maximumKeys,
                let stalest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key
            {
                failures[stalest] = nil
            }
            var times = failures[key, default: []]
            times.removeAll { $0 <= now - Self.window }
            times.append(now)
            failures[key] = Array(times.suffix(Self.maximumFailures))
        }
    }
}
