import CCairo
import Glibc
import PrintModel

/// Makes the image of a scan (render protocol operation `scan-page`, docs/render-protocol.md "Scanned images"):
/// the sheet on the glass, white, with the test chart (``TestChart``) or a source file (``ScanSource``) on it, the
/// region cut out of it at the scan's resolution, in its color mode and format (``ScanImageFile``).
///
/// Only the region is drawn, into a canvas of exactly ``ScanPage/pixelWidth`` x ``ScanPage/pixelHeight`` pixels:
/// the sheet's three-hundredths of an inch map onto it at `resolution / 300` pixels each. Where the region goes past
/// the sheet's right or bottom edge the image is white.
public struct ScanPageMaker: Sendable {
    /// Bounds of the image and of a source file: the image's width and height (``RenderLimits/maximumDimension``)
    /// and pixels (``RenderLimits/maximumSheetPixels``), the resolution, a source image's size and a PDF's pages.
    public let limits: RenderLimits

    public init(limits: RenderLimits = RenderLimits()) {
        self.limits = limits
    }

    /// Writes the image of `page` to its ``ScanPage/outputPath`` and says what was written. A request that cannot
    /// be carried out (no resolution, a region that starts off the sheet), a source that cannot be read, a PDF
    /// page the source lacks, and an image or source beyond the limits are errors, and leave no file behind.
    public func make(_ page: ScanPage) throws(RasterError) -> ScannedImage {
        let (width, height) = try checkedSize(page)
        let source = try page.sourcePath.map { (path) throws(RasterError) in
            try ScanSource.open(path: path, page: page.sourcePage, limits: limits)
        }
        let canvas = try SheetCanvas(width: width, height: height)
        let scale = Double(page.resolution) / 300
        let transform = PageTransform(
            pageWidth: Double(page.sheetWidth), pageHeight: Double(page.sheetHeight), scale: scale, rotation: 0,
            centerX: (Double(page.sheetWidth) / 2 - Double(page.region.x)) * scale,
            centerY: (Double(page.sheetHeight) / 2 - Double(page.region.y)) * scale)
        try canvas.draw(transform: transform, clip: PixelRect(x: 0, y: 0, width: width, height: height)) {
            (context) throws(RasterError) in
            // User space: the sheet in three-hundredths of an inch.
            cairo_rectangle(context, 0, 0, Double(page.sheetWidth), Double(page.sheetHeight))
            cairo_clip(context)
            if let source {
                cairo_scale(context, 300.0 / 72, 300.0 / 72)
                try source.draw(
                    in: context, sheetWidth: Double(page.sheetWidth) * 72 / 300,
                    sheetHeight: Double(page.sheetHeight) * 72 / 300)
            } else {
                TestChart(label: page.label, resolution: page.resolution).draw(
                    in: context, width: page.sheetWidth, height: page.sheetHeight, visible: page.region)
            }
        }
        try ScanImageFile.write(
            canvas, colorMode: page.colorMode, format: page.format, resolution: page.resolution, to: page.outputPath)
        var status = stat()
        guard stat(page.outputPath, &status) == 0 else {
            throw .io(path: page.outputPath, operation: "read the size of", errno: errno)
        }
        return ScannedImage(path: page.outputPath, width: width, height: height, bytes: Int(status.st_size))
    }

    /// The image's size in pixels, once the request is found sound and within the limits; computed without
    /// overflow whatever the numbers.
    private func checkedSize(_ page: ScanPage) throws(RasterError) -> (width: Int, height: Int) {
        guard page.resolution > 0 else { throw .badTicket("a scan at \(page.resolution) dpi") }
        try RenderLimits.check("maximum resolution", page.resolution, limits.maximumResolution)
        guard page.sheetWidth > 0, page.sheetHeight > 0 else {
            throw .badTicket("a scan of a \(page.sheetWidth) x \(page.sheetHeight) sheet")
        }
        let region = page.region
        guard region.width > 0, region.height > 0, (0..<page.sheetWidth).contains(region.x),
            (0..<page.sheetHeight).contains(region.y)
        else {
            throw .badTicket(
                "the scan region \(region.width) x \(region.height) at (\(region.x), \(region.y)) lies off the "
                    + "\(page.sheetWidth) x \(page.sheetHeight) sheet")
        }
        for (name, length) in [("maximum scan width", region.width), ("maximum scan height", region.height)] {
            let (product, overflow) = length.multipliedReportingOverflow(by: page.resolution)
            try RenderLimits.check(name, overflow ? Int.max : product / 300, limits.maximumDimension)
        }
        try RenderLimits.check("maximum scan pixels", page.pixelWidth * page.pixelHeight, limits.maximumSheetPixels)
        return (page.pixelWidth, page.pixelHeight)
    }
}
