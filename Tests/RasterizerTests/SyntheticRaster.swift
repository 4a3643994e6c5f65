/// Builds small PWG Raster and Apple Raster streams byte by byte, for malformed-input tests.
enum SyntheticRaster {
    /// PWG page header fields the tests change.
    struct PWGPage {
        var width = 8
        var height = 4
        var resolution = 300
        var bitsPerColor = 8
        var colorSpace: UInt32 = 18
        var colors = 1
        var bytesPerLine: Int?
        var crossFeedTransform: Int32 = 1
        var feedTransform: Int32 = 1
        /// Compressed page data; by default every line is white with one 0x80 code, in one repeat group.
        var data: [UInt8]?
    }

    static func put(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        bytes[offset] = UInt8(value >> 24)
        bytes[offset + 1] = UInt8((value >> 16) & 0xFF)
        bytes[offset + 2] = UInt8((value >> 8) & 0xFF)
        bytes[offset + 3] = UInt8(value & 0xFF)
    }

    /// The 1796-byte header followed by the page data.
    static func pwgPage(_ page: PWGPage) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 1796)
        for (index, byte) in "PwgRaster".utf8.enumerated() { header[index] = byte }
        put(UInt32(page.resolution), at: 276, in: &header)
        put(UInt32(page.resolution), at: 280, in: &header)
        put(UInt32(truncatingIfNeeded: page.width), at: 372, in: &header)
        put(UInt32(truncatingIfNeeded: page.height), at: 376, in: &header)
        put(UInt32(page.bitsPerColor), at: 384, in: &header)
        put(UInt32(page.bitsPerColor * page.colors), at: 388, in: &header)
        let bytesPerLine = page.bytesPerLine ?? (page.width * page.bitsPerColor * page.colors + 7) / 8
        put(UInt32(truncatingIfNeeded: bytesPerLine), at: 392, in: &header)
        put(page.colorSpace, at: 400, in: &header)
        put(UInt32(page.colors), at: 420, in: &header)
        put(UInt32(bitPattern: page.crossFeedTransform), at: 456, in: &header)
        put(UInt32(bitPattern: page.feedTransform), at: 460, in: &header)
        return header + (page.data ?? whiteLines(height: page.height))
    }

    /// Compressed data for `height` white lines: repeat groups of at most 256 lines, each one 0x80 code.
    static func whiteLines(height: Int) -> [UInt8] {
        var data: [UInt8] = []
        var left = height
        while left > 0 {
            let count = min(256, left)
            data += [UInt8(count - 1), 0x80]
            left -= count
        }
        return data
    }

    /// A PWG Raster stream of `pages`.
    static func pwg(_ pages: [PWGPage]) -> [UInt8] {
        Array("RaS2".utf8) + pages.flatMap(pwgPage)
    }

    /// An Apple Raster stream with one page.
    static func urf(width: Int, height: Int, bitsPerPixel: UInt8 = 24, colorSpace: UInt8 = 1, data: [UInt8]? = nil)
        -> [UInt8]
    {
        urf(width: width, height: height, bitsPerPixel: bitsPerPixel, colorSpace: colorSpace, pages: [data])
    }

    /// An Apple Raster stream with one page for each entry of `pages` (nil: a white page).
    static func urf(width: Int, height: Int, bitsPerPixel: UInt8, colorSpace: UInt8, pages: [[UInt8]?]) -> [UInt8] {
        var bytes = Array("UNIRAST\0".utf8)
        var count = [UInt8](repeating: 0, count: 4)
        put(UInt32(pages.count), at: 0, in: &count)
        bytes += count
        for data in pages {
            var header = [UInt8](repeating: 0, count: 32)
            header[0] = bitsPerPixel
            header[1] = colorSpace
            header[2] = 1
            put(UInt32(truncatingIfNeeded: width), at: 12, in: &header)
            put(UInt32(truncatingIfNeeded: height), at: 16, in: &header)
            put(300, at: 20, in: &header)
            bytes += header
            bytes += data ?? whiteLines(height: height)
        }
        return bytes
    }
}
