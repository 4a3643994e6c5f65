extension DNSSDRegistration {
    /// Checks the registration against the DNS-SD limits before it reaches Avahi.
    ///
    /// RFC 6763 sections 4.1.1 (instance names), 6.1-6.4 (TXT strings and keys), 7 and 7.2 (service types).
    public func validate() throws(DNSSDError) {
        try Self.validateName(name)
        guard !services.isEmpty else {
            throw .invalidServiceSet("a registration needs at least one service")
        }
        var types: Set<String> = []
        for service in services {
            try service.validate()
            guard types.insert(service.type.lowercased()).inserted else {
                throw .invalidServiceSet("service type \(service.type) appears twice")
            }
        }
    }

    /// Checks an instance name: not empty, at most ``DNSSDLimits/maximumNameBytes`` bytes of UTF-8.
    static func validateName(_ name: String) throws(DNSSDError) {
        let bytes = name.utf8.count
        guard bytes > 0, bytes <= DNSSDLimits.maximumNameBytes else {
            throw .invalidName("the name must have 1 to \(DNSSDLimits.maximumNameBytes) bytes, not \(bytes)")
        }
    }
}

extension DNSSDService {
    /// Checks the service type, its subtypes and its TXT record.
    public func validate() throws(DNSSDError) {
        let parts = type.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, Self.isServiceLabel(parts[0]), parts[1] == "_tcp" || parts[1] == "_udp" else {
            throw .invalidServiceType(type)
        }
        for subtype in subtypes where !Self.isServiceLabel(Substring(subtype)) {
            throw .invalidServiceType("subtype \(subtype) of \(type)")
        }
        var keys: Set<String> = []
        var recordBytes = 0
        for (key, value) in txt {
            let printable = key.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value <= 0x7E && $0 != "=" }
            guard !key.isEmpty, printable else {
                throw .invalidTXTKey(key)
            }
            guard keys.insert(key.lowercased()).inserted else {
                throw .invalidTXTKey("\(key) appears twice")
            }
            let entryBytes = key.utf8.count + 1 + value.utf8.count
            guard entryBytes <= DNSSDLimits.maximumTXTEntryBytes else {
                throw .txtTooLong("\(key)= has \(entryBytes) bytes, at most \(DNSSDLimits.maximumTXTEntryBytes)")
            }
            recordBytes += 1 + entryBytes
        }
        guard recordBytes <= DNSSDLimits.maximumTXTRecordBytes else {
            throw .txtTooLong("the record has \(recordBytes) bytes, at most \(DNSSDLimits.maximumTXTRecordBytes)")
        }
    }

    /// True for `_` followed by 1 to 15 letters, digits or hyphens. RFC 6763 section 7.2.
    private static func isServiceLabel(_ label: Substring) -> Bool {
        guard label.first == "_" else { return false }
        let body = label.dropFirst()
        return !body.isEmpty && body.utf8.count <= DNSSDLimits.maximumServiceLabelBytes
            && body.unicodeScalars.allSatisfy(Self.isLabelCharacter)
    }

    /// An ASCII letter, digit or hyphen.
    private static func isLabelCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }
}
