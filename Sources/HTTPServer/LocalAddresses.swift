import Glibc

/// The names and addresses of this machine, for the certificate a server makes for itself, and those a name
/// resolves to.
public enum LocalAddresses {
    /// The host name (`gethostname`), or nil.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// The numeric IPv4 and IPv6 addresses of every interface that is up, loopback included.
    public static var interfaceAddresses: [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var entry = list
        while let current = entry {
            entry = current.pointee.ifa_next
            guard let address = current.pointee.ifa_addr, current.pointee.ifa_flags & UInt32(IFF_UP) != 0
            else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            if let host = numericHost(address, length: length) { addresses.append(host) }
        }
        return addresses
    }

    /// The numeric addresses a host name resolves to (itself, when it is an address), in the resolver's order,
    /// each once; none when it does not resolve.
    public static func addresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var entry = list
        while let current = entry {
            entry = current.pointee.ai_next
            guard let address = current.pointee.ai_addr,
                let numeric = numericHost(address, length: current.pointee.ai_addrlen), !found.contains(numeric)
            else { continue }
            found.append(numeric)
        }
        return found
    }

    /// A socket address as its numeric host (`127.0.0.1`, `::1`), or nil.
    private static func numericHost(_ address: UnsafePointer<sockaddr>, length: socklen_t) -> String? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return nil
        }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
