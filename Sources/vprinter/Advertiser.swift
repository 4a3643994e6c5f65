import DNSSD
import Dispatch
import PrinterCore
import PrinterHTTP
import Scanner
import Synchronization
import VirtualPrinterKit

/// Advertises printers over DNS-SD through Avahi (one client, one entry group per printer), keeps each TXT
/// record in step with the Avahi host name, and records renames after collisions in printer-dns-sd-name.
///
/// Every printer is one registration (`_ipp._tcp` with `_print` and `_universal`, `_ipps._tcp` with the same
/// subtypes when TLS is on, without `_ipp._tcp` for `--tls-only`, `_printer._tcp`, `_http._tcp` with `_printer`). Its TXT record comes from ``Printer/advertisement`` (the printer's IPP attributes); the
/// `adminurl` key is printer-more-info as a client sees it through the advertised host name, so it is rebuilt
/// whenever Avahi reports a (new) host name. Printers come and go at runtime (created, deleted, switched off).
final class Advertiser: PrinterAdvertising {
    private let publisher: DNSSDPublisher
    private let registry: AdvertisedPrinters

    init(log: @escaping @Sendable (String) -> Void) {
        let registry = AdvertisedPrinters(log: log)
        self.registry = registry
        publisher = DNSSDPublisher { [weak registry] event in registry?.handle(event) }
        registry.attach(publisher)
    }

    /// Connects to Avahi; a missing daemon only logs one warning. Printers advertised before are published then.
    func start() {
        publisher.start()
    }

    /// Withdraws everything and disconnects from Avahi.
    func stop() {
        publisher.stop()
    }

    /// Publishing and withdrawing run here, in the order asked, so that no caller waits for Avahi: with a fleet
    /// of printers each registration costs the daemon more, and start-up, the API and IPP must not wait for it.
    private let work = DispatchQueue(label: "vprinter.dnssd.publish")

    func advertise(_ printer: HostedPrinter, port: UInt16) {
        let registry = registry
        work.async { registry.publish(printer, port: port) }
    }

    func withdraw(_ printer: HostedPrinter) {
        let registry = registry
        work.async { registry.withdraw(printer) }
    }

    func isSettled(_ printer: HostedPrinter) -> Bool {
        registry.isSettled(printer)
    }
}

/// The printers an ``Advertiser`` publishes, by registration, and what it last published for each.
final class AdvertisedPrinters: Sendable {
    /// What is known about one published printer.
    private struct Published {
        var printer: HostedPrinter
        var port: UInt16
        /// The host name the published TXT record's `adminurl` uses.
        var host: String
        /// Whether Avahi reported the services established under their current name.
        var established = false
    }

    private struct State {
        var published: [DNSSDRegistrationID: Published] = [:]
        /// The registration of each printer, by printer-id.
        var registrations: [Int: DNSSDRegistrationID] = [:]
    }

    /// What `/readyz` asks, under a lock of its own: `state` is held across each call into Avahi, which a busy
    /// daemon answers slowly, and readiness must not wait for that.
    private struct Settled {
        /// Printer-ids whose services are established.
        var established: Set<Int> = []
        /// True while no Avahi daemon can be reached.
        var daemonAbsent = false
    }

    /// The host name in `adminurl` while Avahi has not told its own (no daemon yet).
    static let fallbackHost = "localhost"

    private let log: @Sendable (String) -> Void
    private let publisher = Mutex<DNSSDPublisher?>(nil)
    private let state = Mutex(State())
    private let settled = Mutex(Settled())

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// Gives the registry the publisher it publishes through (done once, right after both exist).
    func attach(_ publisher: DNSSDPublisher) {
        self.publisher.withLock { $0 = publisher }
    }

