import PrintModel

/// Reads a PWG Raster (PWG 5102.4) or Apple Raster (`image/urf`) stream page by page and row by row.
///
/// Only one page header and one line are in memory at a time, whatever the size of the file. Call
/// ``nextPage()`` for each page, then ``nextRow()`` up to the page's height (rows left unread are skipped).
public final class RasterReader {
    /// The two raster formats.
    public enum Format: Sendable, Equatable {
        /// PWG Raster, sync word `RaS2`.
        case pwg
        /// Apple Raster, signature `UNIRAST\0`.
        case urf
    }

    /// Format of the stream, from its signature.
    public let format: Format
    /// Pages announced by an Apple Raster file header (0 for PWG Raster, which does not announce them).
    public let announcedPages: Int
    private let reader: ByteReader
    private let limits: RenderLimits
    private var page: RasterLineDecoder?
    private var pageCount = 0

    /// Reads the signature of `input`.
    public init(input: any ByteInput, limits: RenderLimits = RenderLimits()) throws(RasterError) {
        reader = ByteReader(input)
        self.limits = limits
        let signature = try reader.bytes(4, "raster signature")
        switch signature {
        case Array("RaS2".utf8):
            format = .pwg
            announcedPages = 0
        case Array("UNIR".utf8):
            let rest = try reader.bytes(8, "Apple Raster file header")
            guard rest[0..<4].elementsEqual("AST\0".utf8) else { throw .badSignature(format: "Apple Raster") }
            format = .urf
            announcedPages = Int(rest[4]) << 24 | Int(rest[5]) << 16 | Int(rest[6]) << 8 | Int(rest[7])
        default:
            throw .badSignature(format: "PWG or Apple Raster")
        }
    }

    /// Opens the raster file at `path`.
    public convenience init(path: String, limits: RenderLimits = RenderLimits()) throws(RasterError) {
        try self.init(input: try FileInput(path: path), limits: limits)
    }

    /// The header of the next page, or nil after the last page; skips what is left of the current page.
    public func nextPage() throws(RasterError) -> RasterPageHeader? {
        if let page { try page.skipRest() }
        page = nil
        guard try !reader.atEnd() else { return nil }
        pageCount += 1
        try RenderLimits.check("maximum pages", pageCount, limits.maximumPages)
        let header: RasterPageHeader
        switch format {
        case .pwg:
            let bytes = try reader.bytes(PWGPageHeader.size, "PWG page header")
            header = try PWGPageHeader.parse(bytes, pageNumber: pageCount, limits: limits)
        case .urf:
            let bytes = try reader.bytes(URFPageHeader.size, "Apple Raster page header")
            header = try URFPageHeader.parse(bytes, pageNumber: pageCount, limits: limits)
        }
        page = RasterLineDecoder(header: header, reader: reader)
        return header
    }

    /// The next row of the current page as 8-bit gray or RGB pixels (see ``RasterPageHeader/isGray``),
    /// valid until the next call; nil when the page has no more rows or no page was started.
    public func nextRow() throws(RasterError) -> UnsafeBufferPointer<UInt8>? {
        guard let page, !page.isFinished else { return nil }
        return try page.nextRow()
    }

    /// Reads the rest of the current page into an image (tests and small pages; large pages should be streamed).
    public func readImage() throws(RasterError) -> PageImage? {
        guard let page else { return nil }
        let header = page.header
        try RenderLimits.check("maximum image pixels", header.width * header.height, limits.maximumImagePixels)
        var image = PageImage(
            width: header.width, height: header.height, isGray: header.isGray, resolutionX: header.resolutionX,
            resolutionY: header.resolutionY)
        let rowBytes = header.width * header.outputChannels
        var offset = page.row * rowBytes
        while let row = try nextRow() {
            for (index, byte) in row.enumerated() { image.pixels[offset + index] = byte }
            offset += rowBytes
        }
        return image
    }
}
