/// What the fleet needs of a DNS-SD advertiser; the `vprinter` tool wires in the Avahi one.
public protocol PrinterAdvertising: Sendable {
    /// Advertises a printer served on `port` (now, or once the daemon answers).
    func advertise(_ printer: HostedPrinter, port: UInt16)
    /// Withdraws a printer's services (deleted, or switched off).
    func withdraw(_ printer: HostedPrinter)
    /// True once the printer's services are established, or when no daemon can be reached (printing goes on
    /// without DNS-SD): what `/readyz` waits for.
    func isSettled(_ printer: HostedPrinter) -> Bool
}
