import PrintModel

/// The 32-byte page header of Apple Raster (`image/urf`), read into a ``RasterPageHeader``.
///
/// Byte 0 is bits per pixel, byte 1 the color space, byte 2 the duplex mode, bytes 12-15 the width,
/// 16-19 the height and 20-23 the resolution (big-endian).
enum URFPageHeader {
    /// Size of a page header in bytes.
    static let size = 32

    /// The color space for an Apple Raster color space code.
    static func colorSpace(_ code: UInt8) -> RasterColorSpace? {
        switch code {
        case 0: .sGray
        case 1: .sRGB
        case 2: .cieLab
        case 3: .adobeRGB
        case 4: .sGray
        case 5: .rgb
        case 6: .cmyk
        default: nil
        }
    }

    /// Reads and validates a header.
    static func parse(_ bytes: [UInt8], pageNumber: Int, limits: RenderLimits) throws(RasterError) -> RasterPageHeader {
        func value(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        guard let declared = colorSpace(bytes[1]) else {
            throw .badHeader(page: pageNumber, field: "color space", value: Int(bytes[1]))
        }
        var colorSpace = declared
        let bitsPerPixel = Int(bytes[0])
        if bitsPerPixel == 1, colorSpace == .sGray {
            // CUPS writes its 1-bit black pages (black_1, 1 = ink) this way; Apple Raster itself has no 1-bit mode.
            colorSpace = .black
        }
        guard bitsPerPixel == 1 || (bitsPerPixel > 0 && bitsPerPixel % (8 * colorSpace.colorCount) == 0) else {
            throw .badHeader(page: pageNumber, field: "bits per pixel", value: bitsPerPixel)
        }
        let bitsPerColor = bitsPerPixel / colorSpace.colorCount
        let width = value(12)
        let bytesPerLine = (width * bitsPerPixel + 7) / 8
        let resolution = value(20)
        var header = RasterPageHeader(
            pageNumber: pageNumber, width: width, height: value(16), resolutionX: resolution,
            resolutionY: resolution, colorSpace: colorSpace, bitsPerColor: bitsPerColor,
            bytesPerLine: bytesPerLine)
        header.duplex = bytes[2] >= 2
        header.tumble = bytes[2] == 2
        try header.validate(limits: limits)
        return header
    }
}
