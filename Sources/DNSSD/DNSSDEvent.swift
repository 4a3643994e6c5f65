/// What a ``DNSSDPublisher`` reports about its advertisements and its connection to the Avahi daemon.
///
/// Events arrive in order on one background queue, never on the caller's thread.
public enum DNSSDEvent: Sendable, Equatable {
    /// Every service of the registration is established under `name` (its first time, after a rename, or
    /// after the daemon came back).
    case registered(id: DNSSDRegistrationID, name: String)
    /// Another host or process already uses `from`: the registration moves to `to`, the next free name.
    case renamed(id: DNSSDRegistrationID, from: String, to: String)
    /// No Avahi daemon (or no D-Bus system bus) can be reached; the publisher keeps trying. Reported once per
    /// outage.
    case daemonUnavailable
    /// The daemon answers again after ``daemonUnavailable``; every registration is being advertised again.
    case daemonReconnected
    /// Avahi refused something; `message` says what, in Avahi's words.
    case failed(message: String)
}
