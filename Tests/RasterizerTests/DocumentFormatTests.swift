import Foundation
import PrintModel
import Rasterizer
import Testing

/// The worker renders a document as what its bytes are (PrintModel's detector, tested in PrintModelTests).
@Suite(.timeLimit(.minutes(1))) struct DocumentFormatTests {
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
