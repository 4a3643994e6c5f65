import CAvahi

/// The host name the Avahi daemon advertises for this machine (`host.local`, or `host-2.local` after a
/// collision), asked once and at once: for a certificate that must name it before advertising starts.
public enum DNSSDHostName {
    /// The daemon's fully qualified host name, or nil when no daemon answers.
    public static func query() -> String? {
        guard let poll = avahi_simple_poll_new() else { return nil }
        defer { avahi_simple_poll_free(poll) }
        var error: Int32 = 0
        guard
            let client = avahi_client_new(avahi_simple_poll_get(poll), AvahiClientFlags(0), { _, _, _ in }, nil, &error)
        else { return nil }
        defer { avahi_client_free(client) }
        return avahi_client_get_host_name_fqdn(client).map { String(cString: $0) }
    }
}
