import PrintModel
import Rasterizer
import Testing

/// A raster printed without media in the job comes out on the page size it was made for; with media, on that
/// media.
@Suite(.timeLimit(.minutes(1))) struct RasterMediaFromDocumentTests {
    /// An A4 page (595 x 842 points) as PWG Raster at 100 dpi, made by ghostscript.
    func a4Raster(in harness: RenderHarness) throws -> String {
        let source = try TestDocuments.writePostScript(in: harness.folder, pages: 1, width: 595, height: 842)
        let raster = harness.folder.file("a4.pwg")
        try ExternalTool.ghostscript([
            "-sDEVICE=pwgraster", "-r100", "-dcupsColorSpace=18", "-dcupsBitsPerColor=8", "-dDEVICEWIDTHPOINTS=595",
            "-dDEVICEHEIGHTPOINTS=842", "-dFIXEDMEDIA", "-sOutputFile=\(raster)", source,
        ])
        return raster
    }

    @Test func withoutMediaTheSheetIsTheRasterPageSize() throws {
        let harness = try RenderHarness()
        var ticket = JobTicket()
        ticket.mediaFromDocument = true
        ticket.rasterMaximumResolution = 100
        let (impressions, _) = try harness.render([try a4Raster(in: harness)], ticket: ticket)
        let side = try #require(impressions.first)
        // 210 x 297 mm at 100 dpi.
        #expect(abs(side.width - 827) <= 1)
        #expect(abs(side.height - 1169) <= 1)
    }

    @Test func withMediaTheSheetIsTheMedia() throws {
        let harness = try RenderHarness()
        var ticket = JobTicket()
        ticket.rasterMaximumResolution = 100
        let (impressions, _) = try harness.render([try a4Raster(in: harness)], ticket: ticket)
        let side = try #require(impressions.first)
        // The default media, US Letter: 8.5 x 11 in at 100 dpi.
        #expect(side.width == 850)
        #expect(side.height == 1100)
    }
}
