extension SocketAddress {
    /// The scope of the address.
    var scope: AddressScope {
        if let v4 = ipv4Bytes { return Self.scope(ipv4: v4) }
        guard let v6 = ipv6Bytes else { return .unspecified }
        if v6.allSatisfy({ $0 == 0 }) { return .unspecified }
        if isLoopback { return .loopback }
        if v6[0] == 0xFE && v6[1] & 0xC0 == 0x80 { return .linkLocal }
        if v6[0] == 0xFF { return .multicast }
        return .network
    }

    static func scope(ipv4 bytes: [UInt8]) -> AddressScope {
        switch bytes[0] {
        case 0: .unspecified
        case 127: .loopback
        case 169 where bytes[1] == 254: .linkLocal
        case 224...239: .multicast
        case 255 where bytes.allSatisfy({ $0 == 255 }): .broadcast
        default: .network
        }
    }

    /// The address bytes compared by a rule: 4 for IPv4 (also IPv4-mapped), 16 for IPv6.
    var ruleBytes: [UInt8] { ipv4Bytes ?? ipv6Bytes ?? [] }
}