    /// Publishes a printer under its name, with the TXT record for the current Avahi host name; a printer
    /// published already is left as it is.
    func publish(_ printer: HostedPrinter, port: UInt16) {
        guard let publisher = publisher.withLock({ $0 }) else { return }
        let host = publisher.hostName ?? Self.fallbackHost
        let advertisement = printer.printer.advertisement
        let name = advertisement.name
        do {
            // The lock is held across publish so that an event for the new id waits for its entry.
            try state.withLock { state throws(DNSSDError) in
                guard state.registrations[printer.id] == nil else { return }
                let id = try publisher.publish(
                    .printer(
                        name: name, port: port, txt: Self.txt(printer, port: port, host: host, secure: false),
                        secureTXT: Self.txt(printer, port: port, host: host, secure: true),
                        tls: advertisement.security.offersTLS, subtypes: advertisement.subtypes,
                        plain: advertisement.security.offersPlain,
                        scanner: Self.scannerTXT(printer, port: port, host: host, secure: false),
                        secureScanner: Self.scannerTXT(printer, port: port, host: host, secure: true),
                        prints: printer.printer.prints))
                state.published[id] = Published(printer: printer, port: port, host: host)
                state.registrations[printer.id] = id
            }
        } catch {
            log("warning: cannot advertise '\(name)': \(error)")
        }
    }

    /// Withdraws a printer's services (nothing when it is not published).
    func withdraw(_ printer: HostedPrinter) {
        guard let publisher = publisher.withLock({ $0 }) else { return }
        let id: DNSSDRegistrationID? = state.withLock { state in
            guard let id = state.registrations.removeValue(forKey: printer.id) else { return nil }
            state.published[id] = nil
            return id
        }
        _ = settled.withLock { $0.established.remove(printer.id) }
        if let id {
            publisher.withdraw(id)
            log("withdrew '\(printer.name)' from DNS-SD")
        }
    }

    /// True once the printer's services are established, or while no daemon can be reached.
    func isSettled(_ printer: HostedPrinter) -> Bool {
        settled.withLock { $0.daemonAbsent || $0.established.contains(printer.id) }
    }

    /// The service types a printer with this security is advertised under, as the log names them: those of the
    /// registration `DNSSDRegistration.printer` makes for it.
    static func serviceTypes(_ security: PrinterSecurity, prints: Bool = true, scans: Bool = false) -> [String] {
        DNSSDRegistration.printer(
            name: "", port: 0, txt: [], tls: security.offersTLS, plain: security.offersPlain,
            scanner: scans ? [] : nil, prints: prints
        ).services.map(\.type)
    }

    /// The TXT record of a printer's scanner as seen through `host`, for `_uscans._tcp` when `secure` (its web
    /// URLs https) or `_uscan._tcp` (http); nil when it has none (docs/scanning.md).
    static func scannerTXT(
        _ hosted: HostedPrinter, port: UInt16, host: String, secure: Bool
    ) -> [(key: String, value: String)]? {
        let printer = hosted.printer
        guard let scanner = printer.scanner?.capabilities else { return nil }
        let web = secure ? "https" : "http"
        let colorSpaces: [String] = scanner.colorModes.map { mode in
            switch mode {
            case .rgb24: "color"
            case .grayscale8: "grayscale"
            case .blackAndWhite1: "binary"
            }
        }
        return ScannerTXTRecord(
            rootPath: String(printer.configuration.resourcePath.dropFirst()) + "/" + PrinterService.esclSegment,
            makeAndModel: scanner.makeAndModel, version: ScannerCapabilities.version, uuid: scanner.uuid,
            adminURL: "\(web)://\(host):\(port)\(printer.configuration.resourcePath)",
            iconURL: "\(web)://\(host):\(port)\(printer.configuration.resourcePath)/icon-128.png",
            formats: scanner.formats.map(\.rawValue), colorSpaces: colorSpaces,
            inputSources: (scanner.platen != nil ? ["platen"] : []) + (scanner.feeder != nil ? ["adf"] : []),
            duplex: scanner.duplex, location: printer.advertisement.location
        ).entries
    }

    /// The TXT record of a printer as seen through `host`, for `_ipps._tcp` when `secure` (`adminurl` https) or
    /// `_ipp._tcp` (http): each record's `adminurl` is the printer-more-info a client connected through that
    /// service is given (self-certification B-4 and B-5.5).
    static func txt(
        _ printer: HostedPrinter, port: UInt16, host: String, secure: Bool
    ) -> [(key: String, value: String)] {
        printer.printer.advertisement.txtRecord(
            host: host, port: port, secure: secure, overrides: printer.txtOverrides
        ).entries
    }

