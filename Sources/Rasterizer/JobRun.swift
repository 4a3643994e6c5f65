import PrintModel

/// The state of one job while it renders: the imposer, the side being drawn, the counts, and where finished
/// sides go. Used from the thread that called ``JobRenderer/render(_:onImpression:)``.
final class JobRun {
    let folder: String
    let ticket: JobTicket
    let limits: RenderLimits
    let threads: Int
    let onImpression: @Sendable (PrintedSide) -> Void
    /// Problems found in documents that still print.
    let warnings: WarningLog
    var imposer: Imposer
    var summary = RenderSummary()
    /// The side being drawn, whose remaining cells later pages (or, for `single-document`, documents) fill.
    var open: OpenImpression?
    /// Encodes finished sides while the next one is drawn.
    let writer: SideWriter

    init(
        folder: String, ticket: JobTicket, limits: RenderLimits, threads: Int,
        onImpression: @escaping @Sendable (PrintedSide) -> Void, warnings: WarningLog
    ) throws(RasterError) {
        self.warnings = warnings
        self.folder = folder
        self.ticket = ticket
        self.limits = limits
        self.threads = threads
        self.onImpression = onImpression
        writer = SideWriter(folder: folder, ticket: ticket, deliver: onImpression)
        imposer = try Imposer(ticket: ticket, limits: limits)
        summary.copies = ticket.copies
    }

    /// Places one page, starting a new side when the imposer says so (writing the previous one first), and
    /// draws it with `draw` (given a Cairo context in page space and the page's scale in pixels a point).
    func placeAndDraw(
        document: Int, page: Int, width: Double, height: Double, kind: Imposer.ContentKind,
        draw: (OpaquePointer, Double) throws(RasterError) -> Void
    ) throws(RasterError) {
        let (placement, started) = imposer.place(
            document: document, page: page, width: width, height: height, kind: kind)
        if let started {
            try writeOpen()
            try writer.makeRoom(forSheetBytes: SheetCanvas.byteCount(of: started.geometry))
            open = try OpenImpression(started)
        }
        guard let open else { return }
        try countPage()
        try open.draw(placement, text: nil) { (context) throws(RasterError) in
            try draw(context, placement.transform.scale)
        }
    }

    /// Counts one more page of the job; past `limits.maximumPages` for the job as a whole, whatever its documents'
    /// own counts (`--max-pages`), the render stops with `limitExceeded`.
    func countPage() throws(RasterError) {
        try RenderLimits.check("maximum pages", summary.pages + 1, limits.maximumPages)
        summary.pages += 1
    }

    /// Hands the open side, if any, to the writer and forgets it (its memory goes once it is written).
    func writeOpen() throws(RasterError) {
        guard let finished = open else { return }
        open = nil
        try writer.write(finished)
    }

    /// Writes the open side and waits until every side handed to the writer is on disk.
    func flush() throws(RasterError) {
        try writeOpen()
        try writer.drain()
    }

    /// Ends a document: with `single-document` the next document continues on the open side; otherwise the side
    /// is written and the next document starts a new sheet.
    func endDocument(isLast: Bool) throws(RasterError) {
        if ticket.multipleDocumentHandling == .singleDocument && !isLast { return }
        try writeOpen()
        imposer.endDocument(newSheet: true)
    }

    /// Writes what is still open and returns the counts.
    func finish() throws(RasterError) -> RenderSummary {
        try flush()
        summary.impressions = imposer.impressions
        summary.sheets = imposer.sheets
        return summary
    }

    /// Streams a PWG or Apple Raster document page by page onto the sides.
    func renderRaster(_ path: String, document: Int) throws(RasterError) -> Int {
        try renderRaster(RasterReader(path: path, limits: limits), document: document)
    }

    /// Streams the pages of an open raster reader onto the sides.
    func renderRaster(_ reader: RasterReader, document: Int) throws(RasterError) -> Int {
        var pages = 0
        var check = RasterTicketCheck(ticket: ticket, document: document, log: warnings)
        while var header = try reader.nextPage() {
            pages += 1
            guard ticket.selects(page: pages) else { continue }
            check.check(header, page: pages)
            if reader.format == .urf, ticket.sides != .oneSided, pages % 2 == 0 {
                (header.crossFeedTransform, header.feedTransform) = ticket.sheetBack.transforms(
                    tumble: ticket.sides == .twoSidedShortEdge)
            }
            let size = RasterPagePainter.size(of: header)
            let page = header
            try placeAndDraw(document: document, page: pages, width: size.width, height: size.height, kind: .document) {
                (context, scale) throws(RasterError) in
                try RasterPagePainter.paint(page, from: reader, scale: scale, in: context)
            }
        }
        return pages
    }
}
