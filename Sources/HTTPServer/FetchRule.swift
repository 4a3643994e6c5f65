import Glibc

/// One destination of `--fetch-allow` or `--fetch-deny`: a host name or address with an optional port
/// (`docs.example`, `docs.example:8080`, `127.0.0.1:8000`, `[::1]:8000`), a network in CIDR notation (`10.0.0.0/8`,
/// `fd00::/8`), or `*`, every destination.
public struct FetchRule: Sendable, Hashable, CustomStringConvertible {
    /// What the rule matches.
    enum Target: Sendable, Hashable {
        /// Every destination.
        case any
        /// A host name as a URL names it, lowercased.
        case host(String)
        /// The network's address bytes (4 or 16) and prefix length; an address is a network of its full length.
        case network(bytes: [UInt8], prefix: Int)
    }

    let target: Target
    /// The port it is limited to; nil: every port.
    let port: UInt16?
    /// The rule as given, for messages.
    public let description: String

    /// The longest rule accepted, in bytes (a host name is at most 253, RFC 1035 section 2.3.4).
    public static let maximumLength = 300

    /// Parses a rule; nil when it is none of the forms above.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength,
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        description = text
        if text == "*" {
            target = .any
            port = nil
            return
        }
        if let slash = text.firstIndex(of: "/") {
            guard let prefix = Int(text[text.index(after: slash)...]),
                let bytes = Self.addressBytes(String(text[..<slash])), (0...(bytes.count * 8)).contains(prefix)
            else { return nil }
            target = .network(bytes: bytes, prefix: prefix)
            port = nil
            return
        }
        var host = Substring(text)
        var port: UInt16?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let given = UInt16(after.dropFirst()), given > 0 else { return nil }
                port = given
            }
            host = host[host.index(after: host.startIndex)..<close]
            guard let bytes = Self.addressBytes(String(host)), bytes.count == 16 else { return nil }
            target = .network(bytes: bytes, prefix: 128)
            self.port = port
            return
        } else if let colon = host.firstIndex(of: ":") {
            guard host.lastIndex(of: ":") == colon, let given = UInt16(host[host.index(after: colon)...]), given > 0
            else {
                // More than one colon: an IPv6 address without brackets, every port.
                guard let bytes = Self.addressBytes(String(host)), bytes.count == 16 else { return nil }
                target = .network(bytes: bytes, prefix: 128)
                self.port = nil
                return
            }
            port = given
            host = host[..<colon]
        }
        guard !host.isEmpty, host.utf8.allSatisfy(Self.isHostByte) else { return nil }
        // An address is matched with the address a name resolved to, a name with the name the URL gave.
        if let bytes = Self.addressBytes(String(host)) {
            target = .network(bytes: bytes, prefix: bytes.count * 8)
        } else {
            target = .host(host.lowercased())
        }
        self.port = port
    }

    /// Whether the rule matches a fetch of `host` (as the URL names it) at `address`, port `port`.
    func matches(host: String, address: SocketAddress, port: UInt16) -> Bool {
        if let own = self.port, own != port { return false }
        switch target {
        case .any:
            return true
        case .host(let name):
            return name == host.lowercased()
        case .network(let bytes, let prefix):
            let candidate = address.ruleBytes
            guard candidate.count == bytes.count else { return false }
            var remaining = prefix
            for (mine, theirs) in zip(bytes, candidate) where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if mine & mask != theirs & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    /// The bytes of a numeric IPv4 (4) or IPv6 (16; an IPv4-mapped one as its IPv4 address) address, or nil.
    static func addressBytes(_ text: String) -> [UInt8]? {
        guard let address = try? SocketAddress(numeric: text, port: 0) else { return nil }
        return address.ruleBytes
    }

    /// Letters, digits, `-` and `.`: the bytes of a host name (RFC 1123 section 2.1) or an IPv4 address.
    static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
