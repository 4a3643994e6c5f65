import Foundation
import Rasterizer
import Testing

/// PWG Raster and Apple Raster pages written by ghostscript, decoded by ``RasterReader`` and compared with the
/// same pages rendered by ghostscript's own PPM/PGM devices.
@Suite(.timeLimit(.minutes(1))) struct RasterReaderReferenceTests {
    /// A ghostscript raster variant: device options and the reference device that renders the same colors.
    ///
    /// CMYK (space 6): Ghostscript's raster devices separate the page's RGB into inks by their own formula, without
    /// a profile, and vprinter shows inks through a press profile, so the two pictures differ in color by design
    /// (22 dB); CMYKRenderingTests compares color-managed CMYK at 50 dB and more. Here the bound still rejects a
    /// blank page.
    struct Variant: CustomTestStringConvertible, Sendable {
        var device: String
        var colorSpace: Int
        var bits: Int
        var reference: String
        var minimumPSNR: Double
        var testDescription: String { "\(device) space \(colorSpace) \(bits)-bit" }
    }

    static let variants: [Variant] = [
        Variant(device: "pwgraster", colorSpace: 18, bits: 8, reference: "pgmraw", minimumPSNR: 50),
        Variant(device: "pwgraster", colorSpace: 18, bits: 16, reference: "pgmraw", minimumPSNR: 50),
        Variant(device: "pwgraster", colorSpace: 19, bits: 8, reference: "ppmraw", minimumPSNR: 50),
        Variant(device: "pwgraster", colorSpace: 19, bits: 16, reference: "ppmraw", minimumPSNR: 50),
        Variant(device: "pwgraster", colorSpace: 3, bits: 8, reference: "pgmraw", minimumPSNR: 50),
        Variant(device: "pwgraster", colorSpace: 3, bits: 16, reference: "pgmraw", minimumPSNR: 50),
        Variant(device: "pwgraster", colorSpace: 3, bits: 1, reference: "pgmraw", minimumPSNR: 16),
        Variant(device: "pwgraster", colorSpace: 6, bits: 8, reference: "ppmraw", minimumPSNR: 20),
        Variant(device: "pwgraster", colorSpace: 6, bits: 16, reference: "ppmraw", minimumPSNR: 20),
        Variant(device: "pwgraster", colorSpace: 1, bits: 8, reference: "ppmraw", minimumPSNR: 50),
        Variant(device: "pwgraster", colorSpace: 20, bits: 8, reference: "ppmraw", minimumPSNR: 25),
        Variant(device: "urf", colorSpace: 19, bits: 8, reference: "ppmraw", minimumPSNR: 50),
        Variant(device: "urf", colorSpace: 18, bits: 8, reference: "pgmraw", minimumPSNR: 50),
        Variant(device: "urf", colorSpace: 19, bits: 16, reference: "ppmraw", minimumPSNR: 50),
        Variant(device: "urf", colorSpace: 6, bits: 8, reference: "ppmraw", minimumPSNR: 20),
        Variant(device: "urf", colorSpace: 3, bits: 1, reference: "pgmraw", minimumPSNR: 16),
    ]

    @Test(arguments: variants)
    func decodedPagesMatchGhostscriptRendering(_ variant: Variant) throws {
        let folder = try TemporaryFolder()
        let source = try TestDocuments.writePostScript(in: folder, pages: 2)
        let raster = folder.file("document.raster")
        var options = ["-sDEVICE=\(variant.device)", "-r96", "-sOutputFile=\(raster)"]
        options += ["-dcupsColorSpace=\(variant.colorSpace)", "-dcupsBitsPerColor=\(variant.bits)"]
        try ExternalTool.ghostscript(options + [source])
        try ExternalTool.ghostscript(
            ["-sDEVICE=\(variant.reference)", "-r96", "-sOutputFile=\(folder.file("ref-%d.pnm"))", source])

        let reader = try RasterReader(path: raster)
        var pages = 0
        while let header = try reader.nextPage() {
            pages += 1
            let image = try #require(try reader.readImage())
            #expect(header.resolutionX == 96)
            var reference = try NetPBM.read(folder.file("ref-\(pages).pnm"))
            if image.isGray { reference = ImageComparison.gray(reference) }
            let psnr = ImageComparison.psnr(image, reference)
            let blank = PageImage(width: image.width, height: image.height, isGray: image.isGray)
            #expect(ImageComparison.psnr(blank, reference) < variant.minimumPSNR, "the bound must reject a blank page")
            #expect(psnr >= variant.minimumPSNR, "page \(pages): PSNR \(psnr) dB, \(image.width)x\(image.height)")
        }
        #expect(pages == 2)
    }
}
