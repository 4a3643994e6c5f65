/// A printer as the process hosts it: the printer, its System Service id, its own port when it has one, and
/// the TXT keys its profile sets by hand (for the advertiser).
public struct HostedPrinter: Sendable {
    public let printer: Printer
    /// printer-id (PWG 5100.22): unique in the process, from 1, never reused while it runs.
    public let id: Int
    /// The port it listens on besides the process's port, when the configuration gave one (resolved when 0).
    public let port: UInt16?
    /// TXT keys the profile sets by hand (a nil value removes the key).
    public let txtOverrides: [(key: String, value: String?)]
    /// Whether it was created at runtime (POST /api/v1/printers, Create-Printer) rather than at start.
    public let isRuntime: Bool

    public init(
        printer: Printer, id: Int, port: UInt16?, txtOverrides: [(key: String, value: String?)], isRuntime: Bool
    ) {
        self.printer = printer
        self.id = id
        self.port = port
        self.txtOverrides = txtOverrides
        self.isRuntime = isRuntime
    }

    public var name: String { printer.name }
}
