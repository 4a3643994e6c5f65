import Foundation
import PrintModel
import Rasterizer
import Synchronization
import Testing

/// Problems in documents that still print: Poppler's syntax errors, raster pages made for other media or sides.
@Suite struct JobWarningTests {
    private func render(_ harness: RenderHarness, _ paths: [String], ticket: JobTicket) throws -> [JobWarning] {
        let warnings = Mutex<[JobWarning]>([])
        let renderer = JobRenderer(folder: harness.output, ticket: ticket, threads: 2)
        _ = try renderer.render(
            paths.map { JobRenderer.Document(path: $0) }, onImpression: { _ in },
            onWarning: { warning in warnings.withLock { $0.append(warning) } })
        return warnings.withLock { $0 }
    }

    @Test func popplerSyntaxErrorsBecomeWarningsOfTheirDocument() throws {
        let harness = try RenderHarness()
        let good = try TestDocuments.pdf(in: harness.folder, pages: 1)
        // A content stream with an unknown operator and a font that is not in the resources.
        let broken = harness.folder.file("broken.pdf")
        let stream = "BT /F1 12 Tf 10 10 Td (Hello) Tj ET bogus"
        try """
        %PDF-1.4
        1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj
        2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj
        3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources <<>>>> endobj
        4 0 obj <</Length \(stream.utf8.count)>> stream
        \(stream)
        endstream endobj
        trailer <</Root 1 0 R>>
        %%EOF
        """.write(toFile: broken, atomically: true, encoding: .utf8)
        var ticket = JobTicket()
        ticket.resolution = 36
        let all = try render(harness, [good, broken], ticket: ticket)
        // pdfwrite does not embed the good document's Helvetica: that is a warning of its own kind.
        #expect(all.filter { $0.kind == .fontSubstituted }.map(\.document) == [1], "\(all)")
        let warnings = all.filter { $0.kind != .fontSubstituted }
        #expect(warnings.allSatisfy { $0.kind == .pdf && $0.document == 2 }, "\(warnings)")
        #expect(warnings.contains { $0.message.contains("Unknown operator 'bogus'") }, "\(warnings)")
        // Each message once, although every render thread and the text pass read the page again.
        #expect(Set(warnings.map(\.message)).count == warnings.count)
    }

    @Test func aRasterMadeForOtherMediaAndSidesIsReportedOnce() throws {
        let harness = try RenderHarness()
        // Two letter-size pages at 75 dpi (637.5 x 825 pixels: 638 x 825), one-sided; printed as two-sided A4.
        let path = harness.folder.file("letter.pwg")
        let page = SyntheticRaster.PWGPage(width: 638, height: 825, resolution: 75)
        try Data(SyntheticRaster.pwg([page, page])).write(to: URL(fileURLWithPath: path))
        var ticket = JobTicket()
        ticket.resolution = 75
        (ticket.mediaWidth, ticket.mediaHeight) = (21_000, 29_700)
        ticket.sides = .twoSidedLongEdge
        let warnings = try render(harness, [path], ticket: ticket)
        #expect(warnings.map(\.kind) == [.rasterPageSize, .rasterDuplex])
        #expect(warnings.allSatisfy { $0.page == 1 && $0.document == 1 })
        #expect(warnings[0].message.contains("216.1 x 279.4 mm"), "\(warnings[0].message)")
        #expect(warnings[1].message.contains("one-sided") && warnings[1].message.contains("two-sided-long-edge"))
    }

    @Test func aRasterThatAgreesWithTheTicketHasNoWarning() throws {
        let harness = try RenderHarness()
        let path = harness.folder.file("a4.pwg")
        // A4 at 100 dpi: 827 x 1169 pixels.
        try Data(SyntheticRaster.pwg([SyntheticRaster.PWGPage(width: 827, height: 1169, resolution: 100)])).write(
            to: URL(fileURLWithPath: path))
        var ticket = JobTicket()
        ticket.resolution = 50
        (ticket.mediaWidth, ticket.mediaHeight) = (21_000, 29_700)
        #expect(try render(harness, [path], ticket: ticket).isEmpty)
        ticket.mediaFromDocument = true
        (ticket.mediaWidth, ticket.mediaHeight) = (21_590, 27_940)
        #expect(try render(harness, [path], ticket: ticket).isEmpty, "media from the document never disagrees")
    }

    @Test func warningsStopAtTheLimitWithACount() throws {
        let harness = try RenderHarness()
        let extra = 5
        let operators = (0..<(JobWarning.maximumPerJob + extra)).map { "bogus\($0)" }.joined(separator: " ")
        let broken = harness.folder.file("many.pdf")
        try """
        %PDF-1.4
        1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj
        2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj
        3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R>> endobj
        4 0 obj <</Length \(operators.utf8.count)>> stream
        \(operators)
        endstream endobj
        trailer <</Root 1 0 R>>
        %%EOF
        """.write(toFile: broken, atomically: true, encoding: .utf8)
        var ticket = JobTicket()
        ticket.resolution = 36
        let warnings = try render(harness, [broken], ticket: ticket)
        #expect(warnings.count == JobWarning.maximumPerJob + 1)
        let last = warnings.last?.message ?? ""
        #expect(last.hasSuffix("more warnings were left out (at most \(JobWarning.maximumPerJob) a job)"), "\(last)")
    }
}

@Suite struct RasterPageSizeToleranceTests {
    /// One page of `width` x 1169 pixels at 100 dpi (an A4 height) printed on A4 media.
    private func warnings(width: Int) throws -> [JobWarning] {
        let harness = try RenderHarness()
        let path = harness.folder.file("page.pwg")
        try Data(SyntheticRaster.pwg([SyntheticRaster.PWGPage(width: width, height: 1169, resolution: 100)])).write(
            to: URL(fileURLWithPath: path))
        var ticket = JobTicket()
        ticket.resolution = 25
        (ticket.mediaWidth, ticket.mediaHeight) = (21_000, 29_700)
        let found = Mutex<[JobWarning]>([])
        _ = try JobRenderer(folder: harness.output, ticket: ticket, threads: 1).render(
            [JobRenderer.Document(path: path)], onImpression: { _ in },
            onWarning: { warning in found.withLock { $0.append(warning) } })
        return found.withLock { $0 }
    }

    @Test func pageSizesAgreeWithinTheToleranceOnly() throws {
        // 830 pixels at 100 dpi are 210.8 mm (within 1 mm of A4's 210); 832 are 211.3 mm (beyond).
        #expect(832 * 2540 / 100 - 21_000 > JobWarning.pageSizeTolerance)
        #expect(830 * 2540 / 100 - 21_000 <= JobWarning.pageSizeTolerance)
        #expect(try warnings(width: 830).isEmpty)
        #expect(try warnings(width: 832).map(\.kind) == [.rasterPageSize])
    }
}
