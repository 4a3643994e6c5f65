import CPNG

/// Decodes a PNG file (every bit depth, palette, gray, alpha composed over white) into a ``PageImage`` with
/// libpng's simplified API, which keeps libpng's error handling inside libpng and reports failures as a message.
enum PNGDecoder {
    /// Decodes the file at `path`.
    static func decode(path: String, limits: RenderLimits) throws(RasterError) -> PageImage {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .libraryFailure(library: "libpng", message: message(image))
        }
        let width = Int(image.width)
        let height = Int(image.height)
        try RenderLimits.check("maximum image width", width, limits.maximumDimension)
        try RenderLimits.check("maximum image height", height, limits.maximumDimension)
        try RenderLimits.check("maximum image pixels", width * height, limits.maximumImagePixels)
        let isGray = image.format & 0x02 == 0  // PNG_FORMAT_FLAG_COLOR
        image.format = isGray ? 0 : 2  // PNG_FORMAT_GRAY, PNG_FORMAT_RGB
        var result = PageImage(width: width, height: height, isGray: isGray)
        var white = png_color(red: 255, green: 255, blue: 255)
        let stride = png_int_32(result.bytesPerRow)
        let finished = result.pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, &white, buffer.baseAddress, stride, nil)
        }
        guard finished != 0 else { throw .libraryFailure(library: "libpng", message: message(image)) }
        return result
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
