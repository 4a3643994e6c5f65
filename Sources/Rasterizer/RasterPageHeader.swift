import PrintModel

/// What a PWG Raster or Apple Raster page header says about the pixels that follow, after validation.
public struct RasterPageHeader: Sendable, Equatable {
    /// 1-based number of the page in its file.
    public var pageNumber: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels (lines).
    public var height: Int
    /// Horizontal resolution in dots per inch.
    public var resolutionX: Int
    /// Vertical resolution in dots per inch.
    public var resolutionY: Int
    /// Color space of the samples.
    public var colorSpace: RasterColorSpace
    /// Bits of one color sample: 1, 2, 4, 8 or 16.
    public var bitsPerColor: Int
    /// Bytes of one uncompressed line.
    public var bytesPerLine: Int
    /// The page asks for two-sided printing.
    public var duplex = false
    /// Two-sided printing turns over the short edge.
    public var tumble = false
    /// -1 when the lines are mirrored left to right (PWG 5102.4 CrossFeedTransform, a back side).
    public var crossFeedTransform = 1
    /// -1 when the page is upside down top to bottom (PWG 5102.4 FeedTransform, a back side).
    public var feedTransform = 1
    /// PWG media size name, when the header carries one (`na_letter_8.5x11in`).
    public var pageSizeName = ""
    /// Number of copies the page header asks for (0 when not given).
    public var copies = 0

    /// Bits of one pixel.
    public var bitsPerPixel: Int { bitsPerColor * colorSpace.colorCount }

    /// Bytes of the smallest unit a run repeats: one pixel, or one byte for pixels smaller than a byte.
    public var runUnit: Int { max(1, bitsPerPixel / 8) }

    /// True when the page becomes an 8-bit gray image, false for 8-bit RGB.
    public var isGray: Bool { colorSpace.isGray }

    /// Bytes per pixel of the decoded (8-bit gray or RGB) rows.
    public var outputChannels: Int { isGray ? 1 : 3 }

    /// Checks the fields that every raster format shares against `limits` and against each other.
    func validate(limits: RenderLimits) throws(RasterError) {
        let page = pageNumber
        guard width > 0 else { throw .badHeader(page: page, field: "Width", value: width) }
        guard height > 0 else { throw .badHeader(page: page, field: "Height", value: height) }
        try RenderLimits.check("maximum page width", width, limits.maximumDimension)
        try RenderLimits.check("maximum page height", height, limits.maximumDimension)
        // Checked: limits the request raises must not let a product of two header fields overflow.
        let (pixels, pixelsOverflow) = width.multipliedReportingOverflow(by: height)
        if pixelsOverflow {
            throw .limitExceeded(limit: "maximum page pixels", value: .max, maximum: limits.maximumPagePixels)
        }
        try RenderLimits.check("maximum page pixels", pixels, limits.maximumPagePixels)
        guard resolutionX > 0 else { throw .badHeader(page: page, field: "HWResolution[0]", value: resolutionX) }
        guard resolutionY > 0 else { throw .badHeader(page: page, field: "HWResolution[1]", value: resolutionY) }
        try RenderLimits.check("maximum resolution", resolutionX, limits.maximumResolution)
        try RenderLimits.check("maximum resolution", resolutionY, limits.maximumResolution)
        switch bitsPerColor {
        case 8, 16: break
        case 1 where colorSpace.colorCount == 1, 2 where colorSpace.colorCount == 1, 4 where colorSpace.colorCount == 1:
            break
        default: throw .badHeader(page: page, field: "BitsPerColor", value: bitsPerColor)
        }
        let (bits, bitsOverflow) = width.multipliedReportingOverflow(by: bitsPerPixel)
        guard !bitsOverflow, bits <= Int.max - 7, bytesPerLine == (bits + 7) / 8 else {
            throw .badHeader(page: page, field: "BytesPerLine", value: bytesPerLine)
        }
    }
}
