import Foundation
import PrintModel
import Rasterizer
import Testing

/// JPEG and PNG documents made by ImageMagick from one picture, rendered 1:1 and compared with ImageMagick's own
/// decoding of the same file.
@Suite(.timeLimit(.minutes(1))) struct ImageDecodingTests {
    /// An ImageMagick variant of the test picture.
    struct Variant: CustomTestStringConvertible, Sendable {
        var name: String
        var options: [String]
        var minimumPSNR: Double
        /// What ImageMagick does to the file before the comparison, besides decoding it.
        var referenceOptions: [String] = []
        var testDescription: String { name }
    }

    /// ImageMagick's color-managed CMYK: the press profile vprinter shows CMYK with, to sRGB, relative colorimetric
    /// with black point compensation (``CMYKConversion``); without it ImageMagick shows inks by their complement.
    static let pressProfileToSRGB = [
        "-intent", "Relative", "-black-point-compensation", "-profile",
        "/usr/share/color/icc/ghostscript/default_cmyk.icc",
        "-profile", "/usr/share/color/icc/ghostscript/srgb.icc",
    ]

    static let variants: [Variant] = [
        Variant(name: "baseline.jpg", options: ["-quality", "90"], minimumPSNR: 30),
        Variant(name: "progressive.jpg", options: ["-interlace", "Plane"], minimumPSNR: 30),
        Variant(name: "gray.jpg", options: ["-colorspace", "Gray"], minimumPSNR: 30),
        Variant(
            name: "cmyk.jpg", options: ["-colorspace", "CMYK"], minimumPSNR: 30, referenceOptions: pressProfileToSRGB),
        Variant(name: "rgb8.png", options: [], minimumPSNR: 40),
        Variant(name: "rgb16.png", options: ["-depth", "16"], minimumPSNR: 40),
        Variant(name: "gray.png", options: ["-colorspace", "Gray"], minimumPSNR: 40),
        Variant(name: "bilevel.png", options: ["-type", "Bilevel"], minimumPSNR: 40),
        Variant(name: "gray4.png", options: ["-colorspace", "Gray", "-depth", "4"], minimumPSNR: 40),
        Variant(name: "palette.png", options: ["-colors", "16", "-type", "Palette"], minimumPSNR: 25),
        Variant(
            name: "alpha.png", options: ["-alpha", "set", "-channel", "A", "-evaluate", "set", "50%", "+channel"],
            minimumPSNR: 25),
    ]

    /// A 96 x 128 picture: color bars and a black square at the top left.
    static func makePicture(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("picture.ppm")
        var bytes = Array("P6\n96 128\n255\n".utf8)
        for y in 0..<128 {
            for x in 0..<96 {
                if x < 24 && y < 24 {
                    bytes += [0, 0, 0]
                } else {
                    bytes += [UInt8(x * 255 / 95), UInt8(y * 255 / 127), UInt8((x / 24) % 2 == 0 ? 40 : 220)]
                }
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: variants)
    func renderedImageMatchesImageMagick(_ variant: Variant) throws {
        let harness = try RenderHarness()
        let picture = try Self.makePicture(in: harness.folder)
        let file = harness.folder.file(variant.name)
        try ExternalTool.run(
            "convert", [picture] + variant.options + ["-density", "72", "-units", "PixelsPerInch", file])
        // A 96 x 128 point sheet at 72 dpi: the picture fills it 1:1.
        var ticket = JobTicket()
        (ticket.mediaWidth, ticket.mediaHeight, ticket.resolution) = (3387, 4516, 72)
        _ = try harness.render([file], ticket: ticket)
        let ours = try harness.image("page-0001.png")
        let reference = try harness.decode(file, options: variant.referenceOptions)
        #expect(ours.width == 96 && ours.height == 128)
        let expected = variant.name == "alpha.png" ? try reference.overWhite(file: file) : reference
        let psnr = ImageComparison.psnr(ours, expected)
        #expect(psnr >= variant.minimumPSNR, "PSNR \(psnr) dB")
    }

    /// An APP1 segment holding a big-endian Exif IFD0 with one Orientation entry.
    static func exifSegment(orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] =
            Array("MM".utf8) + [0x00, 0x2A, 0, 0, 0, 8] + [0, 1] + [0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1]
            + [0, orientation, 0, 0] + [0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    @Test(arguments: [3, 6, 8])
    func exifOrientationTurnsTheImageUpright(orientation: Int) throws {
        let harness = try RenderHarness()
        let picture = try Self.makePicture(in: harness.folder)
        let stored = harness.folder.file("stored.jpg")
        // Store the picture as a camera would for the tag: turned the other way.
        let turn = ["3": "180", "6": "-90", "8": "90"]["\(orientation)"] ?? "0"
        try ExternalTool.run("convert", [picture, "-rotate", turn, "-quality", "95", stored])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stored)))
        let file = harness.folder.file("tagged.jpg")
        try Data(Array(bytes[0..<2]) + Self.exifSegment(orientation: UInt8(orientation)) + Array(bytes[2...]))
            .write(to: URL(fileURLWithPath: file))
        var ticket = JobTicket()
        (ticket.mediaWidth, ticket.mediaHeight, ticket.resolution) = (3387, 4516, 72)
        _ = try harness.render([file], ticket: ticket)
        let ours = try harness.image("page-0001.png")
        let size = (ours.width, ours.height)
        #expect(size == (96, 128))
        let topLeftDark = ours.isDark(8, 8)
        let bottomRightDark = ours.isDark(88, 120)
        #expect(topLeftDark && !bottomRightDark)
        let reference = try harness.decode(picture)
        let psnr = ImageComparison.psnr(ours, reference)
        #expect(psnr >= 28, "PSNR \(psnr) dB against the unturned picture")
    }

    @Test func imageAboveThePixelLimitIsRefusedFromItsHeader() throws {
        let harness = try RenderHarness()
        let file = harness.folder.file("huge.png")
        try Data(HugePNG.header(width: 100_000, height: 100_000)).write(to: URL(fileURLWithPath: file))
        #expect(throws: RasterError.limitExceeded(limit: "maximum image width", value: 100_000, maximum: 32_768)) {
            try harness.render([file], ticket: JobTicket())
        }
        let jpeg = harness.folder.file("huge.jpg")
        try Data(HugePNG.jpegHeader(width: 30_000, height: 30_000)).write(to: URL(fileURLWithPath: jpeg))
        #expect(
            throws: RasterError.limitExceeded(limit: "maximum image pixels", value: 900_000_000, maximum: 96_000_000)
        ) {
            try harness.render([jpeg], ticket: JobTicket())
        }
    }

    @Test func jpegFileAboveTheSizeLimitIsRefused() throws {
        let harness = try RenderHarness()
        let picture = try Self.makePicture(in: harness.folder)
        let file = harness.folder.file("picture.jpg")
        try ExternalTool.run("convert", [picture, "-quality", "100", file])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        var limits = RenderLimits()
        limits.maximumImageFileSize = size - 1
        #expect(throws: RasterError.limitExceeded(limit: "maximum file size", value: size, maximum: size - 1)) {
            try harness.render([file], ticket: JobTicket(), limits: limits)
        }
        limits.maximumImageFileSize = size
        #expect(try harness.render([file], ticket: JobTicket(), limits: limits).summary.pages == 1)
    }

    @Test func corruptImagesAreFormatErrors() throws {
        let harness = try RenderHarness()
        let picture = try Self.makePicture(in: harness.folder)
        for name in ["cut.jpg", "cut.png"] {
            let file = harness.folder.file(name)
            try ExternalTool.run("convert", [picture, file])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            try bytes.prefix(40).write(to: URL(fileURLWithPath: file))
            do {
                _ = try harness.render([file], ticket: JobTicket())
                Issue.record("\(name) rendered")
            } catch {
                #expect(error.ippReason == "document-format-error", "\(name): \(error)")
            }
        }
    }

    @Test func damagedJPEGAndPNGAtManyOffsetsRenderOrFailCleanly() throws {
        let harness = try RenderHarness()
        let picture = try Self.makePicture(in: harness.folder)
        var ticket = JobTicket()
        (ticket.mediaWidth, ticket.mediaHeight, ticket.resolution) = (3387, 4516, 36)
        for name in ["damaged.jpg", "damaged-progressive.jpg", "damaged.png"] {
            let file = harness.folder.file(name)
            let options = name.contains("progressive") ? ["-interlace", "Plane"] : []
            try ExternalTool.run("convert", [picture] + options + [file])
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            var rendered = 0
            var failed = 0
            for offset in stride(from: 2, to: original.count, by: max(1, original.count / 40)) {
                // Cut the file there, and separately overwrite 16 bytes there with garbage.
                var garbled = original
                for index in offset..<min(offset + 16, garbled.count) { garbled[index] = UInt8((index * 37) & 0xFF) }
                for bytes in [Array(original.prefix(offset)), garbled] {
                    try Data(bytes).write(to: URL(fileURLWithPath: file))
                    do {
                        _ = try harness.render([file], ticket: ticket)
                        rendered += 1
                    } catch {
                        #expect(
                            ["document-format-error", "unsupported-document-format", "document-unprintable-error"]
                                .contains(
                                    error.ippReason),
                            "\(name) damaged at \(offset): \(error)")
                        failed += 1
                    }
                }
            }
            #expect(failed > 0, "\(name): some damage must be detected")
            #expect(rendered + failed >= 80)
        }
    }
}

