import DNSSD
import Synchronization
import VirtualPrinter

/// Advertises the printers over DNS-SD through Avahi, keeps each TXT record in step with the Avahi host name,
/// and records renames after collisions in printer-dns-sd-name.
///
/// Every printer is one registration (`_ipp._tcp` with `_print` and `_universal`, `_printer._tcp`, `_http._tcp`
/// with `_printer`). Its TXT record comes from ``Printer/advertisement`` (the printer's IPP attributes); the
/// `adminurl` key is printer-more-info as a client sees it through the advertised host name, so it is rebuilt
/// whenever Avahi reports a (new) host name.
final class Advertiser: Sendable {
    private let publisher: DNSSDPublisher
    private let registry: AdvertisedPrinters

    /// Creates an advertiser for `printers`, all served on `port`; `txtOverrides[i]` are the TXT keys the
    /// profile of `printers[i]` sets by hand (a nil value removes the key).
    init(
        printers: [Printer], port: UInt16, txtOverrides: [[(key: String, value: String?)]] = [],
        log: @escaping @Sendable (String) -> Void
    ) {
        let registry = AdvertisedPrinters(printers: printers, port: port, txtOverrides: txtOverrides, log: log)
        self.registry = registry
        publisher = DNSSDPublisher { [weak registry] event in registry?.handle(event) }
        registry.attach(publisher)
    }

    /// Connects to Avahi and publishes every printer; a missing daemon only logs one warning.
    func start() {
        publisher.start()
        registry.publishAll()
    }

    /// Withdraws everything and disconnects from Avahi.
    func stop() {
        publisher.stop()
    }
}

/// The printers an ``Advertiser`` publishes, by registration, and what it last published for each.
final class AdvertisedPrinters: Sendable {
    /// What is known about one published printer.
    private struct Published {
        /// Index into `printers`.
        var index: Int
        /// The host name the published TXT record's `adminurl` uses.
        var host: String
    }

    /// The host name in `adminurl` while Avahi has not told its own (no daemon yet).
    static let fallbackHost = "localhost"

    private let printers: [Printer]
    private let port: UInt16
    private let txtOverrides: [[(key: String, value: String?)]]
    private let log: @Sendable (String) -> Void
    private let publisher = Mutex<DNSSDPublisher?>(nil)
    private let published = Mutex<[DNSSDRegistrationID: Published]>([:])

    init(
        printers: [Printer], port: UInt16, txtOverrides: [[(key: String, value: String?)]],
        log: @escaping @Sendable (String) -> Void
    ) {
        self.printers = printers
        self.port = port
        self.txtOverrides = txtOverrides
        self.log = log
    }

    /// Gives the registry the publisher it publishes through (done once, right after both exist).
    func attach(_ publisher: DNSSDPublisher) {
        self.publisher.withLock { $0 = publisher }
    }

    /// Publishes every printer under its name, with the TXT record for the current Avahi host name.
    func publishAll() {
        guard let publisher = publisher.withLock({ $0 }) else { return }
        for index in printers.indices {
            let host = publisher.hostName ?? Self.fallbackHost
            let advertisement = printers[index].advertisement
            let name = advertisement.name
            do {
                // The lock is held across publish so that an event for the new id waits for its entry.
                try published.withLock { published throws(DNSSDError) in
                    let registration = DNSSDRegistration.printer(
                        name: name, port: port, txt: txt(index, host: host), tls: advertisement.security.offersTLS,
                        subtypes: advertisement.subtypes, plain: advertisement.security.offersPlain)
                    let id = try publisher.publish(registration)
                    published[id] = Published(index: index, host: host)
                }
            } catch {
                log("warning: cannot advertise '\(name)': \(error)")
            }
        }
    }

    /// The TXT record of printer `index` as seen through `host`.
    func txt(_ index: Int, host: String) -> [(key: String, value: String)] {
        let overrides = index < txtOverrides.count ? txtOverrides[index] : []
        return printers[index].advertisement.txtRecord(host: host, port: port, overrides: overrides).entries
    }

    /// Logs an event and acts on it: renames go to printer-dns-sd-name, a new host name to `adminurl`.
    func handle(_ event: DNSSDEvent) {
        switch event {
        case .registered(let id, let name):
            let security = printer(of: id)?.configuration.security ?? PrinterSecurity()
            let types = (security.offersPlain ? ["_ipp._tcp"] : []) + (security.offersTLS ? ["_ipps._tcp"] : [])
            let services = (types + ["_printer._tcp", "_http._tcp"]).joined(separator: ", ")
            log("advertised '\(name)' over DNS-SD (\(services))")
            printer(of: id)?.setDNSSDName(name)
            refreshHost(of: id)
        case .renamed(let id, let from, let to):
            log("DNS-SD name '\(from)' is taken; now advertised as '\(to)' (printer-dns-sd-name updated)")
            printer(of: id)?.setDNSSDName(to)
        case .daemonUnavailable:
            log("warning: no Avahi daemon reachable; printing goes on without DNS-SD advertising")
        case .daemonReconnected:
            log("Avahi daemon is back; advertising again")
        case .failed(let message):
            log("warning: DNS-SD: \(message)")
        }
    }

    /// The printer a registration advertises.
    private func printer(of id: DNSSDRegistrationID) -> Printer? {
        published.withLock { $0[id] }.map { printers[$0.index] }
    }

    /// Publishes the TXT record again when the Avahi host name differs from the one its `adminurl` uses.
    private func refreshHost(of id: DNSSDRegistrationID) {
        guard let publisher = publisher.withLock({ $0 }), let host = publisher.hostName,
            let entry = published.withLock({ $0[id] }), entry.host != host
        else { return }
        let security = printers[entry.index].configuration.security
        do {
            let record = txt(entry.index, host: host)
            if security.offersPlain { try publisher.update(id, txt: record, forType: "_ipp._tcp") }
            if security.offersTLS { try publisher.update(id, txt: record, forType: "_ipps._tcp") }
            published.withLock { $0[id]?.host = host }
        } catch {
            log("warning: cannot update the TXT record of '\(printers[entry.index].name)': \(error)")
        }
    }
}

extension PrinterAdvertisement {
    /// The printer's TXT record as DNS-SD clients that reach it through `host`:`port` see it: `adminurl` is
    /// printer-more-info under that host (`http://host:port/`, https with TLS); `TLS` and `air` follow the
    /// printer's security.
    func txtRecord(host: String, port: UInt16, overrides: [(key: String, value: String?)]) -> PrinterTXTRecord {
        let web = security.offersTLS ? "https" : "http"
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
