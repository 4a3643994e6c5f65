import CCairo
import PrintModel

/// A source file lying on a scanner's glass (``ScanPage/sourcePath``): one page of a PDF, or a PNG or JPEG image.
///
/// It lies at the sheet's top left corner at its natural size (a PDF page's size in points; an image's pixels at
/// its own resolution, 72 dpi when the file does not say), shrunk to fit the sheet when larger, keeping its aspect
/// ratio, and never enlarged.
enum ScanSource {
    /// Page `index` (0-based) of a PDF document.
    case pdfPage(PDFDocument, index: Int)
    /// A decoded image.
    case image(PageImage)

    /// Opens `path` at page `page` (from 1) of a PDF; the format is found from the bytes. The pages of a PDF repeat
    /// as a stack that is fed again: page 4 of a 3-page document is its page 1. A missing or unreadable file, a
    /// format other than PDF, PNG and JPEG, a page number below 1 and an image beyond `limits` are errors.
    static func open(path: String, page: Int, limits: RenderLimits) throws(RasterError) -> ScanSource {
        guard let format = try DocumentFormat.detect(path: path) else {
            throw .unsupportedFormat("the scan source \(path) is in no known format")
        }
        switch format {
        case .pdf, .pclm:
            let document = try PDFDocument(path: path, password: nil, limits: limits)
            guard page >= 1, document.pageCount >= 1 else {
                throw .badTicket("the scan source \(path) has no page \(page)")
            }
            return .pdfPage(document, index: (page - 1) % document.pageCount)
        case .png:
            return .image(try PNGDecoder.decode(path: path, limits: limits))
        case .jpeg:
            return .image(try JPEGDecoder.decode(path: path, limits: limits))
        default:
            throw .unsupportedFormat("the scan source \(path) is \(format.rawValue), not PDF, PNG or JPEG")
        }
    }

    /// The natural size in points.
    func size() throws(RasterError) -> (width: Double, height: Double) {
        switch self {
        case .pdfPage(let document, let index): try document.pageSize(index)
        case .image(let image): image.sizeInPoints
        }
    }

    /// The scale it lies on a sheet of `width` x `height` points at: 1, or less to fit.
    func scale(toFit width: Double, _ height: Double) throws(RasterError) -> Double {
        let natural = try size()
        return min(1, width / natural.width, height / natural.height)
    }

    /// Draws it at the top left corner of a sheet of `width` x `height` points, in a context whose user space is
    /// that sheet in points.
    func draw(in context: OpaquePointer, sheetWidth width: Double, sheetHeight height: Double) throws(RasterError) {
        let scale = try scale(toFit: width, height)
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_scale(context, scale, scale)
        switch self {
        case .pdfPage(let document, let index): try document.render(index, context: context)
        case .image(let image): try image.draw(in: context)
        }
    }
}
