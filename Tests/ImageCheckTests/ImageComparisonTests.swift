import Foundation
import ImageCheck
import Testing

@Suite struct ImageComparisonTests {
    /// A white image with black text-like bars, shifted right by `shift` pixels.
    private func page(width: Int = 120, height: Int = 80, shift: Int = 0) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for line in 0..<5 {
            for y in (10 + line * 12)..<(16 + line * 12) {
                for x in (10 + shift)..<(100 + shift) where x < width && (x / 7) % 3 != 0 { image[x, y] = (0, 0, 0) }
            }
        }
        return image
    }

    @Test func identicalImagesHaveInfinitePSNRAndSSIMOne() {
        let result = ImageComparison.compare(page(), page())
        #expect(result.sizeMatches && result.isIdentical)
        #expect(result.psnr == .infinity)
        #expect(abs((result.ssim ?? 0) - 1) < 1e-9)
        #expect(result.differingPixels == 0)
    }

    @Test func aShiftedPageScoresLow() {
        let result = ImageComparison.compare(page(shift: 4), page())
        #expect(result.sizeMatches && !result.isIdentical)
        #expect((result.psnr ?? 99) < 20)
        #expect((result.ssim ?? 1) < 0.95)
        #expect(result.differingPixels > 100)
        #expect(result.maximumDifference == 255)
    }

    @Test func aSlightToneChangeKeepsHighScores() {
        var lighter = page()
        for index in lighter.pixels.indices where lighter.pixels[index] == 0 { lighter.pixels[index] = 6 }
        let result = ImageComparison.compare(lighter, page())
        #expect((result.psnr ?? 0) > 30)
        #expect((result.ssim ?? 0) > 0.99)
        #expect(result.differingPixels == 0)
    }

    @Test func differentSizesAreNotCompared() {
        let result = ImageComparison.compare(page(width: 120), page(width: 121))
        #expect(!result.sizeMatches)
        #expect(result.psnr == nil && result.ssim == nil)
    }

    @Test func imagesSmallerThanAWindowStillGetAnSSIM() {
        let a = RGBImage(width: 3, height: 2, red: 10, green: 10, blue: 10)
        #expect(abs((ImageComparison.compare(a, a).ssim ?? 0) - 1) < 1e-9)
        let b = RGBImage(width: 3, height: 2, red: 250, green: 250, blue: 250)
        #expect((ImageComparison.compare(a, b).ssim ?? 1) < 0.1)
    }

    @Test func theDifferenceImageMarksChangedPixelsRedAndUncoveredOnesBlue() {
        var actual = page()
        actual[50, 40] = (0, 0, 0)
        let diff = ImageComparison.differenceImage(actual, page(width: 121))
        #expect(diff.width == 121 && diff.height == 80)
        #expect(diff[50, 40] == (255, 0, 0))
        #expect(diff[120, 0] == (0, 0, 255))
        #expect(diff[0, 0] == (255, 255, 255))  // white stays white when faded
    }

    @Test func aWrittenPNGReadsBackTheSame() throws {
        let path = NSTemporaryDirectory() + "/imagecheck-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var image = page()
        image[3, 4] = (12, 200, 99)
        try PNGFile.write(image, to: path)
        #expect(try PNGFile.read(path) == image)
        let gray = try PNGFile.readGray(path)
        #expect(gray.width == image.width && gray.height == image.height && gray.pixels[0] == 255)
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
    }

    @Test func aFileThatIsNotAPNGIsAnError() throws {
        let path = NSTemporaryDirectory() + "/imagecheck-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a png at all".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageCheckError.self) { try PNGFile.read(path) }
        #expect(throws: ImageCheckError.self) { try PNGFile.read(path + ".missing") }
    }
}

@Suite struct ImageCheckLimitTests {
    /// A PNG of a `width` x `height` 8-bit RGB image whose pixel data is missing: signature, IHDR, an empty IDAT
    /// and IEND, with their CRCs. Enough for the header to be read.
    private func header(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return be(UInt32(data.count)) + body + be(~crc)
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be(width) + be(height) + [8, 2, 0, 0, 0])
            + chunk("IDAT", []) + chunk("IEND", [])
    }

    @Test func anImageAboveTheLimitIsRefusedBeforeItsPixelsAreRead() throws {
        let path = NSTemporaryDirectory() + "/imagecheck-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // 10,001 x 10,000 pixels: just over RGBImage.maximumPixels (100 million).
        try Data(header(width: 10_001, height: 10_000)).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageCheckError.tooLarge(path: path, width: 10_001, height: 10_000)) { try PNGFile.read(path) }
        #expect(10_001 * 10_000 > RGBImage.maximumPixels && 10_000 * 10_000 <= RGBImage.maximumPixels)
    }

    @Test func aPixelCountsAsDifferentOnlyAboveTheTolerance() {
        let white = RGBImage(width: 4, height: 4)
        var within = white
        within[0, 0] = (UInt8(255 - ImageComparison.pixelTolerance), 255, 255)
        #expect(ImageComparison.compare(within, white).differingPixels == 0)
        var beyond = white
        beyond[0, 0] = (UInt8(255 - ImageComparison.pixelTolerance - 1), 255, 255)
        #expect(ImageComparison.compare(beyond, white).differingPixels == 1)
    }
}
