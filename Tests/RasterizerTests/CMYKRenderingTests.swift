import Foundation
import PrintModel
import Testing

@testable import Rasterizer

/// CMYK documents (PWG Raster cmyk at 8 and 16 bits, CMYK JPEG) made by Ghostscript from one chart of ink
/// mixtures and ramps, rendered by the job renderer and compared with Ghostscript's color-managed png16m render of
/// the chart itself (its default CMYK profile to sRGB), the picture a color-managed printer shows.
@Suite(.timeLimit(.minutes(1))) struct CMYKRenderingTests {
    /// A 4 x 4 inch page: 625 patches of every mixture of C, M, Y and K in quarter steps, then a ramp of each ink
    /// and of all four together.
    static let chart = """
        %!PS
        << /PageSize [288 288] >> setpagedevice
        0 1 24 { /row exch def
          0 1 24 { /col exch def
            /i row 25 mul col add def
            i 125 idiv 5 mod 0.25 mul i 25 idiv 5 mod 0.25 mul i 5 idiv 5 mod 0.25 mul i 5 mod 0.25 mul
            setcmykcolor col 8 mul 44 add row 8 mul 80 add 8 8 rectfill
          } for
        } for
        0 1 99 { /j exch def /v j 100 div def
          v 0 0 0 setcmykcolor j 2 mul 44 add 10 2 12 rectfill
          0 v 0 0 setcmykcolor j 2 mul 44 add 24 2 12 rectfill
          0 0 v 0 setcmykcolor j 2 mul 44 add 38 2 12 rectfill
          0 0 0 v setcmykcolor j 2 mul 44 add 52 2 12 rectfill
          v v v v setcmykcolor j 2 mul 44 add 66 2 12 rectfill
        } for
        showpage
        """

    /// The least PSNR against Ghostscript's color-managed render (issue: "at least 25 dB"); the complement model
    /// of a printer without a profile stays below it on this chart.
    static let minimumPSNR = 25.0

    /// The chart made into `device` output by Ghostscript at `dpi`, rendered on a 4 x 4 inch sheet at `dpi`,
    /// with Ghostscript's png16m render of the chart at `dpi`.
    func renderChart(as file: String, dpi: Int, gsOptions: [String]) throws -> (ours: PageImage, reference: PageImage) {
        let harness = try RenderHarness()
        let source = harness.folder.file("chart.ps")
        try Self.chart.write(toFile: source, atomically: true, encoding: .utf8)
        let document = harness.folder.file(file)
        try ExternalTool.ghostscript(gsOptions + ["-r\(dpi)", "-sOutputFile=\(document)", source])
        let reference = harness.folder.file("reference.png")
        try ExternalTool.ghostscript(["-sDEVICE=png16m", "-r\(dpi)", "-sOutputFile=\(reference)", source])
        var ticket = JobTicket()
        (ticket.mediaWidth, ticket.mediaHeight, ticket.resolution) = (10_160, 10_160, dpi)
        let (impressions, _) = try harness.render([document], ticket: ticket)
        try #require(impressions.count == 1)
        return (try harness.image(impressions[0].file), try harness.decode(reference))
    }

    @Test(arguments: [8, 16])
    func pwgRasterCMYKMatchesGhostscriptsColorManagedRender(bits: Int) throws {
        let (ours, reference) = try renderChart(
            as: "chart.pwg", dpi: 150,
            gsOptions: ["-sDEVICE=pwgraster", "-dcupsColorSpace=6", "-dcupsBitsPerColor=\(bits)"])
        #expect(ours.width == 600 && ours.height == 600)
        let psnr = ImageComparison.psnr(ours, reference)
        print("PWG Raster cmyk_\(bits) at 150 dpi: PSNR \(psnr) dB against gs png16m (ICC)")
        #expect(psnr >= Self.minimumPSNR, "PSNR \(psnr) dB")
    }

    @Test func cmykJPEGMatchesGhostscriptsColorManagedRender() throws {
        // Ghostscript's jpegcmyk writes an Adobe marker and inverted inks; 72 dpi places the JPEG 1:1 on the sheet.
        let (ours, reference) = try renderChart(
            as: "chart.jpg", dpi: 72, gsOptions: ["-sDEVICE=jpegcmyk", "-dJPEGQ=95"])
        #expect(ours.width == 288 && ours.height == 288)
        let psnr = ImageComparison.psnr(ours, reference)
        print("CMYK JPEG at 72 dpi: PSNR \(psnr) dB against gs png16m (ICC)")
        #expect(psnr >= Self.minimumPSNR, "PSNR \(psnr) dB")
    }

    /// The least PSNR of a PDF's DeviceCMYK: Poppler's own conversion, without the press profile, comes to 29.8 dB
    /// on the chart at 72 dpi, where no patch edge falls inside a pixel (at 150 dpi edges drawn with and without
    /// anti-aliasing hold every render near 23 dB).
    static let minimumPDFPSNR = 40.0

    @Test(arguments: [true, false])
    func pdfDeviceCMYKMatchesGhostscriptsColorManagedRender(pressProfile: Bool) throws {
        // Ghostscript's pdfwrite keeps the chart's setcmykcolor as DeviceCMYK fills (`k` in the page's content).
        let harness = try RenderHarness()
        let source = harness.folder.file("chart.ps")
        try Self.chart.write(toFile: source, atomically: true, encoding: .utf8)
        let pdf = harness.folder.file("chart.pdf")
        try ExternalTool.ghostscript(["-sDEVICE=pdfwrite", "-sOutputFile=\(pdf)", source])
        let reference = harness.folder.file("reference.png")
        try ExternalTool.ghostscript(["-sDEVICE=png16m", "-r72", "-sOutputFile=\(reference)", source])
        var ticket = JobTicket()
        (ticket.mediaWidth, ticket.mediaHeight, ticket.resolution) = (10_160, 10_160, 72)
        let ours: PageImage
        if pressProfile {
            let (impressions, _) = try harness.render([pdf], ticket: ticket)
            try #require(impressions.count == 1)
            ours = try harness.image(impressions[0].file)
        } else {
            // Without the profile: the document as Poppler and Cairo draw it alone (pdftocairo, the same libraries).
            let rendered = harness.folder.file("as-is")
            _ = try ExternalTool.run("pdftocairo", ["-r", "72", "-png", "-singlefile", pdf, rendered])
            ours = try harness.decode(rendered + ".png")
        }
        #expect(ours.width == 288 && ours.height == 288)
        let psnr = ImageComparison.psnr(ours, try harness.decode(reference))
        print("PDF DeviceCMYK at 72 dpi, press profile \(pressProfile): PSNR \(psnr) dB against gs png16m (ICC)")
        if pressProfile {
            #expect(psnr >= Self.minimumPDFPSNR, "PSNR \(psnr) dB")
        } else {
            #expect(psnr < Self.minimumPDFPSNR, "Poppler's own conversion: PSNR \(psnr) dB")
        }
    }

    @Test func theComplementModelFallsShortOfTheBound() throws {
        // The same PWG page shown without the press profile, as before lcms2: the bound tells the two apart.
        let harness = try RenderHarness()
        let source = harness.folder.file("chart.ps")
        try Self.chart.write(toFile: source, atomically: true, encoding: .utf8)
        let reference = harness.folder.file("reference.png")
        try ExternalTool.ghostscript(["-sDEVICE=png16m", "-r72", "-sOutputFile=\(reference)", source])
        let inks = harness.folder.file("chart.pam")
        try ExternalTool.ghostscript(["-sDEVICE=pamcmyk32", "-r72", "-sOutputFile=\(inks)", source])
        let pam = try Data(contentsOf: URL(fileURLWithPath: inks))
        let pixels = Array(pam.suffix(288 * 288 * 4))
        var naive = PageImage(width: 288, height: 288, isGray: false)
        var managed = PageImage(width: 288, height: 288, isGray: false)
        let conversion = try #require(CMYKConversion(profilePath: CMYKConversion.pressProfilePath))
        pixels.withUnsafeBytes { inks in
            naive.pixels.withUnsafeMutableBytes {
                RasterPixelConverter.showInks(inks.baseAddress!, into: $0.baseAddress!, count: 288 * 288, through: nil)
            }
            managed.pixels.withUnsafeMutableBytes {
                RasterPixelConverter.showInks(
                    inks.baseAddress!, into: $0.baseAddress!, count: 288 * 288, through: conversion)
            }
        }
        let expected = try harness.decode(reference)
        let naivePSNR = ImageComparison.psnr(naive, expected)
        print("complement model: PSNR \(naivePSNR) dB; press profile: \(ImageComparison.psnr(managed, expected)) dB")
        #expect(naivePSNR < Self.minimumPSNR)
        #expect(ImageComparison.psnr(managed, expected) >= Self.minimumPSNR)
    }

    @Test func aFileThatIsNotACMYKProfileGivesNoConversion() throws {
        #expect(CMYKConversion(profilePath: "/usr/share/color/icc/ghostscript/srgb.icc") == nil)
        #expect(CMYKConversion(profilePath: "/nonexistent/profile.icc") == nil)
    }
}
