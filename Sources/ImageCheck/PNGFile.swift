import CPNG
import Glibc

/// Reads and writes whole PNG files with libpng's simplified API, which keeps libpng's error handling inside
/// libpng and reports a failure as a message.
public enum PNGFile {
    /// PNG_FORMAT_RGB and PNG_FORMAT_GRAY of png.h (macros Swift does not import).
    private static let formatRGB: png_uint_32 = 0x02
    private static let formatGray: png_uint_32 = 0x00

    /// Reads any PNG (every depth, palette, gray, alpha composed over white) as 8-bit RGB.
    public static func read(_ path: String) throws(ImageCheckError) -> RGBImage {
        let (width, height, pixels) = try read(path, format: formatRGB, channels: 3)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Reads any PNG as 8-bit gray, one byte a pixel (alpha composed over white).
    public static func readGray(_ path: String) throws(ImageCheckError) -> (width: Int, height: Int, pixels: [UInt8]) {
        try read(path, format: formatGray, channels: 1)
    }

    private static func read(_ path: String, format: png_uint_32, channels: Int) throws(ImageCheckError) -> (
        width: Int, height: Int, pixels: [UInt8]
    ) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .unreadable(path: path, message: message(image))
        }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width * height <= RGBImage.maximumPixels else {
            throw .tooLarge(path: path, width: width, height: height)
        }
        image.format = format
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        var white = png_color(red: 255, green: 255, blue: 255)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, &white, buffer.baseAddress, png_int_32(width * channels), nil)
        }
        guard finished != 0 else { throw .unreadable(path: path, message: message(image)) }
        return (width, height, pixels)
    }

    /// Writes `image` as an 8-bit RGB PNG; the file is written under a temporary name and renamed when whole.
    public static func write(_ image: RGBImage, to path: String) throws(ImageCheckError) {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = Self.formatRGB
        defer { png_image_free(&png) }
        let partial = path + ".part"
        let written = image.pixels.withUnsafeBytes { buffer in
            png_image_write_to_file(&png, partial, 0, buffer.baseAddress, png_int_32(image.width * 3), nil)
        }
        guard written != 0 else {
            unlink(partial)
            throw .unwritable(path: path, message: message(png))
        }
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw .unwritable(path: path, message: reason)
        }
    }

    private static func message(_ image: png_image) -> String {
        let text = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return text.isEmpty ? "not a readable PNG file" : text
    }
}
