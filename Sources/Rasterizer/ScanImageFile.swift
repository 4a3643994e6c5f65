import CCairo
import Glibc
import PrintModel

/// Writes a scanned image from its canvas in the color mode and format a ``ScanPage`` asks for, carrying its
/// resolution, under a temporary name in the same folder (`<path>.part`) that is renamed when the file is whole.
///
/// - PNG: 8-bit RGB, 8-bit gray or 1-bit gray, with the resolution in pHYs (``PNGWriter``).
/// - JPEG: baseline JFIF at quality 90, color or gray (gray for bi-level too), the resolution as JFIF density.
/// - PDF: one page the size of the image at its resolution (pixels x 72 / resolution points) holding the image:
///   the JPEG above for color and gray, as scanners make PDFs, and 1-bit Flate for bi-level (Cairo writes an
///   image whose pixels are all black or white with one bit a pixel).
enum ScanImageFile {
    /// Writes `canvas` to `path`; the canvas is turned gray first unless the mode is color.
    static func write(
        _ canvas: SheetCanvas, colorMode: ScanPage.ColorMode, format: ScanPage.Format, resolution: Int, to path: String
    ) throws(RasterError) {
        if colorMode != .rgb24 { canvas.convertToGray(bilevel: colorMode == .blackAndWhite1) }
        switch format {
        case .png:
            try writePNG(canvas, colorMode: colorMode, resolution: resolution, to: path)
        case .jpeg:
            let data = try jpeg(canvas, gray: colorMode != .rgb24, resolution: resolution)
            try writeAtomically(data, to: path)
        case .pdf:
            let jpeg =
                colorMode == .blackAndWhite1 ? nil : try jpeg(canvas, gray: colorMode != .rgb24, resolution: resolution)
            try writePDF(canvas, jpeg: jpeg, resolution: resolution, to: path)
        }
    }

    private static func writePNG(
        _ canvas: SheetCanvas, colorMode: ScanPage.ColorMode, resolution: Int, to path: String
    ) throws(RasterError) {
        let layout: PNGWriter.InputLayout =
            switch colorMode {
            case .rgb24: .bgrx
            case .grayscale8: .gray
            case .blackAndWhite1: .bits
            }
        let writer = try PNGWriter(
            path: path, width: canvas.width, height: canvas.height, layout: layout, resolution: resolution)
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: writer.inputRowBytes)
        defer { row.deallocate() }
        for y in 0..<canvas.height {
            switch colorMode {
            case .rgb24: writer.writeRow(canvas.row(y))
            case .grayscale8:
                canvas.grayRow(y, into: row)
                writer.writeRow(row)
            case .blackAndWhite1:
                canvas.bilevelRow(y, into: row)
                writer.writeRow(row)
            }
        }
        try writer.finish()
    }

    /// The canvas as JPEG data: its Cairo pixels, or its gray values with `gray`.
    private static func jpeg(_ canvas: SheetCanvas, gray: Bool, resolution: Int) throws(RasterError) -> [UInt8] {
        let encoder = try JPEGEncoder(width: canvas.width, height: canvas.height, gray: gray, resolution: resolution)
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: canvas.width)
        defer { row.deallocate() }
        for y in 0..<canvas.height {
            if gray {
                canvas.grayRow(y, into: row)
                try encoder.writeRow(row)
            } else {
                try encoder.writeRow(canvas.row(y))
            }
        }
        return try encoder.finish()
    }

    /// A one-page PDF of the canvas through Cairo's PDF surface; `jpeg`, when given, is embedded as the image's data
    /// (Cairo's JPEG MIME data) instead of Cairo's own lossless copy.
    private static func writePDF(_ canvas: SheetCanvas, jpeg: [UInt8]?, resolution: Int, to path: String)
        throws(RasterError)
    {
        let partial = path + ".part"
        let pointsPerPixel = 72 / Double(resolution)
        let pdf = cairo_pdf_surface_create(
            partial, Double(canvas.width) * pointsPerPixel, Double(canvas.height) * pointsPerPixel)!
        defer { cairo_surface_destroy(pdf) }
        guard cairo_surface_status(pdf) == CAIRO_STATUS_SUCCESS else {
            throw .io(path: partial, operation: "create", errno: errno)
        }
        cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATOR, "vprinter")
        let image = cairo_image_surface_create_for_data(
            canvas.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(canvas.width),
            Int32(canvas.height), Int32(canvas.stride))!
        defer { cairo_surface_destroy(image) }
        if let jpeg, let copy = malloc(jpeg.count) {
            jpeg.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: jpeg.count) }
            // Cairo frees the copy with the surface, or at once when it cannot keep it.
            let kept = cairo_surface_set_mime_data(
                image, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                { free($0) }, copy)
            if kept != CAIRO_STATUS_SUCCESS { free(copy) }
        }
        let context = cairo_create(pdf)!
        cairo_scale(context, pointsPerPixel, pointsPerPixel)
        cairo_set_source_surface(context, image, 0, 0)
        cairo_paint(context)
        cairo_destroy(context)
        cairo_surface_finish(pdf)
        let status = cairo_surface_status(pdf)
        guard status == CAIRO_STATUS_SUCCESS else {
            unlink(partial)
            throw .libraryFailure(library: "cairo", message: String(cString: cairo_status_to_string(status)))
        }
        try rename(partial, to: path)
    }

    /// Writes `bytes` to `<path>.part` and renames it to `path`.
    private static func writeAtomically(_ bytes: [UInt8], to path: String) throws(RasterError) {
        let partial = path + ".part"
        guard let file = fopen(partial, "wbe") else { throw .io(path: partial, operation: "create", errno: errno) }
        let written = fwrite(bytes, 1, bytes.count, file)
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            let code = errno
            unlink(partial)
            throw .io(path: partial, operation: "write", errno: code)
        }
        try rename(partial, to: path)
    }

    private static func rename(_ partial: String, to path: String) throws(RasterError) {
        guard Glibc.rename(partial, path) == 0 else {
            let code = errno
            unlink(partial)
            throw .io(path: path, operation: "rename", errno: code)
        }
    }
}
