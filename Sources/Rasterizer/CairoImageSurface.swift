import CCairo
import Glibc

/// A Cairo RGB24 image surface holding pixels copied from 8-bit gray or RGB rows; owns the surface.
final class CairoImageSurface {
    let surface: OpaquePointer
    let width: Int
    let height: Int
    private let stride: Int
    private let data: UnsafeMutablePointer<UInt8>

    init(width: Int, height: Int) throws(RasterError) {
        let surface: OpaquePointer = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else {
            cairo_surface_destroy(surface)
            throw .libraryFailure(library: "cairo", message: "cannot create a \(width) x \(height) image")
        }
        self.surface = surface
        self.width = width
        self.height = height
        self.data = data
        stride = Int(cairo_image_surface_get_stride(surface))
    }

    deinit {
        cairo_surface_destroy(surface)
    }

    /// Copies one row of gray (`channels` 1) or RGB (`channels` 3) pixels into row `y`.
    func setRow(_ y: Int, from source: UnsafePointer<UInt8>, channels: Int, mirrored: Bool = false) {
        guard y < height else { return }
        let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<width {
            let from = (mirrored ? width - 1 - x : x) * channels
            let r = UInt32(source[from])
            let g = channels == 1 ? r : UInt32(source[from + 1])
            let b = channels == 1 ? r : UInt32(source[from + 2])
            row[x] = 0xFF00_0000 | r << 16 | g << 8 | b
        }
    }

    /// Tells Cairo the pixels changed.
    func markDirty() { cairo_surface_mark_dirty(surface) }

    /// Paints the surface in a context whose user space is the page in points, `pointsPerPixelX` and
    /// `pointsPerPixelY` points a pixel, rows starting at page height `top`; only the surface's own area is marked.
    func paint(in context: OpaquePointer, pointsPerPixelX: Double, pointsPerPixelY: Double, top: Double) {
        cairo_save(context)
        cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
        cairo_rectangle(context, 0, top, Double(width) * pointsPerPixelX, Double(height) * pointsPerPixelY)
        cairo_clip(context)
        cairo_translate(context, 0, top)
        cairo_scale(context, pointsPerPixelX, pointsPerPixelY)
        cairo_set_source_surface(context, surface, 0, 0)
        cairo_pattern_set_extend(cairo_get_source(context), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
        cairo_paint(context)
        cairo_restore(context)
    }
}

extension PageImage {
    /// Page size in points.
    var sizeInPoints: (width: Double, height: Double) {
        (Double(width) * 72 / Double(max(1, resolutionX)), Double(height) * 72 / Double(max(1, resolutionY)))
    }

    /// Draws the image into a context set to its page space (see ``SheetCanvas/draw(transform:clip:_:)``).
    func draw(in context: OpaquePointer) throws(RasterError) {
        let surface = try CairoImageSurface(width: width, height: height)
        pixels.withUnsafeBufferPointer { buffer in
            for y in 0..<height { surface.setRow(y, from: buffer.baseAddress! + y * bytesPerRow, channels: channels) }
        }
        surface.markDirty()
        surface.paint(
            in: context, pointsPerPixelX: 72 / Double(max(1, resolutionX)),
            pointsPerPixelY: 72 / Double(max(1, resolutionY)), top: 0)
    }
}
