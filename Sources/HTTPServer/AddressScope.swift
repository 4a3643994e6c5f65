/// Where an address reaches (RFC 6890's special-purpose registries, RFC 4291 section 2.4): what the fetch policy
/// (`FetchPolicy`) decides on. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is classed as its IPv4 address.
public enum AddressScope: String, Sendable, Hashable {
    /// `0.0.0.0/8`, `::`: no host; a connection to it reaches this machine.
    case unspecified
    /// `127.0.0.0/8`, `::1`: this machine.
    case loopback
    /// `169.254.0.0/16`, `fe80::/10`: the link only (and, at 169.254.169.254, a cloud's metadata service).
    case linkLocal = "link-local"
    /// `224.0.0.0/4`, `ff00::/8`.
    case multicast
    /// `255.255.255.255`.
    case broadcast
    /// Any other address: a host on a network.
    case network
}
