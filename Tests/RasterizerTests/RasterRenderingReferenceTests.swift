import Foundation
import PrintModel
import Rasterizer
import Testing

/// Whole jobs of PWG Raster and Apple Raster made by ghostscript, rendered by the job renderer at the raster's
/// own resolution, against cups-filters' rastertopdf of the same file rendered by pdftocairo.
@Suite(.timeLimit(.minutes(1))) struct RasterRenderingReferenceTests {
    struct Variant: CustomTestStringConvertible, Sendable {
        var device: String
        var colorSpace: Int
        var bits: Int
        var minimumPSNR: Double
        var testDescription: String { "\(device) space \(colorSpace) \(bits)-bit" }
    }

    static let variants: [Variant] = [
        Variant(device: "pwgraster", colorSpace: 19, bits: 8, minimumPSNR: 30),
        Variant(device: "pwgraster", colorSpace: 18, bits: 8, minimumPSNR: 30),
        Variant(device: "pwgraster", colorSpace: 18, bits: 16, minimumPSNR: 30),
        Variant(device: "pwgraster", colorSpace: 3, bits: 1, minimumPSNR: 30),
        Variant(device: "pwgraster", colorSpace: 6, bits: 8, minimumPSNR: 20),
        Variant(device: "urf", colorSpace: 19, bits: 8, minimumPSNR: 30),
    ]

    @Test(arguments: variants)
    func renderedSheetsMatchRastertopdfAndPdftocairo(_ variant: Variant) throws {
        let harness = try RenderHarness()
        let source = try TestDocuments.writePostScript(in: harness.folder, pages: 2)
        let raster = harness.folder.file("document.raster")
        try ExternalTool.ghostscript([
            "-sDEVICE=\(variant.device)", "-r72", "-dcupsColorSpace=\(variant.colorSpace)",
            "-dcupsBitsPerColor=\(variant.bits)", "-sOutputFile=\(raster)", source,
        ])
        let pdf = try ExternalTool.run("rastertopdf", ["1", "tester", "reference", "1", "", raster])
        let pdfPath = harness.folder.file("reference.pdf")
        try pdf.write(to: URL(fileURLWithPath: pdfPath))
        try ExternalTool.run("pdftocairo", ["-png", "-r", "72", pdfPath, harness.folder.file("reference")])

        var ticket = JobTicket()
        ticket.resolution = 72
        let (impressions, summary) = try harness.render([raster], ticket: ticket)
        #expect(summary.documentPages == [2])
        #expect(impressions.count == 2)
        for page in 1...2 {
            let ours = try harness.image(PrintedSide.fileName(page))
            let reference = try harness.decode(harness.folder.file("reference-\(page).png"))
            let psnr = ImageComparison.psnr(ours, reference)
            #expect(psnr >= variant.minimumPSNR, "page \(page): PSNR \(psnr) dB")
            let blank = PageImage(width: ours.width, height: ours.height, isGray: false)
            #expect(ImageComparison.psnr(blank, reference) < variant.minimumPSNR)
        }
    }

    @Test(arguments: [19, 18])
    func highResolutionRasterRenderedSmallerMatchesGhostscriptAtTheSheetResolution(colorSpace: Int) throws {
        let harness = try RenderHarness()
        let source = try TestDocuments.writePostScript(in: harness.folder, pages: 1)
        let raster = harness.folder.file("page-300dpi.pwg")
        try ExternalTool.ghostscript([
            "-sDEVICE=pwgraster", "-r300", "-dcupsColorSpace=\(colorSpace)", "-dcupsBitsPerColor=8",
            "-sOutputFile=\(raster)", source,
        ])
        try ExternalTool.ghostscript([
            "-sDEVICE=ppmraw", "-r72", "-sOutputFile=\(harness.folder.file("ref.ppm"))", source,
        ])
        var ticket = JobTicket()
        ticket.resolution = 72
        ticket.colorMode = colorSpace == 18 ? .monochrome : .color
        _ = try harness.render([raster], ticket: ticket)
        let ours = try harness.image("page-0001.png", gray: colorSpace == 18)
        var reference = try NetPBM.read(harness.folder.file("ref.ppm"))
        if colorSpace == 18 { reference = ImageComparison.gray(reference) }
        let psnr = ImageComparison.psnr(ours, reference)
        #expect(psnr >= 24, "PSNR \(psnr) dB")
        let blank = PageImage(width: ours.width, height: ours.height, isGray: ours.isGray)
        #expect(ImageComparison.psnr(blank, reference) < 24)
    }
}
