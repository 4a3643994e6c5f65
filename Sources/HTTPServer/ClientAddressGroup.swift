/// What counts as one client of the server, by its address: an IPv4 address, or an IPv6 address's /64 prefix,
/// since one IPv6 host commonly has a whole /64 to pick source addresses from (RFC 4291 section 2.5.1, RFC 8981).
/// The per-address connection cap counts by it (`SocketAddress.clientKey`), and so may whatever else follows a
/// client (failed logins).
public enum ClientAddressGroup {
    /// The group of a numeric address as text (`10.0.0.9`, `2001:db8:1:2::/64`; an IPv4-mapped IPv6 address as its
    /// IPv4 address); text that is no numeric address is its own group.
    public static func name(of address: String) -> String {
        guard let parsed = try? SocketAddress(numeric: address, port: 0) else { return address }
        switch parsed.clientKey {
        case .ipv4:
            return parsed.host
        case .ipv6Prefix(let prefix):
            let groups = (0..<4).map { String((prefix >> (48 - 16 * UInt64($0))) & 0xFFFF, radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        }
    }
}