extension PageImage {
    /// ImageMagick's rendering of `file` flattened over white, for images with alpha.
    func overWhite(file: String) throws -> PageImage {
        let folder = try TemporaryFolder()
        let output = folder.file("flat.ppm")
        try ExternalTool.run("convert", [file, "-background", "white", "-flatten", "-depth", "8", output])
        return try NetPBM.read(output)
    }
}

/// Headers of images far larger than any limit, valid enough for the libraries to read their size.
enum HugePNG {
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The PNG signature and an IHDR chunk for an 8-bit RGB image.
    static func header(width: Int, height: Int) -> [UInt8] {
        let body = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + body + be32(Int(crc(body)))
    }

    /// SOI and a baseline SOF0 for a 3-component image, then EOI: enough for jpeg_read_header to report the size.
    static func jpegHeader(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        // DQT with one table of ones.
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + Array(repeating: 1, count: 64)
        bytes += [
            0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8),
            UInt8(width & 0xFF), 0x03,
        ]
        bytes += [0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
        // DHT: a DC and an AC table with one one-bit code each.
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00] + [1] + Array(repeating: 0, count: 15) + [0]
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x10] + [1] + Array(repeating: 0, count: 15) + [0]
        bytes += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x00, 0x3F, 0x00]
        bytes += [0xFF, 0xD9]
        return bytes
    }
}
