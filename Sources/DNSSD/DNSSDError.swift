/// Why a registration cannot be advertised as given. The publisher checks every registration before it
/// reaches Avahi.
public enum DNSSDError: Error, Sendable, Equatable {
    /// The instance name is empty or longer than ``DNSSDLimits/maximumNameBytes`` bytes of UTF-8.
    case invalidName(String)
    /// The service type is not of the form `_name._tcp` or `_name._udp`, or a subtype is not `_name`.
    case invalidServiceType(String)
    /// The registration has no service, or has two services of the same type.
    case invalidServiceSet(String)
    /// A TXT key is empty, contains `=`, is not printable ASCII, or appears twice in one record.
    case invalidTXTKey(String)
    /// A `key=value` string is longer than ``DNSSDLimits/maximumTXTEntryBytes`` bytes, or the whole record
    /// longer than ``DNSSDLimits/maximumTXTRecordBytes``.
    case txtTooLong(String)
    /// No registration has this identifier (never published, or already withdrawn).
    case unknownRegistration(DNSSDRegistrationID)
    /// The registration has no service of this type, so its TXT record cannot be updated.
    case unknownServiceType(String)
}

/// The DNS-SD size limits that every registration is checked against.
public enum DNSSDLimits {
    /// RFC 6763 section 4.1.1: an instance name is at most 63 bytes of UTF-8 (one DNS label).
    public static let maximumNameBytes = 63
    /// RFC 6763 section 6.1: each `key=value` string is at most 255 bytes (one length byte).
    public static let maximumTXTEntryBytes = 255
    /// RFC 6763 section 6.2 recommends keeping a TXT record under 1300 bytes so that it fits one packet; an
    /// AirPrint record is about 600 bytes.
    public static let maximumTXTRecordBytes = 1300
    /// RFC 6763 section 7.2: the service name label (without the underscore) is at most 15 characters.
    public static let maximumServiceLabelBytes = 15
}
