import CAvahi
import Dispatch
import Synchronization

/// Advertises registrations over DNS-SD through the Avahi daemon, and keeps them advertised while the daemon
/// comes and goes. Use one per process; it may carry any number of registrations (one per printer).
///
/// All Avahi work happens on the threaded poll's thread or under its lock. Events go to `onEvent` in order,
/// on a private queue. Without a daemon (or a D-Bus system bus) the publisher reports
/// ``DNSSDEvent/daemonUnavailable`` once and keeps trying; registrations made meanwhile are advertised as
/// soon as the daemon answers.
public final class DNSSDPublisher: Sendable {
    /// How long to wait before trying again to reach the D-Bus system bus after it could not be reached.
    /// (When only the daemon is missing, Avahi itself watches the bus for it to appear.)
    public static let reconnectIntervalMilliseconds = 1000

    /// How many alternative names one registration may try after collisions before giving up with
    /// ``DNSSDEvent/failed(message:)``.
    public static let maximumRenames = 100

    let poll: ThreadedPoll?
    let state = Mutex(PublisherState())
    private let events = DispatchQueue(label: "vprinter.dnssd.events")
    private let onEvent: @Sendable (DNSSDEvent) -> Void

    /// Creates a publisher that reports to `onEvent`; nothing is advertised before ``start()``.
    public init(onEvent: @escaping @Sendable (DNSSDEvent) -> Void) {
        self.onEvent = onEvent
        self.poll = ThreadedPoll()
    }

    deinit {
        stop()
    }

    /// Connects to the Avahi daemon and advertises every registration published so far. Never fails for a
    /// missing daemon: it reports ``DNSSDEvent/daemonUnavailable`` and keeps trying. Calling it again, or
    /// after ``stop()``, does nothing.
    public func start() {
        let starting = state.withLock { state in
            guard state.phase == .idle else { return false }
            state.phase = .running
            return true
        }
        guard starting else { return }
        guard let poll, poll.start() else {
            emit(.failed(message: "cannot start the Avahi event loop"))
            return
        }
        poll.withLock { connect() }
    }

    /// Advertises `registration` (now, or as soon as the daemon answers) and returns its identifier.
    ///
    /// Throws when the registration breaks a DNS-SD limit (``DNSSDRegistration/validate()``).
    public func publish(_ registration: DNSSDRegistration) throws(DNSSDError) -> DNSSDRegistrationID {
        try registration.validate()
        let id = state.withLock { state in
            state.nextID += 1
            let id = DNSSDRegistrationID(rawValue: state.nextID)
            state.entries[id] = PublisherState.Entry(registration: registration)
            return id
        }
        poll?.withLock {
            if let client = state.withLock({ $0.runningClient }) {
                register(id, client: client.pointer)
            }
        }
        return id
    }

    /// Replaces the TXT record of the service of type `type` (for example `_ipp._tcp`) in a registration,
    /// on the wire at once when it is advertised.
    public func update(
        _ id: DNSSDRegistrationID, txt: [(key: String, value: String)], forType type: String
    ) throws(DNSSDError) {
        var service = DNSSDService(type: type, port: 0, txt: txt)
        try service.validate()
        let found: Result<DNSSDRegistration, DNSSDError> = state.withLock { state in
            guard var entry = state.entries[id] else { return .failure(.unknownRegistration(id)) }
            guard let index = entry.registration.services.firstIndex(where: { $0.type == type }) else {
                return .failure(.unknownServiceType(type))
            }
            service = entry.registration.services[index]
            service.txt = txt
            entry.registration.services[index] = service
            state.entries[id] = entry
            return .success(entry.registration)
        }
        let registration = try found.get()
        poll?.withLock {
            guard let group = state.withLock({ $0.entries[id]?.group?.pointer }) else { return }
            let list = TXTStringList.make(txt)
            defer { avahi_string_list_free(list) }
            let result = avahi_entry_group_update_service_txt_strlst(
                group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                registration.name, type, nil, list)
            if result < 0 {
                emit(.failed(message: "updating the TXT record of \(registration.name): \(Self.describe(result))"))
            }
        }
    }

    /// Stops advertising a registration. Unknown identifiers are ignored.
    public func withdraw(_ id: DNSSDRegistrationID) {
        guard let poll else {
            _ = state.withLock { $0.entries.removeValue(forKey: id) }
            return
        }
        poll.withLock {
            let entry = state.withLock { $0.entries.removeValue(forKey: id) }
            if let group = entry?.group?.pointer {
                avahi_entry_group_free(group)
            }
        }
    }

    /// Withdraws everything, disconnects from the daemon and ends the event loop. A stopped publisher stays
    /// stopped.
    public func stop() {
        let wasRunning = state.withLock { state in
            defer { state.phase = .stopped }
            return state.phase == .running
        }
        guard wasRunning, let poll else { return }
        poll.withLock {
            let (client, timer) = state.withLock { state in
                defer {
                    state.client = nil
                    state.retryTimer = nil
                    for id in state.entries.keys { state.entries[id]?.group = nil }
                }
                return (state.client, state.retryTimer)
            }
            if let timer { poll.free(timer: timer.pointer) }
            if let client { avahi_client_free(client.pointer) }
        }
        poll.stop()
    }

    /// The name a registration is advertised under now (after any renames), or nil for an unknown one.
    /// This is the printer's printer-dns-sd-name.
    public func currentName(of id: DNSSDRegistrationID) -> String? {
        state.withLock { $0.entries[id]?.registration.name }
    }

    /// The Avahi host name (for example `host.local`) while connected to the daemon: a host name that
    /// resolves for DNS-SD clients, for the URIs a printer advertises.
    public var hostName: String? {
        state.withLock { $0.hostName }
    }

    /// Hands an event to `onEvent` on the event queue.
    func emit(_ event: DNSSDEvent) {
        let onEvent = onEvent
        events.async { onEvent(event) }
    }

    /// Avahi's text for an error code.
    static func describe(_ error: Int32) -> String {
        guard let text = avahi_strerror(error) else { return "Avahi error \(error)" }
        return String(cString: text)
    }
}
