import PrinterCore
import Scanner

/// What a page needs to know of the service besides the printers: whether printers can be made here, where
/// profiles and scenarios are, and the query of the request.
struct WebContext {
    /// Every printer served, in order, as hosted (printer-id, created at runtime or not).
    var printers: [HostedPrinter]
    /// True when printers can be created and deleted (a fleet runs them; not for an embedded printer).
    var canCreatePrinters: Bool
    var profileDirectories: [String]
    var query: [(name: String, value: String)]
    /// The jobs the reader may see (their own, when credentials are asked for: docs/security.md); nil: every job.
    var visible: ((Job) -> Bool)?
    /// The scan jobs the reader may see, by the same rule; nil: every scan job.
    var visibleScans: ((ScanJob) -> Bool)? = nil

    /// The printer page's path of a printer: `/printers/<path segment>`.
    static func panelPath(_ printer: Printer) -> String {
        "/printers/\(HTML.percentEncode(PrinterConfiguration.pathSegment(for: printer.name)))"
    }

    /// A printer's API path: `/api/v1/printers/<path segment>`.
    static func apiPath(_ printer: Printer) -> String {
        "/api/v1/printers/\(HTML.percentEncode(PrinterConfiguration.pathSegment(for: printer.name)))"
    }
}
