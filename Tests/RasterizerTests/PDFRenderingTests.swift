import Foundation
import PrintModel
import Rasterizer
import Testing

/// PDF pages rendered by the job renderer, compared with pdftocairo at the same resolution.
@Suite(.timeLimit(.minutes(1))) struct PDFRenderingTests {
    @Test func borderlessLetterPagesMatchPdftocairo() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 3)
        var ticket = JobTicket()
        ticket.resolution = 72
        let (impressions, summary) = try harness.render([pdf], ticket: ticket)
        #expect(impressions.map(\.file) == ["page-0001.png", "page-0002.png", "page-0003.png"])
        #expect(summary.pages == 3 && summary.sheets == 3 && summary.impressions == 3)
        try ExternalTool.run("pdftocairo", ["-png", "-r", "72", pdf, harness.folder.file("reference")])
        for page in 1...3 {
            let ours = try harness.image(impressions[page - 1].file)
            let reference = try harness.decode(harness.folder.file("reference-\(page).png"))
            #expect(ours.width == 612 && ours.height == 792)
            let psnr = ImageComparison.psnr(ours, reference)
            #expect(psnr >= 30, "page \(page): PSNR \(psnr) dB against pdftocairo")
            let blank = PageImage(width: ours.width, height: ours.height, isGray: false)
            #expect(ImageComparison.psnr(blank, reference) < 30)
        }
    }

    @Test func annotationsAreRenderedAsForPrinting() throws {
        let harness = try RenderHarness()
        // Two filled square annotations: red with the Print flag (F 4), blue without it (F 0).
        let source = harness.folder.file("annotations.ps")
        try """
        %!PS
        << /PageSize [612 792] >> setpagedevice
        [ /Rect [100 500 300 700] /Subtype /Square /C [1 0 0] /IC [1 0 0] /F 4 /Contents (printed) /ANN pdfmark
        [ /Rect [350 500 550 700] /Subtype /Square /C [0 0 1] /IC [0 0 1] /F 0 /Contents (screen) /ANN pdfmark
        showpage
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let pdf = harness.folder.file("annotations.pdf")
        try ExternalTool.ghostscript(["-sDEVICE=pdfwrite", "-sOutputFile=\(pdf)", source])
        var ticket = JobTicket()
        ticket.resolution = 72
        _ = try harness.render([pdf], ticket: ticket)
        let sheet = try harness.image("page-0001.png")
        let printed = sheet.rgb(200, 192)
        let screenOnly = sheet.rgb(450, 192)
        #expect(printed == (255, 0, 0))
        #expect(screenOnly == (255, 255, 255))
    }

    @Test func monochromeAndBiLevelWriteGrayImages() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1)
        var ticket = JobTicket()
        ticket.resolution = 36
        ticket.colorMode = .monochrome
        let (gray, _) = try harness.render([pdf], ticket: ticket)
        #expect(gray.first?.color == false)
        let grayOutput = try ExternalTool.run(
            "identify", ["-format", "%[type] %[depth]", harness.output + "/page-0001.png"])
        #expect(String(decoding: grayOutput, as: UTF8.self).hasPrefix("Grayscale"))
        ticket.colorMode = .biLevel
        _ = try harness.render([pdf], ticket: ticket)
        let image = try harness.image("page-0001.png", gray: true)
        #expect(image.pixels.allSatisfy { $0 == 0 || $0 == 255 })
        #expect(image.pixels.contains(0))
    }

    @Test func encryptedPDFNeedsItsPassword() throws {
        let harness = try RenderHarness()
        let source = try TestDocuments.writePostScript(in: harness.folder, pages: 1)
        let pdf = harness.folder.file("encrypted.pdf")
        try ExternalTool.ghostscript([
            "-sDEVICE=pdfwrite", "-sOwnerPassword=owner", "-sUserPassword=secret", "-dEncryptionR=3",
            "-dKeyLength=128", "-sOutputFile=\(pdf)", source,
        ])
        var ticket = JobTicket()
        ticket.resolution = 36
        #expect(throws: RasterError.passwordRequired) { try harness.render([pdf], ticket: ticket) }
        ticket.password = "wrong"
        #expect(throws: RasterError.passwordRequired) { try harness.render([pdf], ticket: ticket) }
        ticket.password = "secret"
        #expect(try harness.render([pdf], ticket: ticket).summary.pages == 1)
        #expect(RasterError.passwordRequired.ippReason == "document-password-error")
    }

    @Test func theJobsPagesCountTogetherAgainstTheLimitWhateverEachDocumentHas() throws {
        let harness = try RenderHarness()
        let path = harness.folder.file("3-pages.pdf")
        try ManyPagePDF.make(pages: 3).write(to: URL(fileURLWithPath: path))
        var ticket = JobTicket()
        ticket.resolution = 36
        var limits = RenderLimits()
        limits.maximumPages = 5
        #expect(throws: RasterError.limitExceeded(limit: "maximum pages", value: 6, maximum: 5)) {
            try harness.render([path, path], ticket: ticket, limits: limits)
        }
        limits.maximumPages = 6
        #expect(try harness.render([path, path], ticket: ticket, limits: limits).summary.pages == 6)
    }

    @Test func pdfWithMorePagesThanTheLimitIsRefusedBeforeRendering() throws {
        let harness = try RenderHarness()
        let path = harness.folder.file("100000-pages.pdf")
        try ManyPagePDF.make(pages: 100_000).write(to: URL(fileURLWithPath: path))
        var ticket = JobTicket()
        ticket.resolution = 36
        #expect(
            throws: RasterError.limitExceeded(
                limit: "maximum pages", value: 100_000, maximum: RenderLimits.defaultMaximumPages)
        ) {
            try harness.render([path], ticket: ticket)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.output)
        #expect(files.isEmpty)
    }

    @Test func truncatedPDFIsADocumentFormatError() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        let truncated = harness.folder.file("truncated.pdf")
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: truncated))
        var ticket = JobTicket()
        ticket.resolution = 36
        do {
            _ = try harness.render([truncated], ticket: ticket)
            Issue.record("a truncated PDF rendered")
        } catch {
            #expect(error.ippReason == "document-format-error")
        }
    }
}

/// A PDF of any number of pages that share one content stream, a few bytes a page.
enum ManyPagePDF {
    static func make(pages: Int) -> Data {
        var body = "%PDF-1.4\n"
        var offsets: [Int] = []
        func object(_ text: String) {
            offsets.append(body.utf8.count)
            body += "\(offsets.count) 0 obj\n\(text)\nendobj\n"
        }
        object("<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<pages).map { "\($0 + 4) 0 R" }.joined(separator: " ")
        object("<< /Type /Pages /Count \(pages) /Kids [\(kids)] >>")
        object("<< /Length 22 >>\nstream\n0 0 1 rg 9 9 99 99 re f\nendstream")
        for _ in 0..<pages {
            object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>")
        }
        let xref = body.utf8.count
        body += "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            body += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        body += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(body.utf8)
    }
}
