/// One DNS-SD service instance to advertise: a service type, its subtypes, a port and a TXT record.
///
/// RFC 6763 section 7 (service types), section 7.1 (subtypes), section 6 (TXT records). The instance name is
/// not part of the service: every service of one ``DNSSDRegistration`` is advertised under the same name.
public struct DNSSDService: Sendable, Equatable {
    /// The service type with its transport, for example `_ipp._tcp`.
    public var type: String
    /// Subtype labels without the `._sub` part, for example `["_print", "_universal"]`.
    public var subtypes: [String]
    /// The TCP port; 0 only for a service that holds a name without offering anything (`_printer._tcp`).
    public var port: UInt16
    /// The TXT record's key/value pairs, in the order they are sent on the wire.
    public var txt: [(key: String, value: String)]

    /// Creates a service description; ``DNSSDPublisher/publish(_:)`` checks it against the DNS-SD limits.
    public init(type: String, subtypes: [String] = [], port: UInt16, txt: [(key: String, value: String)] = []) {
        self.type = type
        self.subtypes = subtypes
        self.port = port
        self.txt = txt
    }

    public static func == (lhs: DNSSDService, rhs: DNSSDService) -> Bool {
        lhs.type == rhs.type && lhs.subtypes == rhs.subtypes && lhs.port == rhs.port
            && lhs.txt.count == rhs.txt.count
            && zip(lhs.txt, rhs.txt).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension DNSSDService {
    /// `_ipp._tcp` with the `_print` subtype (IPP Everywhere) and `_universal` (AirPrint).
    public static func ipp(port: UInt16, txt: [(key: String, value: String)]) -> DNSSDService {
        DNSSDService(type: "_ipp._tcp", subtypes: ["_print", "_universal"], port: port, txt: txt)
    }

    /// `_ipps._tcp` with the same subtypes as ``ipp(port:txt:)``, for a printer that offers TLS.
    public static func ipps(port: UInt16, txt: [(key: String, value: String)]) -> DNSSDService {
        DNSSDService(type: "_ipps._tcp", subtypes: ["_print", "_universal"], port: port, txt: txt)
    }

    /// `_printer._tcp` on port 0: no LPD service, it only holds the name (as CUPS and PAPPL do), with an
    /// empty TXT record.
    public static let lpdPlaceholder = DNSSDService(type: "_printer._tcp", port: 0)

    /// `_http._tcp` with the `_printer` subtype, for the printer's web page.
    public static func web(port: UInt16) -> DNSSDService {
        DNSSDService(type: "_http._tcp", subtypes: ["_printer"], port: port)
    }
}
