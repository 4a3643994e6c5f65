import Synchronization

/// The `.local` name this machine has on the link now (mDNS, RFC 6762): the one its Avahi daemon advertises,
/// `host.local`, or `host-2.local` after a collision, which may change while the printer runs. Asked of `query`
/// when a request names a `.local` name not known yet, at most once per `requeryInterval`, so that Host fields of
/// made-up names cannot make it ask more often.
public final class LocalLinkNames: Sendable {
    /// The least time between two questions to the daemon.
    public static let requeryInterval: Duration = .seconds(5)

    private let query: @Sendable () -> String?
    private struct State {
        var current: String?
        var askedAt: ContinuousClock.Instant?
    }
    private let state = Mutex(State())

    /// `query` answers the daemon's name (`DNSSDHostName.query`), or nil when no daemon answers.
    public init(query: @escaping @Sendable () -> String?) {
        self.query = query
    }

    /// Whether `name` (lowercased, without a trailing dot) is the machine's `.local` name.
    func contains(_ name: String) -> Bool {
        let now = ContinuousClock.now
        let mustAsk: Bool = state.withLock { state in
            if state.current == name { return false }
            if let asked = state.askedAt, asked.duration(to: now) < Self.requeryInterval { return false }
            state.askedAt = now
            return true
        }
        guard mustAsk else { return state.withLock { $0.current == name } }
        // Asked outside the lock; a request meanwhile compares with the last answer.
        let answered = query().map(HostPolicy.normalized)
        state.withLock { $0.current = answered ?? $0.current }
        return answered == name
    }
}
