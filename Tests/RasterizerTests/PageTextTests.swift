import Foundation
import PrintModel
import Rasterizer
import Testing

/// The text of each printed side of a PDF job: Poppler's text of the pages placed on it, written as
/// `page-NNNN.txt` with the PNG.
@Suite struct PageTextTests {
    /// A PDF whose page n says "Page n says WORD", WORD the n-th of `words`.
    private func wordsPDF(_ harness: RenderHarness, _ words: [String], landscape: Bool = false) throws -> String {
        let (width, height) = landscape ? (792, 612) : (612, 792)
        let pages = words.enumerated().map { index, word in
            "72 \(height - 100) moveto (Page \(index + 1) says \(word)) show showpage"
        }
        let pdf = try TestDocuments.pdf(
            in: harness.folder, named: "words",
            postScript: """
                %!PS
                << /PageSize [\(width) \(height)] >> setpagedevice
                /Helvetica findfont 24 scalefont setfont
                \(pages.joined(separator: "\n"))
                """)
        return pdf
    }

    private func text(_ harness: RenderHarness, _ number: Int) throws -> String {
        try String(contentsOfFile: harness.output + "/" + PrintedSide.textFileName(number), encoding: .utf8)
    }

    @Test func eachSideGetsTheTextOfItsPage() throws {
        let harness = try RenderHarness()
        let pdf = try wordsPDF(harness, ["alpha", "bravo", "charlie"])
        var ticket = JobTicket()
        ticket.resolution = 72
        let (impressions, _) = try harness.render([pdf], ticket: ticket)
        #expect(impressions.map(\.textSource) == [.pdf, .pdf, .pdf])
        #expect(try text(harness, 1) == "Page 1 says alpha\n")
        #expect(try text(harness, 2) == "Page 2 says bravo\n")
        #expect(try text(harness, 3) == "Page 3 says charlie\n")
    }

    @Test func pageRangesAndNumberUpDecideWhatEachSideSays() throws {
        let harness = try RenderHarness()
        let pdf = try wordsPDF(harness, ["alpha", "bravo", "charlie", "delta", "echo"])
        var ticket = JobTicket()
        ticket.resolution = 72
        ticket.numberUp = 2
        ticket.pageRanges = [PageRange(lower: 2, upper: 4)]
        let (impressions, _) = try harness.render([pdf], ticket: ticket)
        #expect(impressions.count == 2)
        // Two pages on the first side, in presentation order, separated by a form feed.
        #expect(try text(harness, 1) == "Page 2 says bravo\n\u{0C}Page 3 says charlie\n")
        #expect(try text(harness, 2) == "Page 4 says delta\n")
    }

    @Test func textTheSheetCutsOffIsNotOnTheSide() throws {
        let harness = try RenderHarness()
        // A landscape page printed at its own size on a portrait sheet without turning it (print-scaling none):
        // its right part falls off the sheet, and with it the end of a long line.
        let pdf = try TestDocuments.pdf(
            in: harness.folder, named: "wide",
            postScript: """
                %!PS
                << /PageSize [792 612] >> setpagedevice
                /Helvetica findfont 20 scalefont setfont
                200 500 moveto (middle words) show 720 500 moveto (farright) show showpage
                """)
        var ticket = JobTicket()
        ticket.resolution = 72
        ticket.scaling = .none
        ticket.orientation = .portrait
        _ = try harness.render([pdf], ticket: ticket)
        // The page is 792 points wide on a 612-point sheet, centered: 90 points go off each edge.
        let side = try text(harness, 1)
        #expect(side.contains("middle words"), "text on the sheet: \(side)")
        #expect(!side.contains("farright"), "text off the sheet: \(side)")
    }

    @Test func rasterSidesLeaveTheirTextToOCR() throws {
        let harness = try RenderHarness()
        let path = harness.folder.file("white.pwg")
        try Data(SyntheticRaster.pwg([SyntheticRaster.PWGPage(width: 300, height: 300, resolution: 300)])).write(
            to: URL(fileURLWithPath: path))
        let (impressions, _) = try harness.render([path], ticket: JobTicket())
        #expect(impressions.map(\.textSource) == [.ocr])
        #expect(!FileManager.default.fileExists(atPath: harness.output + "/page-0001.txt"))
    }

    @Test func pclmSidesLeaveTheirTextToOCRThoughPopplerRendersThem() throws {
        let harness = try RenderHarness()
        let pclm = try PCLmTests.makePCLm(in: harness.folder, dpi: 150)
        var ticket = JobTicket()
        ticket.resolution = 150
        let (impressions, _) = try PCLmTests.render(
            [JobRenderer.Document(path: pclm, format: "application/PCLm")], ticket: ticket, into: harness.output)
        #expect(impressions.map(\.textSource) == [.ocr])
        #expect(!FileManager.default.fileExists(atPath: harness.output + "/page-0001.txt"))
    }

    @Test func visibleAreaMapsBackThroughEveryRotation() {
        for rotation in [0, 90, 180, 270] {
            let transform = PageTransform(
                pageWidth: 100, pageHeight: 200, scale: 2, rotation: rotation, centerX: 300, centerY: 400)
            for (x, y) in [(0.0, 0.0), (100.0, 200.0), (25.0, 150.0)] {
                let sheet = transform.apply(x: x, y: y)
                let back = transform.page(x: sheet.x, y: sheet.y)
                #expect(abs(back.x - x) < 1e-9 && abs(back.y - y) < 1e-9, "rotation \(rotation)")
            }
        }
    }
}
