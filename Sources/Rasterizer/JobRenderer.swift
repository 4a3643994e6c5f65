import Dispatch
import Glibc
import Synchronization

/// Renders the documents of one job to one PNG file per printed side, as the job ticket says.
///
/// PDF pages render on several threads at once (each with its own copy of the document); raster documents
/// stream page by page. Copies are counted, not rendered again.
public struct JobRenderer: Sendable {
    /// A document to render.
    public struct Document: Sendable, Equatable {
        /// Path of the document file.
        public var path: String
        /// The MIME type the client declared, or nil / `application/octet-stream` to detect it.
        public var format: String?

        public init(path: String, format: String? = nil) {
            self.path = path
            self.format = format
        }
    }

    /// Default number of render threads: one per core.
    public static var defaultThreads: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private let folder: String
    private let ticket: JobTicket
    private let limits: RenderLimits
    private let threads: Int

    /// A renderer writing into `folder` with `threads` render threads.
    public init(folder: String, ticket: JobTicket, limits: RenderLimits = RenderLimits(), threads: Int = defaultThreads)
    {
        self.folder = folder
        self.ticket = ticket
        self.limits = limits
        self.threads = max(1, threads)
    }

    /// Renders `documents` in order; `onImpression` is called once per written side, in number order.
    public func render(
        _ documents: [Document], onImpression: @escaping @Sendable (RenderedImpression) -> Void
    ) throws(RasterError) -> RenderSummary {
        var imposer = try Imposer(ticket: ticket, limits: limits)
        var summary = RenderSummary()
        summary.copies = ticket.copies
        for (index, document) in documents.enumerated() {
            let format = try Self.format(of: document)
            summary.documentFormats.append(format.rawValue)
            let number = index + 1
            let pages: Int
            switch format {
            case .pdf:
                pages = try renderPDF(document.path, number: number, imposer: &imposer, summary: &summary, onImpression)
            case .jpeg, .png:
                let image =
                    format == .jpeg
                    ? try JPEGDecoder.decode(path: document.path, limits: limits)
                    : try PNGDecoder.decode(path: document.path, limits: limits)
                pages = 1
                if ticket.selects(page: 1) {
                    let size = image.sizeInPoints
                    let (placement, started) = imposer.place(
                        document: number, page: 1, width: size.width, height: size.height, kind: .image)
                    let impression = try started.map { (started) throws(RasterError) in
                        try OpenImpression(started, geometry: imposer.geometry)
                    }
                    guard let impression else { break }
                    try impression.canvas.draw(transform: placement.transform, clip: placement.clip) {
                        (context) throws(RasterError) in try image.draw(in: context)
                    }
                    impression.pages.append(.init(document: number, page: 1))
                    summary.pages += 1
                    onImpression(try impression.write(folder: folder, ticket: ticket))
                }
            case .pwgRaster, .appleRaster:
                pages = try renderRaster(
                    document.path, number: number, imposer: &imposer, summary: &summary, onImpression)
            case .postScript:
                throw .unsupportedFormat("PostScript is not rendered")
            }
            summary.documentPages.append(pages)
            imposer.endDocument(newSheet: ticket.multipleDocumentHandling != .singleDocument)
        }
        summary.impressions = imposer.impressions
        summary.sheets = imposer.sheets
        return summary
    }

    /// The real format of `document`: detected from its bytes; data in no known format is refused.
    static func format(of document: Document) throws(RasterError) -> DocumentFormat {
        guard let detected = try DocumentFormat.detect(path: document.path) else {
            throw .unsupportedFormat("the data is \(document.format ?? "application/octet-stream") in no known format")
        }
        return detected
    }

