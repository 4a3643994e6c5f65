import CCairo
import Glibc
import ImageCheck
import PrintModel

/// One printed side in memory: Cairo RGB24 pixels (4 bytes a pixel), white to start with. Owns the pixel buffer
/// and the Cairo surface over it, and frees both in `deinit`.
///
/// Every page source draws into it through ``draw(transform:clip:_:)``, in page space (points, origin at the top
/// left of the page) mapped onto the sheet by a ``PageTransform``.
final class SheetCanvas {
    let width: Int
    let height: Int
    let stride: Int
    let pixels: UnsafeMutableRawPointer
    private let surface: OpaquePointer

    /// The bytes a sheet of `geometry` takes in memory.
    static func byteCount(of geometry: SheetGeometry) -> Int {
        Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(clamping: geometry.width))) * geometry.height
    }

    /// A white sheet of `width` x `height` pixels.
    init(width: Int, height: Int) throws(RasterError) {
        self.width = width
        self.height = height
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(width)))
        guard stride > 0, let pixels = malloc(stride * height) else {
            throw .outOfMemory(what: "a \(width) x \(height) sheet", bytes: width * height * 4)
        }
        self.pixels = pixels
        memset(pixels, 0xFF, stride * height)
        surface = cairo_image_surface_create_for_data(
            pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(width), Int32(height),
            Int32(stride))
    }

    deinit {
        cairo_surface_destroy(surface)
        free(pixels)
    }

    /// Runs `body` with a Cairo context set up for page space of `transform`, clipped to `clip` (sheet pixels).
    func draw(transform: PageTransform, clip: PixelRect, _ body: (OpaquePointer) throws(RasterError) -> Void)
        throws(RasterError)
    {
        let context = cairo_create(surface)!
        defer { cairo_destroy(context) }
        cairo_rectangle(context, Double(clip.x), Double(clip.y), Double(clip.width), Double(clip.height))
        cairo_clip(context)
        cairo_translate(context, transform.centerX, transform.centerY)
        cairo_rotate(context, Double(transform.rotation) * Double.pi / 180)
        cairo_scale(context, transform.scale, transform.scale)
        cairo_translate(context, -transform.pageWidth / 2, -transform.pageHeight / 2)
        try body(context)
        cairo_surface_flush(surface)
    }

    /// The start of row `y`.
    func row(_ y: Int) -> UnsafeRawPointer { UnsafeRawPointer(pixels + y * stride) }

    /// Writes the sheet as a PNG file: RGB, 8-bit gray, or gray thresholded to black and white. Each row is first
    /// cut outside `printable` (``cutMargins(of:outside:)``) and its ink added to `tally` as it is written, so the
    /// side's facts cost no second pass over the sheet. Returns true when the margins held ink.
    func writePNG(path: String, color: ColorMode, resolution: Int, printable: PixelRect, tally: inout InkTally)
        throws(RasterError) -> Bool
    {
        var inked = false
        switch color {
        case .color:
            let writer = try PNGWriter(path: path, width: width, height: height, layout: .bgrx, resolution: resolution)
            for y in 0..<height {
                if cutMargins(of: y, outside: printable) { inked = true }
                writer.writeRow(row(y))
                tally.addBGRX(row(y), width: width)
            }
            try writer.finish()
        case .monochrome, .biLevel:
            let writer = try PNGWriter(path: path, width: width, height: height, layout: .gray, resolution: resolution)
            let gray = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
            defer { gray.deallocate() }
            let threshold = color == .biLevel
            for y in 0..<height {
                if cutMargins(of: y, outside: printable) { inked = true }
                let source = row(y).assumingMemoryBound(to: UInt8.self)
                // Branch-free with 32-bit sums, so that the compiler makes vector instructions of it.
                var sum: UInt32 = 0
                var darkest: UInt8 = 255
                for x in 0..<width {
                    // Rec. 601 luma from B, G, R bytes.
                    let b = UInt32(source[x * 4])
                    let g = UInt32(source[x * 4 + 1])
                    let r = UInt32(source[x * 4 + 2])
                    let luma = UInt8((r * 77 + g * 150 + b * 29 + 128) >> 8)
                    let value = threshold ? (luma < 128 ? 0 : 255) : luma
                    gray[x] = value
                    sum &+= UInt32(value)
                    darkest = min(darkest, value)
                }
                writer.writeRow(gray)
                tally.addGrayRow(ink: 255 * width - Int(sum), darkest: Int(darkest), width: width)
            }
            try writer.finish()
        }
        return inked
    }
}
