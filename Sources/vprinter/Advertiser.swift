import DNSSD
import VirtualPrinter

/// Advertises the printers over DNS-SD through Avahi and follows renames.
final class Advertiser: Sendable {
    private let publisher: DNSSDPublisher
    private let printers: [Printer]
    private let port: UInt16
    private let log: @Sendable (String) -> Void

    init(printers: [Printer], port: UInt16, log: @escaping @Sendable (String) -> Void) {
        self.printers = printers
        self.port = port
        self.log = log
        let byName = printers
        publisher = DNSSDPublisher { event in
            switch event {
            case .registered(_, let name):
                log("advertised '\(name)' over DNS-SD")
            case .renamed(_, let from, let to):
                log("DNS-SD name '\(from)' is taken; now advertised as '\(to)'")
                byName.first { $0.advertisement.name == from }?.setDNSSDName(to)
            case .daemonUnavailable:
                log("warning: no Avahi daemon reachable; printing goes on without DNS-SD advertising")
            case .daemonReconnected:
                log("Avahi daemon is back; advertising again")
            case .failed(let message):
                log("warning: DNS-SD: \(message)")
            }
        }
    }

    func start() {
        publisher.start()
        for printer in printers {
            let ad = printer.advertisement
            let host = publisher.hostName.map { "\($0).local" } ?? "localhost"
            let txt = PrinterTXTRecord(
                resourcePath: ad.resourcePath, makeAndModel: ad.makeAndModel, adminURL: "http://\(host):\(port)/",
                location: ad.location, product: ad.product, documentFormats: ad.documentFormats, uuid: ad.uuid,
                color: ad.color, duplex: ad.duplex, copies: ad.copies, kinds: ad.kinds,
                maximumMediaWidth: ad.maximumMediaWidth, urfSupported: ad.urfSupported)
            do {
                _ = try publisher.publish(.printer(name: ad.name, port: port, txt: txt.entries))
            } catch {
                log("warning: cannot advertise '\(ad.name)': \(error)")
            }
        }
    }

    func stop() {
        publisher.stop()
    }
}
