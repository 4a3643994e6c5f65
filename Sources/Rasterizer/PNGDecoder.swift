import CPNG
import PrintModel

/// Decodes a PNG file (every bit depth, palette, gray, alpha composed over white) into a ``PageImage`` with
/// libpng's simplified API, which keeps libpng's error handling inside libpng and reports failures as a message;
/// the resolution comes from the pHYs chunk (72 dpi without one), as JPEG's comes from its JFIF density.
enum PNGDecoder {
    /// Decodes the file at `path`.
    static func decode(path: String, limits: RenderLimits) throws(RasterError) -> PageImage {
        // Check the size in IHDR before libpng allocates anything (PNG 1.2 section 11.2.2).
        let header = try FileContents.prefix(path: path, count: 24)
        guard header.count == 24 else { throw .truncated(what: "PNG header", offset: header.count) }
        let declaredWidth = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let declaredHeight = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        try RenderLimits.check("maximum image width", declaredWidth, limits.maximumDimension)
        try RenderLimits.check("maximum image height", declaredHeight, limits.maximumDimension)
        try RenderLimits.check("maximum image pixels", declaredWidth * declaredHeight, limits.maximumImagePixels)

        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .libraryFailure(library: "libpng", message: message(image))
        }
        let width = Int(image.width)
        let height = Int(image.height)
        try RenderLimits.check("maximum image pixels", width * height, limits.maximumImagePixels)
        let isGray = image.format & 0x02 == 0  // PNG_FORMAT_FLAG_COLOR
        let channels = isGray ? 1 : 3
        // Read with straight (not premultiplied) 8-bit sRGB alpha and compose over white here, in sRGB values as
        // other viewers do; libpng's own composition works in linear light.
        image.format = isGray ? 0x01 : 0x03  // PNG_FORMAT_GA, PNG_FORMAT_RGBA
        var withAlpha = [UInt8](repeating: 0, count: width * height * (channels + 1))
        let stride = png_int_32(width * (channels + 1))
        let finished = withAlpha.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, stride, nil)
        }
        guard finished != 0 else { throw .libraryFailure(library: "libpng", message: message(image)) }
        let resolution = try Self.resolution(path: path)
        var result = PageImage(
            width: width, height: height, isGray: isGray, resolutionX: resolution?.x ?? 72,
            resolutionY: resolution?.y ?? 72)
        for pixel in 0..<(width * height) {
            let alpha = Int(withAlpha[pixel * (channels + 1) + channels])
            for c in 0..<channels {
                let value = Int(withAlpha[pixel * (channels + 1) + c])
                result.pixels[pixel * channels + c] = UInt8((value * alpha + 255 * (255 - alpha) + 127) / 255)
            }
        }
        return result
    }

    /// The bytes read for the pHYs chunk, which comes before the first IDAT (PNG 1.2 section 4.2.4.2).
    static let physicalSizeWindow = 64 * 1024

    /// The resolution in dots per inch from the pHYs chunk when its unit is the metre; nil when the file has none,
    /// gives only an aspect ratio, or puts it after the window.
    static func resolution(path: String) throws(RasterError) -> (x: Int, y: Int)? {
        let bytes = try FileContents.prefix(path: path, count: physicalSizeWindow)
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = number(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { return nil }
            if type == "pHYs", length == 9, offset + 17 <= bytes.count {
                let (x, y) = (number(offset + 8), number(offset + 12))
                guard bytes[offset + 16] == 1, x > 0, y > 0 else { return nil }
                // Pixels a metre to dots per inch, rounded: 11811 is 300 dpi.
                return ((x * 254 + 5_000) / 10_000, (y * 254 + 5_000) / 10_000)
            }
            guard length <= bytes.count else { return nil }
            offset += 12 + length
        }
        return nil
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
