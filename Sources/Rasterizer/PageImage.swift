
/// A decoded picture in memory: 8-bit gray or 8-bit RGB pixels, rows top to bottom, no padding.
public struct PageImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// True for one byte a pixel (gray, 0 = black), false for three (R, G, B).
    public var isGray: Bool
    /// Horizontal resolution in dots per inch (72 when the source does not say).
    public var resolutionX: Int
    /// Vertical resolution in dots per inch.
    public var resolutionY: Int
    /// The pixels, `width * channels` bytes a row.
    public var pixels: [UInt8]

    /// A white image of the given size.
    public init(width: Int, height: Int, isGray: Bool, resolutionX: Int = 72, resolutionY: Int = 72) {
        self.width = width
        self.height = height
        self.isGray = isGray
        self.resolutionX = resolutionX
        self.resolutionY = resolutionY
        pixels = [UInt8](repeating: 255, count: width * height * (isGray ? 1 : 3))
    }

    /// Bytes a pixel: 1 or 3.
    public var channels: Int { isGray ? 1 : 3 }

    /// Bytes a row.
    public var bytesPerRow: Int { width * channels }
}