    private func renderPDF(
        _ path: String, number: Int, imposer: inout Imposer, summary: inout RenderSummary,
        _ onImpression: @escaping @Sendable (RenderedImpression) -> Void
    ) throws(RasterError) -> Int {
        let document = try PDFDocument(path: path, password: ticket.password, limits: limits)
        var plans: [(impression: Imposer.Impression, placements: [Imposer.Placement])] = []
        for index in 0..<document.pageCount where ticket.selects(page: index + 1) {
            let size = try document.pageSize(index)
            let (placement, started) = imposer.place(
                document: number, page: index + 1, width: size.width, height: size.height, kind: .document)
            if let started { plans.append((started, [])) }
            plans[plans.count - 1].placements.append(placement)
            summary.pages += 1
        }
        guard let first = plans.first else { return document.pageCount }
        let emitter = ImpressionEmitter(first: first.impression.number, deliver: onImpression)
        let failure = Mutex<RasterError?>(nil)
        let work = plans
        let geometry = imposer.geometry
        let (folder, ticket, limits, threads) = (self.folder, self.ticket, self.limits, min(self.threads, plans.count))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            do throws(RasterError) {
                let copy = try PDFDocument(path: path, password: ticket.password, limits: limits)
                for index in stride(from: thread, to: work.count, by: threads) {
                    if failure.withLock({ $0 != nil }) { return }
                    let plan = work[index]
                    let impression = try OpenImpression(plan.impression, geometry: geometry)
                    for placement in plan.placements {
                        try impression.canvas.draw(transform: placement.transform, clip: placement.clip) {
                            (context) throws(RasterError) in try copy.render(placement.page - 1, context: context)
                        }
                        impression.pages.append(.init(document: placement.document, page: placement.page))
                    }
                    emitter.finished(try impression.write(folder: folder, ticket: ticket))
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return document.pageCount
    }

    private func renderRaster(
        _ path: String, number: Int, imposer: inout Imposer, summary: inout RenderSummary,
        _ onImpression: @escaping @Sendable (RenderedImpression) -> Void
    ) throws(RasterError) -> Int {
        let reader = try RasterReader(path: path, limits: limits)
        var open: OpenImpression?
        var pages = 0
        while var header = try reader.nextPage() {
            pages += 1
            guard ticket.selects(page: pages) else { continue }
            if reader.format == .urf, ticket.sides != .oneSided, pages % 2 == 0 {
                (header.crossFeedTransform, header.feedTransform) = ticket.sheetBack.transforms(
                    tumble: ticket.sides == .twoSidedShortEdge)
            }
            let size = RasterPagePainter.size(of: header)
            let (placement, started) = imposer.place(
                document: number, page: pages, width: size.width, height: size.height, kind: .document)
            if let started {
                // Write and release the finished side before the next one takes its memory.
                if let finished = open { onImpression(try finished.write(folder: folder, ticket: ticket)) }
                open = nil
                open = try OpenImpression(started, geometry: imposer.geometry)
            }
            guard let open else { continue }
            try open.canvas.draw(transform: placement.transform, clip: placement.clip) {
                (context) throws(RasterError) in
                try RasterPagePainter.paint(header, from: reader, scale: placement.transform.scale, in: context)
            }
            open.pages.append(.init(document: number, page: pages))
            summary.pages += 1
        }
        if let open { onImpression(try open.write(folder: folder, ticket: ticket)) }
        return pages
    }
}

/// A side being drawn: its canvas and the pages placed on it so far.
final class OpenImpression {
    let impression: Imposer.Impression
    let canvas: SheetCanvas
    let resolution: Int
    var pages: [RenderedImpression.PlacedPage] = []

    init(_ impression: Imposer.Impression, geometry: SheetGeometry) throws(RasterError) {
        self.impression = impression
        canvas = try SheetCanvas(width: geometry.width, height: geometry.height)
        resolution = geometry.resolution
    }

    /// Writes the PNG file and describes it.
    func write(folder: String, ticket: JobTicket) throws(RasterError) -> RenderedImpression {
        let file = RenderedImpression.fileName(impression.number)
        try canvas.writePNG(path: folder + "/" + file, color: ticket.colorMode, resolution: resolution)
        return RenderedImpression(
            number: impression.number, file: file, sheet: impression.sheet, side: impression.isBack ? "back" : "front",
            pages: pages, width: canvas.width, height: canvas.height, dpi: resolution, color: ticket.colorMode == .color
        )
    }
}
