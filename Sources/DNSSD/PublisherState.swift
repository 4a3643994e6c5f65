/// Everything a ``DNSSDPublisher`` knows, kept in one `Mutex`.
///
/// The Avahi handles in it are touched only with the threaded poll's lock held (or on its thread); the
/// `Mutex` is never held across a call into Avahi, because Avahi may call back into the publisher from
/// inside such a call.
struct PublisherState {
    /// The publisher's life: created, advertising, or stopped for good.
    enum Phase {
        case idle, running, stopped
    }

    /// One registration and the Avahi entry group that advertises it.
    struct Entry {
        /// The registration, its `name` being the one advertised now (after renames).
        var registration: DNSSDRegistration
        /// The entry group holding its services, while connected to the daemon.
        var group: AvahiHandle?
        /// How many times it was renamed after collisions.
        var renames = 0
    }

    var phase = Phase.idle
    /// The avahi-client connection, also while it waits for the daemon.
    var client: AvahiHandle?
    /// True once the daemon is in the running state on `client`.
    var clientRunning = false
    /// The timer that retries connecting to the bus.
    var retryTimer: AvahiHandle?
    /// True after daemonUnavailable was reported, until the daemon answers again.
    var unavailableReported = false
    /// The daemon's host name, while connected.
    var hostName: String?
    var nextID = 0
    var entries: [DNSSDRegistrationID: Entry] {
        didSet { groupsChanged = true }
    }
    /// The registration of each entry group, rebuilt from `entries` when they changed (a fleet has thousands of
    /// groups, and Avahi reports each group's state changes).
    private var groupIndex: [UInt: DNSSDRegistrationID] = [:]
    private var groupsChanged = false

    init() {
        entries = [:]
    }

    /// The client, when the daemon is running on it and registrations can be added.
    var runningClient: AvahiHandle? {
        clientRunning ? client : nil
    }

    /// The registration that an entry group belongs to.
    mutating func id(of group: OpaquePointer?) -> DNSSDRegistrationID? {
        guard let group else { return nil }
        if groupsChanged {
            groupIndex = [:]
            for (id, entry) in entries {
                if let pointer = entry.group?.pointer { groupIndex[UInt(bitPattern: Int(bitPattern: pointer))] = id }
            }
            groupsChanged = false
        }
        return groupIndex[UInt(bitPattern: Int(bitPattern: group))]
    }
}
