/// A set of services advertised together under one instance name, for example everything one printer offers.
///
/// All services share the name; when any of them collides, the whole set moves to the next free name
/// (`Name (2)`), so a printer's `_ipp`, `_ipps`, `_printer` and `_http` services never end up under
/// different names.
public struct DNSSDRegistration: Sendable, Equatable {
    /// The service instance name a person sees, for example `Office Laser`. RFC 6763 section 4.1.1.
    public var name: String
    /// The services to advertise under ``name``; at most one per service type.
    public var services: [DNSSDService]

    /// Creates a registration; ``DNSSDPublisher/publish(_:)`` checks it against the DNS-SD limits.
    public init(name: String, services: [DNSSDService]) {
        self.name = name
        self.services = services
    }

    /// The services a printer advertises, as IPP Everywhere and AirPrint expect: `_ipp._tcp` (unless `plain`
    /// is false: a printer that speaks TLS only) with `txt` and `_ipps._tcp` (when TLS is on) with `secureTXT`
    /// (`txt` when nil: the records differ in their web URLs, http and https), `_printer._tcp`
    /// on port 0, and `_http._tcp` for the web page served on the same port. `subtypes` are those of
    /// `_ipp._tcp` (and `_ipps._tcp`): `_print` for an IPP Everywhere printer, `_universal` for an AirPrint one;
    /// by default both. `scanner` and `secureScanner` are the TXT records of `_uscan._tcp` and `_uscans._tcp`.
    public static func printer(
        name: String, port: UInt16, txt: [(key: String, value: String)],
        secureTXT: [(key: String, value: String)]? = nil, tls: Bool = false,
        subtypes: [String] = ["_print", "_universal"], plain: Bool = true,
        scanner: [(key: String, value: String)]? = nil, secureScanner: [(key: String, value: String)]? = nil,
        prints: Bool = true
    ) -> DNSSDRegistration {
        var services: [DNSSDService] = []
        if prints && plain {
            services.append(DNSSDService(type: "_ipp._tcp", subtypes: subtypes, port: port, txt: txt))
        }
        if prints && (tls || !plain) {
            services.append(
                DNSSDService(type: "_ipps._tcp", subtypes: subtypes, port: port, txt: secureTXT ?? txt))
        }
        // An eSCL scanner beside the printer: `_uscan._tcp`, and `_uscans._tcp` under TLS, on the same port.
        if let scanner {
            if plain { services.append(DNSSDService(type: "_uscan._tcp", port: port, txt: scanner)) }
            if tls || !plain {
                services.append(DNSSDService(type: "_uscans._tcp", port: port, txt: secureScanner ?? scanner))
            }
        }
        // A scanner alone (`prints` false) is no printer: no IPP, no LPD placeholder.
        if prints { services.append(.lpdPlaceholder) }
        services.append(.web(port: port))
        return DNSSDRegistration(name: name, services: services)
    }
}

/// Identifies one published registration for ``DNSSDPublisher/update(_:txt:forType:)`` and
/// ``DNSSDPublisher/withdraw(_:)``.
public struct DNSSDRegistrationID: Sendable, Hashable, CustomStringConvertible {
    /// A number unique within one publisher.
    public let rawValue: Int

    /// Wraps a number handed out by a publisher.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public var description: String { "registration-\(rawValue)" }
}
