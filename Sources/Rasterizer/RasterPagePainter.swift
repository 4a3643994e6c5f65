import CCairo

/// Draws a streamed raster page into a sheet in bands of rows, so a page of any size needs one band of memory.
///
/// Back sides written with PWG 5102.4 CrossFeedTransform / FeedTransform of -1 are turned back, so every page
/// is shown as a person reads it.
enum RasterPagePainter {
    /// Rows decoded and painted at a time.
    static let bandHeight = 64

    /// Page size in points.
    static func size(of header: RasterPageHeader) -> (width: Double, height: Double) {
        (
            Double(header.width) * 72 / Double(header.resolutionX),
            Double(header.height) * 72 / Double(header.resolutionY)
        )
    }

    /// Reads every row of the current page of `reader` and paints it into `context` (set to the page's space).
    static func paint(_ header: RasterPageHeader, from reader: RasterReader, in context: OpaquePointer)
        throws(RasterError)
    {
        let (pageWidth, pageHeight) = size(of: header)
        let xScale = 72 / Double(header.resolutionX)
        let yScale = 72 / Double(header.resolutionY)
        cairo_save(context)
        defer { cairo_restore(context) }
        if header.feedTransform == -1 {
            cairo_translate(context, 0, pageHeight)
            cairo_scale(context, 1, -1)
        }
        let mirrored = header.crossFeedTransform == -1
        let band = try CairoImageSurface(width: header.width, height: min(bandHeight, header.height))
        var y = 0
        while y < header.height {
            let rows = min(bandHeight, header.height - y)
            for index in 0..<rows {
                guard let row = try reader.nextRow() else {
                    throw .truncated(what: "page \(header.pageNumber)", offset: 0)
                }
                band.setRow(index, from: row.baseAddress!, channels: header.outputChannels, mirrored: mirrored)
            }
            band.markDirty()
            // The last band may be shorter: clip to the rows it holds.
            // Bands meet without seams when their clips cover whole pixels: each pixel belongs to one band.
            cairo_save(context)
            cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
            cairo_rectangle(context, 0, Double(y) * yScale, pageWidth, Double(rows) * yScale)
            cairo_clip(context)
            band.paint(in: context, pointsPerPixelX: xScale, pointsPerPixelY: yScale, top: Double(y) * yScale)
            cairo_restore(context)
            y += rows
        }
    }
}
