import CCairo

/// Draws a streamed raster page into a sheet in bands of rows, so a page of any size needs one band of memory.
///
/// When the page lands at least twice smaller than its own resolution (a 600 dpi page on a 150 dpi sheet), each
/// block of k x k pixels is averaged first, so Cairo only has a small scale step left. Back sides written with
/// PWG 5102.4 CrossFeedTransform / FeedTransform of -1 are turned back, so every page is shown as a person
/// reads it.
enum RasterPagePainter {
    /// Rows painted at a time, after reduction.
    static let bandHeight = 64

    /// Page size in points.
    static func size(of header: RasterPageHeader) -> (width: Double, height: Double) {
        (
            Double(header.width) * 72 / Double(header.resolutionX),
            Double(header.height) * 72 / Double(header.resolutionY)
        )
    }

    /// Reads every row of the current page of `reader` and paints it into `context` (set to the page's space),
    /// where one page point becomes `scale` sheet pixels.
    static func paint(_ header: RasterPageHeader, from reader: RasterReader, scale: Double, in context: OpaquePointer)
        throws(RasterError)
    {
        let (pageWidth, pageHeight) = size(of: header)
        // Sheet pixels a raster pixel: below 1/2, average blocks of `factor` pixels each way first.
        let sheetPixelsPerPixel = min(
            scale * 72 / Double(header.resolutionX), scale * 72 / Double(header.resolutionY))
        let factor = max(1, min(16, Int((1 / sheetPixelsPerPixel).rounded(.down))))
        let reducedWidth = (header.width + factor - 1) / factor
        let xScale = 72 * Double(factor) / Double(header.resolutionX)
        let rowHeight = 72 / Double(header.resolutionY)
        cairo_save(context)
        defer { cairo_restore(context) }
        if header.feedTransform == -1 {
            cairo_translate(context, 0, pageHeight)
            cairo_scale(context, 1, -1)
        }
        let mirrored = header.crossFeedTransform == -1
        let channels = header.outputChannels
        let band = try CairoImageSurface(width: reducedWidth, height: bandHeight)
        var sums = [UInt32](repeating: 0, count: reducedWidth * channels)
        var reduced = [UInt8](repeating: 0, count: reducedWidth * channels)
        var y = 0
        while y < header.height {
            let sourceRows = min(bandHeight * factor, header.height - y)
            let bandRows = (sourceRows + factor - 1) / factor
            for index in 0..<bandRows {
                let rows = min(factor, sourceRows - index * factor)
                if factor == 1 {
                    guard let row = try reader.nextRow() else { throw missingRows(header) }
                    band.setRow(index, from: row.baseAddress!, channels: channels, mirrored: mirrored)
                    continue
                }
                for i in 0..<sums.count { sums[i] = 0 }
                for _ in 0..<rows {
                    guard let row = try reader.nextRow() else { throw missingRows(header) }
                    accumulate(row, into: &sums, width: header.width, channels: channels, factor: factor)
                }
                for x in 0..<reducedWidth {
                    let columns = min(factor, header.width - x * factor)
                    let count = UInt32(columns * rows)
                    for c in 0..<channels {
                        reduced[x * channels + c] = UInt8((sums[x * channels + c] + count / 2) / count)
                    }
                }
                band.setRow(index, from: reduced, channels: channels, mirrored: mirrored)
            }
            band.markDirty()
            let top = Double(y) * rowHeight
            let height = Double(sourceRows) * rowHeight
            // Bands meet without seams when their clips cover whole pixels: each pixel belongs to one band.
            cairo_save(context)
            cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
            cairo_rectangle(context, 0, top, pageWidth, height)
            cairo_clip(context)
            band.paint(
                in: context, pointsPerPixelX: xScale, pointsPerPixelY: rowHeight * Double(factor), top: top)
            cairo_restore(context)
            y += sourceRows
        }
    }

    /// Adds one row into the per-block sums.
    private static func accumulate(
        _ row: UnsafeBufferPointer<UInt8>, into sums: inout [UInt32], width: Int, channels: Int, factor: Int
    ) {
        guard let pixels = row.baseAddress else { return }
        sums.withUnsafeMutableBufferPointer { sums in
            guard let total = sums.baseAddress else { return }
            var x = 0
            var block = 0
            while x < width {
                let end = min(x + factor, width)
                if channels == 1 {
                    var sum: UInt32 = 0
                    for i in x..<end { sum &+= UInt32(pixels[i]) }
                    total[block] &+= sum
                } else {
                    var r: UInt32 = 0
                    var g: UInt32 = 0
                    var b: UInt32 = 0
                    for i in x..<end {
                        r &+= UInt32(pixels[i * 3])
                        g &+= UInt32(pixels[i * 3 + 1])
                        b &+= UInt32(pixels[i * 3 + 2])
                    }
                    total[block * 3] &+= r
                    total[block * 3 + 1] &+= g
                    total[block * 3 + 2] &+= b
                }
                x = end
                block += 1
            }
        }
    }

    private static func missingRows(_ header: RasterPageHeader) -> RasterError {
        .truncated(what: "page \(header.pageNumber)", offset: 0)
    }
}
