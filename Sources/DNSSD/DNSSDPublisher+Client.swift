import CAvahi

/// The connection to the Avahi daemon: connecting, losing it, and getting it back.
///
/// Every method here runs on the threaded poll's thread or with its lock held. Avahi calls back through an
/// unretained context pointer to the publisher; ``DNSSDPublisher/stop()`` (also run by `deinit`) frees the
/// client and the timer before the publisher goes away, so no callback outlives it.
extension DNSSDPublisher {
    /// The context pointer handed to Avahi for callbacks to find this publisher.
    var context: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// The publisher behind a context pointer from Avahi.
    static func from(_ context: UnsafeMutableRawPointer?) -> DNSSDPublisher? {
        guard let context else { return nil }
        return Unmanaged<DNSSDPublisher>.fromOpaque(context).takeUnretainedValue()
    }

    /// Creates an avahi-client that waits for the daemon when it is not there (`AVAHI_CLIENT_NO_FAIL`). When
    /// even the D-Bus system bus cannot be reached, reports the daemon unavailable and tries again later.
    func connect() {
        guard let poll, state.withLock({ $0.phase == .running && $0.client == nil }) else { return }
        var error: Int32 = 0
        let client = avahi_client_new(
            poll.api, AVAHI_CLIENT_NO_FAIL,
            { client, clientState, context in
                DNSSDPublisher.from(context)?.clientChanged(client, clientState)
            }, context, &error)
        if let client {
            state.withLock { $0.client = AvahiHandle(client) }
        } else {
            reportUnavailable()
            scheduleReconnect()
        }
    }

    /// Follows the client's state. AVAHI_CLIENT_FAILURE with AVAHI_ERR_DISCONNECTED means the daemon went
    /// away: the client (and its entry groups) is freed and a new one waits for the daemon to come back.
    func clientChanged(_ client: OpaquePointer?, _ clientState: AvahiClientState) {
        guard let client else { return }
        switch clientState {
        case AVAHI_CLIENT_S_RUNNING:
            let hostName = avahi_client_get_host_name_fqdn(client).map { String(cString: $0) }
            let (reconnected, ids) = state.withLock { state in
                defer { state.unavailableReported = false }
                state.client = AvahiHandle(client)
                state.clientRunning = true
                state.hostName = hostName
                return (state.unavailableReported, state.entries.keys.sorted { $0.rawValue < $1.rawValue })
            }
            if reconnected {
                emit(.daemonReconnected)
            }
            for id in ids {
                register(id, client: client)
            }
        case AVAHI_CLIENT_S_REGISTERING, AVAHI_CLIENT_S_COLLISION:
            // The daemon is choosing its host name: withdraw now, advertise again once it runs.
            let groups = state.withLock { state in
                state.clientRunning = false
                return state.entries.values.compactMap(\.group?.pointer)
            }
            for group in groups {
                avahi_entry_group_reset(group)
            }
        case AVAHI_CLIENT_CONNECTING:
            state.withLock { state in
                state.client = AvahiHandle(client)
                state.clientRunning = false
                state.hostName = nil
            }
            reportUnavailable()
        case AVAHI_CLIENT_FAILURE:
            let error = avahi_client_errno(client)
            forget(client)
            avahi_client_free(client)
            if error == Int32(AVAHI_ERR_DISCONNECTED) {
                reportUnavailable()
                connect()
            } else {
                emit(.failed(message: "Avahi client: \(Self.describe(error))"))
                scheduleReconnect()
            }
        default:
            break
        }
    }

    /// Drops every reference to a client that is about to be freed (freeing it frees its entry groups).
    private func forget(_ client: OpaquePointer) {
        state.withLock { state in
            guard state.client?.pointer == client else { return }
            state.client = nil
            state.clientRunning = false
            state.hostName = nil
            for id in state.entries.keys {
                state.entries[id]?.group = nil
            }
        }
    }

    /// Reports ``DNSSDEvent/daemonUnavailable`` once per outage.
    func reportUnavailable() {
        let first = state.withLock { state in
            defer { state.unavailableReported = true }
            return !state.unavailableReported
        }
        if first {
            emit(.daemonUnavailable)
        }
    }

    /// Tries ``connect()`` again after ``reconnectIntervalMilliseconds``.
    private func scheduleReconnect() {
        guard let poll,
            let existing = state.withLock({ state -> AvahiHandle?? in
                state.phase == .running ? .some(state.retryTimer) : nil
            })
        else { return }
        let timer = poll.arm(
            existing?.pointer, afterMilliseconds: Self.reconnectIntervalMilliseconds, context: context,
            callback: { _, context in
                DNSSDPublisher.from(context)?.connect()
            })
        state.withLock { $0.retryTimer = timer.map(AvahiHandle.init) }
    }
}
