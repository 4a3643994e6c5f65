import Glibc
import PrintModel

/// Renders the documents of one job to one PNG file per printed side, as the job ticket says.
///
/// PDF pages render on several threads at once (each with its own copy of the document); raster documents
/// stream page by page. Copies are counted, not rendered again. With multiple-document-handling
/// `single-document`, documents follow each other on the same sides; otherwise each starts a new sheet.
public struct JobRenderer: Sendable {
    /// A document to render: its path, and the format it is declared as (nil to detect it).
    public typealias Document = RenderRequest.Document

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

    /// Renders `documents` in order; `onImpression` is called once per written side, in number order, and
    /// `onWarning` for each problem found in a document that still printed.
    public func render(
        _ documents: [Document], onImpression: @escaping @Sendable (PrintedSide) -> Void,
        onWarning: @escaping @Sendable (JobWarning) -> Void = { _ in }
    ) throws(RasterError) -> RenderSummary {
        var ticket = try effectiveTicket(documents)
        let sizes =
            [(ticket.mediaWidth, ticket.mediaHeight)]
            + ticket.overrides.compactMap(\.media).map {
                ($0.width, $0.height)
            }
        ticket.resolution = SheetGeometry.resolution(
            ticket.resolution, fitting: limits.maximumSheetPixels, sizes: sizes)
        let run = try JobRun(
            folder: folder, ticket: ticket, limits: limits, threads: threads, onImpression: onImpression,
            warnings: WarningLog(deliver: onWarning))
        defer { run.warnings.finish() }
        for (index, document) in documents.enumerated() {
            let format = try Self.format(of: document)
            let number = document.number ?? index + 1
            let pages: Int
            switch format {
            case .pdf:
                pages = try run.renderPDF(document.path, document: number)
            case .pclm:
                _ = try PCLmStructure.check(path: document.path)
                // PCLm strips are DeviceRGB or DeviceGray: no DeviceCMYK to manage.
                pages = try run.renderPDF(document.path, document: number, textLayer: false, pressProfile: false)
            case .jpeg, .png:
                let image =
                    format == .jpeg
                    ? try JPEGDecoder.decode(path: document.path, limits: limits)
                    : try PNGDecoder.decode(path: document.path, limits: limits)
                pages = 1
                if ticket.selects(page: 1) {
                    let size = image.sizeInPoints
                    try run.placeAndDraw(
                        document: number, page: 1, width: size.width, height: size.height, kind: .image
                    ) {
                        (context, _) throws(RasterError) in try image.draw(in: context)
                    }
                }
            case .pwgRaster, .appleRaster:
                pages = try run.renderRaster(document.path, document: number)
            case .postScript:
                pages = try run.renderPostScript(document.path, document: number)
            default:
                throw .unsupportedFormat("\(format) is not rendered")
            }
            run.summary.documentFormats.append(format)
            run.summary.documentPages.append(pages)
            try run.endDocument(isLast: index == documents.count - 1)
        }
        return try run.finish()
    }

    /// The ticket as raster input adjusts it: the render resolution is the raster's own, capped by
    /// ``JobTicket/rasterMaximumResolution`` (when set), and with ``JobTicket/mediaFromDocument`` the sheet is the
    /// raster page's size.
    func effectiveTicket(_ documents: [Document]) throws(RasterError) -> JobTicket {
        var ticket = self.ticket
        guard ticket.rasterMaximumResolution != nil || ticket.mediaFromDocument, let first = documents.first else {
            return ticket
        }
        let format = try Self.format(of: first)
        if format == .pclm, let cap = ticket.rasterMaximumResolution {
            // PCLm is raster too: rendered at the strips' own resolution, so that no pixel is resampled.
            let resolution = try PCLmStructure.check(path: first.path).resolution
            if resolution > 0 { ticket.resolution = min(cap, resolution) }
            return ticket
        }
        guard format == .pwgRaster || format == .appleRaster else { return ticket }
        let reader = try RasterReader(path: first.path, limits: limits)
        if let header = try reader.nextPage() {
            if let cap = ticket.rasterMaximumResolution {
                ticket.resolution = min(cap, max(header.resolutionX, header.resolutionY))
            }
            if ticket.mediaFromDocument, header.resolutionX > 0, header.resolutionY > 0 {
                // Pixels at the raster's resolution, in hundredths of a millimetre.
                ticket.mediaWidth = header.width * 2540 / header.resolutionX
                ticket.mediaHeight = header.height * 2540 / header.resolutionY
                try ticket.validate(limits: limits)
            }
        }
        return ticket
    }

    /// The real format of `document`: detected from its bytes; data in no known format is refused, and so is data
    /// labelled PCLm that is not (a client that says PCLm means it: its printer cannot take anything else).
    static func format(of document: Document) throws(RasterError) -> DocumentFormat {
        guard let detected = try DocumentFormat.detect(path: document.path), detected.isRenderable else {
            throw .unsupportedFormat("the data is \(document.format ?? .octetStream) in no known format")
        }
        if document.format?.matches(.pclm) == true, detected != .pclm {
            throw .malformed(
                format: "PCLm",
                reason: detected == .pdf
                    ? "a PDF without the '%PCLm 1.0' comment after its header"
                    : "the data is \(detected.rawValue)")
        }
        return detected
    }
}
