import PrintModel
import Rasterizer
import Testing

/// Malformed and hostile raster streams end in a typed error, never a crash or unbounded memory.
@Suite struct RasterReaderMalformedInputTests {
    /// Decodes every page and row; returns the pages read.
    @discardableResult
    func decodeAll(_ bytes: [UInt8], limits: RenderLimits = RenderLimits()) throws(RasterError) -> Int {
        let reader = try RasterReader(input: MemoryInput(bytes), limits: limits)
        var pages = 0
        while try reader.nextPage() != nil {
            pages += 1
            while try reader.nextRow() != nil {}
        }
        return pages
    }

    static let literalLine: [UInt8] = [0xF9] + Array(repeating: 0x40, count: 8)

    @Test func validTwoPageStreamDecodes() throws {
        let page = SyntheticRaster.PWGPage(data: [0x03] + Self.literalLine)
        #expect(try decodeAll(SyntheticRaster.pwg([page, page])) == 2)
    }

    @Test func literalRunsAndRepeatedLinesProduceTheirPixels() throws {
        let page = SyntheticRaster.PWGPage(height: 3, data: [0x01, 0x02, 0x10, 0xFC, 1, 2, 3, 4, 5, 0x00, 0x80])
        let reader = try RasterReader(input: MemoryInput(SyntheticRaster.pwg([page])))
        _ = try reader.nextPage()
        let image = try #require(try reader.readImage())
        #expect(Array(image.pixels[0..<8]) == [0x10, 0x10, 0x10, 1, 2, 3, 4, 5])
        #expect(Array(image.pixels[8..<16]) == [0x10, 0x10, 0x10, 1, 2, 3, 4, 5])
        #expect(Array(image.pixels[16..<24]) == Array(repeating: 0xFF, count: 8))
    }

