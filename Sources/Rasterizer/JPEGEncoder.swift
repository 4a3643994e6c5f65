import CJPEG
import Glibc

/// Compresses an image into JPEG data in memory through libjpeg: baseline JFIF, 8-bit gray or color, with the
/// resolution as JFIF density (dots per inch). Owns the libjpeg compressor and its output buffer; libjpeg's fatal
/// errors are caught in the C wrappers (CJPEG's shim.h) and thrown here with libjpeg's message.
final class JPEGEncoder {
    /// The quality scanned images are written at (libjpeg's 0-100 scale).
    static let scanQuality: Int32 = 90

    private let writer: UnsafeMutablePointer<vprinter_jpeg_writer>
    private let height: Int
    private var rowsWritten = 0

    /// Starts an image of `width` x `height` pixels; `gray` rows are one byte a pixel, others Cairo RGB24 pixels
    /// (B, G, R and an unused byte in memory).
    init(width: Int, height: Int, gray: Bool, quality: Int32 = scanQuality, resolution: Int) throws(RasterError) {
        guard let writer = vprinter_jpeg_writer_new() else {
            throw .outOfMemory(what: "a JPEG compressor", bytes: MemoryLayout<vprinter_jpeg_writer>.size)
        }
        self.writer = writer
        self.height = height
        let density = UInt16(clamping: resolution)
        guard
            vprinter_jpeg_writer_start(writer, UInt32(width), UInt32(height), gray ? 1 : 0, quality, density) == 1
        else { throw .libraryFailure(library: "libjpeg", message: message) }
    }

    deinit {
        vprinter_jpeg_writer_free(writer)
    }

    private var message: String {
        withUnsafeBytes(of: writer.pointee.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Compresses the next row, laid out as given at creation.
    func writeRow(_ row: UnsafeRawPointer) throws(RasterError) {
        guard vprinter_jpeg_writer_write_line(writer, row.assumingMemoryBound(to: UInt8.self)) == 1 else {
            throw .libraryFailure(library: "libjpeg", message: message)
        }
        rowsWritten += 1
    }

    /// Ends the image after its last row and returns the JPEG data.
    func finish() throws(RasterError) -> [UInt8] {
        guard rowsWritten == height, vprinter_jpeg_writer_finish(writer) == 1 else {
            throw .libraryFailure(
                library: "libjpeg",
                message: rowsWritten == height ? message : "\(rowsWritten) of \(height) rows were written")
        }
        return Array(UnsafeBufferPointer(start: writer.pointee.buffer, count: Int(writer.pointee.size)))
    }
}
