import Glibc

/// An IPv4 or IPv6 socket address, parsed from numeric text or read back from the kernel.
struct SocketAddress: Sendable {
    /// The raw address, big enough for either family.
    var storage = sockaddr_storage()
    /// The length of the address in `storage`.
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)

    /// The address family, `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    /// An empty address for the kernel to fill (`accept`, `getsockname`).
    init() {}

    /// A copy of an address the system gave (`getaddrinfo`'s `ai_addr`), at most `sockaddr_storage`'s size.
    init(copying address: UnsafePointer<sockaddr>, length: socklen_t) {
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count))
        }
        self.length = socklen_t(count)
    }

    /// Parses a numeric IPv4 (`127.0.0.1`) or IPv6 (`::1`, `[::1]`) address; anything else is
    /// `invalidAddress`.
    init(numeric text: String, port: UInt16) throws(HTTPServerError) {
        var host = Substring(text)
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, String(host), &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            Self.store(&v4, in: &storage)
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else if inet_pton(AF_INET6, String(host), &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            Self.store(&v6, in: &storage)
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        } else {
            throw .invalidAddress(text)
        }
    }

    /// The port, in host byte order.
    var port: UInt16 {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            case AF_INET6: UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            default: 0
            }
        }
    }

    /// The IPv4 address bytes, also for an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), else nil.
    var ipv4Bytes: [UInt8]? {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                return withUnsafeBytes(of: raw.load(as: sockaddr_in.self).sin_addr) { Array($0) }
            case AF_INET6:
                let bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
                let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                return mapped ? Array(bytes[12..<16]) : nil
            default:
                return nil
            }
        }
    }

    /// The 16 bytes of an IPv6 address, else nil.
    var ipv6Bytes: [UInt8]? {
        guard family == AF_INET6 else { return nil }
        return withUnsafeBytes(of: storage) { raw in
            withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
        }
    }

    /// The address as text: dotted IPv4 (also for IPv4-mapped IPv6) or IPv6 without brackets.
    var host: String {
        if let v4 = ipv4Bytes { return v4.map(String.init).joined(separator: ".") }
        guard family == AF_INET6 else { return "" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self).sin6_addr }
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the address is loopback: 127.0.0.0/8 (plain or IPv4-mapped) or `::1`.
    var isLoopback: Bool {
        if let v4 = ipv4Bytes { return v4[0] == 127 }
        guard let bytes = ipv6Bytes else { return false }
        return bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
    }

    /// What the per-address connection cap counts by: the IPv4 address (plain or IPv4-mapped), or an IPv6
    /// address's /64 prefix, since one IPv6 host commonly has a whole /64 to pick source addresses from.
    var clientKey: ClientAddressKey {
        if let v4 = ipv4Bytes { return .ipv4(v4.reduce(0) { $0 << 8 | UInt32($1) }) }
        return .ipv6Prefix((ipv6Bytes ?? []).prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// Runs `body` with the address as the `sockaddr` pointer system calls take.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// Runs `body` with pointers the kernel fills with an address (`accept`, `getsockname`).
    mutating func withMutableSockaddr<Result>(
        _ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Result
    ) -> Result {
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var copy = storage
        var copyLength = length
        let result = withUnsafeMutableBytes(of: &copy) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &copyLength)
        }
        storage = copy
        length = copyLength
        return result
    }

    /// Copies a family-specific address into the storage.
    private static func store<Address>(_ address: inout Address, in storage: inout sockaddr_storage) {
        withUnsafeBytes(of: &address) { source in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
        }
    }
}

/// A client's address as the per-address connection cap counts it (`SocketAddress.clientKey`).
enum ClientAddressKey: Hashable, Sendable {
    /// An IPv4 address, in host byte order.
    case ipv4(UInt32)
    /// The first 64 bits of an IPv6 address, in host byte order.
    case ipv6Prefix(UInt64)
}