    @Test func truncatedStreamAtEveryOffsetIsAnError() throws {
        let page = SyntheticRaster.PWGPage(data: [0x03] + Self.literalLine)
        let bytes = SyntheticRaster.pwg([page])
        for length in 0..<bytes.count where length != 4 {
            #expect(throws: RasterError.self, "prefix of \(length) bytes") {
                try decodeAll(Array(bytes.prefix(length)))
            }
        }
        #expect(try decodeAll(Array(bytes.prefix(4))) == 0)
    }

    @Test func widthOfOneBillionIsRejectedBeforeAnyAllocation() {
        let page = SyntheticRaster.PWGPage(width: 1_000_000_000)
        #expect(throws: RasterError.limitExceeded(limit: "maximum page width", value: 1_000_000_000, maximum: 32_768)) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func pageAboveThePixelLimitIsRejected() {
        let page = SyntheticRaster.PWGPage(width: 30_000, height: 30_000)
        #expect(
            throws: RasterError.limitExceeded(limit: "maximum page pixels", value: 900_000_000, maximum: 600_000_000)
        ) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func lineLengthThatDoesNotMatchTheWidthIsRejected() {
        let page = SyntheticRaster.PWGPage(bytesPerLine: 7)
        #expect(throws: RasterError.badHeader(page: 1, field: "BytesPerLine", value: 7)) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func unknownColorSpaceIsRejected() {
        let page = SyntheticRaster.PWGPage(colorSpace: 2)
        #expect(throws: RasterError.badHeader(page: 1, field: "ColorSpace", value: 2)) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func zeroResolutionIsRejected() {
        let page = SyntheticRaster.PWGPage(resolution: 0)
        #expect(throws: RasterError.badHeader(page: 1, field: "HWResolution[0]", value: 0)) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func resolutionAboveTheLimitIsRejected() {
        let page = SyntheticRaster.PWGPage(resolution: 4_800)
        #expect(throws: RasterError.limitExceeded(limit: "maximum resolution", value: 4_800, maximum: 2_400)) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func runCrossingTheEndOfTheLineIsCorruptData() {
        let page = SyntheticRaster.PWGPage(height: 1, data: [0x00, 0x08, 0x00])
        #expect(throws: RasterError.corruptData(page: 1, line: 0, reason: "a run crosses the end of the line")) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func lineRepeatCrossingTheEndOfThePageIsCorruptData() {
        let page = SyntheticRaster.PWGPage(height: 2, data: [0x05, 0x80])
        #expect(throws: RasterError.corruptData(page: 1, line: 0, reason: "line repeat crosses the end of the page")) {
            try decodeAll(SyntheticRaster.pwg([page]))
        }
    }

    @Test func pagesBeyondThePageLimitAreRejected() {
        var limits = RenderLimits()
        limits.maximumPages = 3
        let page = SyntheticRaster.PWGPage(height: 1)
        #expect(throws: RasterError.limitExceeded(limit: "maximum pages", value: 4, maximum: 3)) {
            try decodeAll(SyntheticRaster.pwg(Array(repeating: page, count: 5)), limits: limits)
        }
    }

    @Test func compressionBombIsStoppedByThePixelLimitWhileDecodingStaysStreaming() throws {
        // 32,768 x 16,384 white RGB lines in 192 bytes: 1.5 GB if held in memory; streamed it needs one line.
        let page = SyntheticRaster.PWGPage(width: 32_768, height: 16_384, colorSpace: 19, colors: 3)
        let bytes = SyntheticRaster.pwg([page])
        #expect(bytes.count < 2_000)
        #expect(try decodeAll(bytes) == 1)
        var limits = RenderLimits()
        limits.maximumPagePixels = 100_000_000
        #expect(throws: RasterError.self) { try decodeAll(bytes, limits: limits) }
        let reader = try RasterReader(input: MemoryInput(bytes))
        _ = try reader.nextPage()
        #expect(
            throws: RasterError.limitExceeded(limit: "maximum image pixels", value: 536_870_912, maximum: 96_000_000)
        ) {
            try reader.readImage()
        }
    }

    @Test func wrongSignatureIsRejected() {
        #expect(throws: RasterError.badSignature(format: "PWG or Apple Raster")) {
            try decodeAll(Array("%PDF-1.7".utf8))
        }
    }

    @Test func appleRasterWithAnUnknownColorSpaceIsRejected() {
        #expect(throws: RasterError.badHeader(page: 1, field: "color space", value: 9)) {
            try decodeAll(SyntheticRaster.urf(width: 4, height: 2, colorSpace: 9))
        }
    }

    @Test func appleRasterWithBitsPerPixelThatDoNotFitTheColorSpaceIsRejected() {
        #expect(throws: RasterError.badHeader(page: 1, field: "bits per pixel", value: 20)) {
            try decodeAll(SyntheticRaster.urf(width: 4, height: 2, bitsPerPixel: 20))
        }
    }

    @Test func appleRasterTruncatedAtEveryOffsetIsAnError() throws {
        let bytes = SyntheticRaster.urf(width: 2, height: 2, data: [0x01, 0x01, 0x10, 0x20, 0x30])
        #expect(try decodeAll(bytes) == 1)
        for length in 0..<(bytes.count) where length != 12 {
            #expect(throws: RasterError.self, "prefix of \(length) bytes") {
                try decodeAll(Array(bytes.prefix(length)))
            }
        }
    }

    @Test func appleRasterCIELabPagesBecomeRGB() throws {
        // One 3-pixel line: L* 100 a* 0 b* 0 (white), L* 0 (black), L* 50 a* +80 (a strong red-magenta).
        let data: [UInt8] = [0x00, 0xFE, 255, 128, 128, 0, 128, 128, 128, 208, 128]
        let reader = try RasterReader(
            input: MemoryInput(SyntheticRaster.urf(width: 3, height: 1, bitsPerPixel: 24, colorSpace: 2, data: data)))
        _ = try reader.nextPage()
        let image = try #require(try reader.readImage())
        #expect(Array(image.pixels[0..<3]) == [255, 255, 255])
        #expect(Array(image.pixels[3..<6]) == [0, 0, 0])
        let (r, g, b) = (image.pixels[6], image.pixels[7], image.pixels[8])
        #expect(r > 150 && g < 60 && b > 80)
    }

    @Test func deviceColorSpacesAreInksOnWhitePaper() throws {
        // One pixel each: no ink, full first colorant, and (for 4+ colorants) full fourth (black) colorant.
        func decode(space: UInt32, colors: Int, pixels: [[UInt8]]) throws -> [UInt8] {
            let data: [UInt8] = [0x00, UInt8(257 - pixels.count)] + pixels.joined()
            let page = SyntheticRaster.PWGPage(
                width: pixels.count, height: 1, colorSpace: space, colors: colors, data: data)
            let reader = try RasterReader(input: MemoryInput(SyntheticRaster.pwg([page])))
            _ = try reader.nextPage()
            return try #require(try reader.readImage()).pixels
        }
        #expect(try decode(space: 48, colors: 1, pixels: [[0], [255]]) == [255, 0])
        #expect(try decode(space: 50, colors: 3, pixels: [[0, 0, 0], [255, 0, 0]]) == [255, 255, 255, 0, 255, 255])
        let six = try decode(
            space: 53, colors: 6, pixels: [[0, 0, 0, 0, 0, 0], [0, 255, 0, 0, 9, 9], [0, 0, 0, 255, 0, 0]])
        #expect(six == [255, 255, 255, 255, 0, 255, 0, 0, 0])
    }
}
