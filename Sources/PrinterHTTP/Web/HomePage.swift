import PrinterCore

/// The page at `/`: every printer with its state at a glance (and, with a fleet, creating and deleting them),
/// then the job list of all printers and, when some printer has a scanner, their scan jobs.
enum HomePage {
    static func html(_ context: WebContext) -> String {
        var body = "<h1>vprinter</h1>"
        body += PrinterList.html(context)
        let list = JobList(query: context.query, visible: context.visible)
        body += list.html(
            printers: context.printers.map(\.printer), action: "/", resetCall: "DELETE /api/v1/jobs",
            resetWhat: "every job")
        body += ScanList.html(
            printers: context.printers.map(\.printer), showPrinter: context.printers.count > 1,
            visible: context.visibleScans)
        return HTML.page(title: "vprinter", body: body)
    }
}