    /// Logs an event and acts on it: renames go to printer-dns-sd-name, a new host name to `adminurl`.
    func handle(_ event: DNSSDEvent) {
        switch event {
        case .registered(let id, let name):
            let hosted = state.withLock { state -> HostedPrinter? in
                state.published[id]?.established = true
                return state.published[id]?.printer
            }
            if let hosted { _ = settled.withLock { $0.established.insert(hosted.id) } }
            let printer = hosted?.printer
            let security = printer?.configuration.security ?? PrinterSecurity()
            let types = Self.serviceTypes(security, prints: printer?.prints ?? true, scans: printer?.scanner != nil)
            log("advertised '\(name)' over DNS-SD (\(types.joined(separator: ", ")))")
            printer?.setDNSSDName(name)
            refreshHost(of: id)
        case .renamed(let id, let from, let to):
            log("DNS-SD name '\(from)' is taken; now advertised as '\(to)' (printer-dns-sd-name updated)")
            let hosted = state.withLock { state -> HostedPrinter? in
                state.published[id]?.established = false
                return state.published[id]?.printer
            }
            if let hosted { _ = settled.withLock { $0.established.remove(hosted.id) } }
            hosted?.printer.setDNSSDName(to)
        case .daemonUnavailable:
            settled.withLock { $0.daemonAbsent = true }
            log("warning: no Avahi daemon reachable; printing goes on without DNS-SD advertising")
        case .daemonReconnected:
            state.withLock { state in
                for id in state.published.keys { state.published[id]?.established = false }
            }
            settled.withLock { $0 = Settled() }
            log("Avahi daemon is back; advertising again")
        case .failed(let message):
            log("warning: DNS-SD: \(message)")
        }
    }

    /// Publishes the TXT record again when the Avahi host name differs from the one its `adminurl` uses.
    private func refreshHost(of id: DNSSDRegistrationID) {
        guard let publisher = publisher.withLock({ $0 }), let host = publisher.hostName,
            let entry = state.withLock({ $0.published[id] }), entry.host != host
        else { return }
        let security = entry.printer.printer.configuration.security
        do {
            let prints = entry.printer.printer.prints
            for (type, secure) in [("_ipp._tcp", false), ("_ipps._tcp", true)]
            where prints && (secure ? security.offersTLS : security.offersPlain) {
                let record = Self.txt(entry.printer, port: entry.port, host: host, secure: secure)
                try publisher.update(id, txt: record, forType: type)
            }
            for (type, secure) in [("_uscan._tcp", false), ("_uscans._tcp", true)]
            where secure ? security.offersTLS : security.offersPlain {
                if let scanner = Self.scannerTXT(entry.printer, port: entry.port, host: host, secure: secure) {
                    try publisher.update(id, txt: scanner, forType: type)
                }
            }
            state.withLock { $0.published[id]?.host = host }
        } catch {
            log("warning: cannot update the TXT record of '\(entry.printer.name)': \(error)")
        }
    }
}

extension PrinterAdvertisement {
    /// The printer's TXT record as DNS-SD clients that reach it through `host`:`port` see it: `adminurl` is
    /// printer-more-info under that host, `https://host:port/` in the `_ipps._tcp` record (`secure`) and
    /// `http://host:port/` in the `_ipp._tcp` one (by default, the record of the printer's most secure service);
    /// `TLS` and `air` follow the printer's security.
    func txtRecord(
        host: String, port: UInt16, secure: Bool? = nil, overrides: [(key: String, value: String?)]
    ) -> PrinterTXTRecord {
        let web = (secure ?? security.offersTLS) ? "https" : "http"
        return PrinterTXTRecord(
            resourcePath: resourcePath, makeAndModel: makeAndModel, adminURL: "\(web)://\(host):\(port)/",
            location: location, product: product, documentFormats: documentFormats, uuid: uuid,
            tlsVersion: security.offersTLS ? (security.tlsVersion ?? "1.2") : nil, color: color,
            duplex: duplex, copies: copies, kinds: kinds, maximumMediaWidth: maximumMediaWidth,
            urfSupported: urfSupported,
            authentication: security.requiresAuthentication ? ["username", "password"] : nil,
            mopriaCertified: mopriaCertified, overrides: overrides)
    }
}
