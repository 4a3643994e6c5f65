import Foundation
import Rasterizer
import Testing

/// The real format of a document comes from its bytes.
@Suite(.timeLimit(.minutes(1))) struct DocumentFormatTests {
    @Test func signaturesAreRecognised() {
        #expect(DocumentFormat.detect(Array("%PDF-1.7\n".utf8)) == .pdf)
        #expect(DocumentFormat.detect([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(DocumentFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(DocumentFormat.detect(Array("RaS2PwgRaster".utf8)) == .pwgRaster)
        #expect(DocumentFormat.detect(Array("UNIRAST\0".utf8) + [0, 0, 0, 1]) == .appleRaster)
        #expect(DocumentFormat.detect(Array("%!PS-Adobe-3.0\n".utf8)) == .postScript)
    }

    @Test func pdfAfterLeadingBytesIsStillPDF() {
        #expect(DocumentFormat.detect(Array(repeating: 0x20, count: 500) + Array("%PDF-1.4".utf8)) == .pdf)
        #expect(DocumentFormat.detect(Array(repeating: 0x20, count: 1_100) + Array("%PDF-1.4".utf8)) == nil)
    }

    @Test func unknownOrTooShortDataIsNoFormat() {
        #expect(DocumentFormat.detect([]) == nil)
        #expect(DocumentFormat.detect(Array("hello, printer".utf8)) == nil)
        #expect(DocumentFormat.detect([0xFF, 0xD8]) == nil)
        #expect(DocumentFormat.detect(Array("RaS".utf8)) == nil)
    }

    @Test func octetStreamOfUnknownDataIsAnUnsupportedFormat() throws {
        let harness = try RenderHarness()
        let path = harness.folder.file("mystery.bin")
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try harness.render([path], ticket: JobTicket())
            Issue.record("unknown data rendered")
        } catch {
            #expect(error.ippReason == "unsupported-document-format")
        }
    }

    @Test func octetStreamOfAPDFIsRenderedAsPDF() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1)
        let renamed = harness.folder.file("document.bin")
        try FileManager.default.moveItem(atPath: pdf, toPath: renamed)
        var ticket = JobTicket()
        ticket.resolution = 36
        let (_, summary) = try harness.render([renamed], ticket: ticket)
        #expect(summary.documentFormats == ["application/pdf"])
    }
}
