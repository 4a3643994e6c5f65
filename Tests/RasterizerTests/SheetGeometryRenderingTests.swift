import Foundation
import PrintModel
import Rasterizer
import Testing

/// Rendered sheets of a document whose pages carry black corner marks (bottom left and top right, 36 points)
/// and their number: the marks must land where the ticket puts the page.
@Suite(.timeLimit(.minutes(1))) struct SheetGeometryRenderingTests {
    func ticket(_ change: (inout JobTicket) -> Void = { _ in }) -> JobTicket {
        var ticket = JobTicket()
        ticket.resolution = 72
        change(&ticket)
        return ticket
    }

    @Test func oneUpPutsTheCornerMarksInTheSheetCorners() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1)
        _ = try harness.render([pdf], ticket: ticket())
        let sheet = try harness.image("page-0001.png")
        #expect(sheet.isDark(5, 786))
        #expect(sheet.isDark(606, 5))
        #expect(!sheet.isDark(606, 786))
        #expect(!sheet.isDark(5, 5))
    }

    @Test func landscapePageTurnsCounterClockwiseAndOrientationOverridesIt() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1, width: 792, height: 612)
        _ = try harness.render([pdf], ticket: ticket())
        let turned = try harness.image("page-0001.png")
        // Turned a quarter counter-clockwise: the page's bottom-left mark lands bottom right, its top-right mark
        // top left.
        #expect(turned.width == 612 && turned.height == 792)
        #expect(turned.isDark(606, 786) && turned.isDark(5, 5))
        #expect(!turned.isDark(5, 786) && !turned.isDark(606, 5))
        // The blue rectangle (page center 200, 437) tells the two directions apart.
        #expect(turned.isBlue(437, 592) && !turned.isBlue(175, 200))
        _ = try harness.render([pdf], ticket: ticket { $0.orientation = .reverseLandscape })
        let clockwise = try harness.image("page-0001.png")
        #expect(clockwise.isBlue(175, 200) && !clockwise.isBlue(437, 592))
    }

    @Test func marginsCutWhatLiesOutsideThePrintableArea() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1)
        _ = try harness.render([pdf], ticket: ticket { ($0.leftMargin, $0.bottomMargin) = (635, 635) })
        let sheet = try harness.image("page-0001.png")
        // The bottom-left mark spans 0...36 points; an 18-point margin cuts its outer half.
        #expect(!sheet.isDark(5, 786))
        #expect(sheet.isDark(25, 765))
        #expect(sheet.isDark(606, 5))
    }

    @Test func twoUpTurnsPagesAndStacksThem() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 2)
        let (impressions, _) = try harness.render([pdf], ticket: ticket { $0.numberUp = 2 })
        #expect(impressions.count == 1)
        #expect(impressions[0].pages!.map(\.page) == [1, 2])
        let sheet = try harness.image("page-0001.png")
        // Turned counter-clockwise, scale 396/612: a page's bottom-left corner goes to its cell's bottom right,
        // its top-right corner to the cell's top left. The cells are centered: the page is 512.5 wide.
        let inset = (612 - 792.0 * 396 / 612) / 2
        for (cellTop, label) in [(0, "top cell"), (396, "bottom cell")] {
            #expect(sheet.isDark(Int(612 - inset) - 6, cellTop + 390), "\(label): bottom-left mark")
            #expect(sheet.isDark(Int(inset) + 6, cellTop + 6), "\(label): top-right mark")
            #expect(!sheet.isDark(Int(inset) + 6, cellTop + 390), "\(label): no mark in the other corner")
        }
    }

    @Test func pageRangesAndCopiesAreCountedNotRendered() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 5)
        let (impressions, summary) = try harness.render(
            [pdf],
            ticket: ticket {
                $0.pageRanges = [PageRange(lower: 2, upper: 3), PageRange(lower: 5, upper: 5)]
                $0.copies = 3
                $0.sides = .twoSidedLongEdge
            })
        #expect(impressions.map { $0.pages!.map(\.page) } == [[2], [3], [5]])
        #expect(impressions.map(\.side) == [.front, .back, .front])
        #expect(summary.impressions == 3 && summary.sheets == 2 && summary.pages == 3)
        #expect(summary.jobImpressions == 9 && summary.jobMediaSheets == 6 && summary.jobPages == 9)
        #expect(summary.documentPages == [5])
        // One PNG (and, for PDF pages, one text file) per side of one copy.
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.output).sorted()
        #expect(files.filter { $0.hasSuffix(".png") } == ["page-0001.png", "page-0002.png", "page-0003.png"])
        #expect(files.filter { $0.hasSuffix(".txt") } == ["page-0001.txt", "page-0002.txt", "page-0003.txt"])
    }

    @Test func pwgBackSideWithTransformsIsShownAsRead() throws {
        let harness = try RenderHarness()
        // A 4 x 4 pixel gray page at 72 dpi whose stored bottom-right pixel is black, written as a back side
        // mirrored both ways (CrossFeedTransform = FeedTransform = -1): as read, the black pixel is top left.
        let data: [UInt8] = [0x02, 0x80, 0x00, 0x02, 0xFF, 0x00, 0x00]
        var page = SyntheticRaster.PWGPage(width: 4, height: 4, resolution: 72, crossFeedTransform: -1, data: data)
        page.feedTransform = -1
        let path = harness.folder.file("back.pwg")
        try Data(SyntheticRaster.pwg([page])).write(to: URL(fileURLWithPath: path))
        _ = try harness.render([path], ticket: ticket { $0.scaling = .fit })
        let sheet = try harness.image("page-0001.png")
        // fit: scale 153, the page covers 612 x 612 from y = 90; each pixel is a 153-pixel block.
        #expect(sheet.isDark(76, 166))
        #expect(sheet.rgb(536, 626) == (255, 255, 255))
        #expect(sheet.rgb(306, 40) == (255, 255, 255))
    }

    @Test(arguments: [SheetBack.flipped, .rotated])
    func appleRasterBackSideIsTurnedBackAsThePrinterAskedForIt(_ sheetBack: SheetBack) throws {
        let harness = try RenderHarness()
        // Page 2 (a back) is 4 x 4 gray pixels at 300 dpi with its black pixel stored where the sheet-back layout
        // puts the top-left pixel: bottom-left when flipped (long edge), bottom-right when rotated.
        let storedLast: [UInt8] =
            sheetBack == .flipped ? [0x00, 0x00, 0x00, 0x02, 0xFF] : [0x00, 0x02, 0xFF, 0x00, 0x00]
        let back: [UInt8] = [0x02, 0x80] + storedLast
        let path = harness.folder.file("duplex.urf")
        try Data(SyntheticRaster.urf(width: 4, height: 4, bitsPerPixel: 8, colorSpace: 0, pages: [nil, back]))
            .write(to: URL(fileURLWithPath: path))
        let (impressions, _) = try harness.render(
            [path],
            ticket: ticket {
                $0.scaling = .fit
                $0.sides = .twoSidedLongEdge
                $0.sheetBack = sheetBack
            })
        #expect(impressions.map(\.side) == [.front, .back])
        let sheet = try harness.image("page-0002.png")
        #expect(sheet.isDark(76, 166))
        #expect(sheet.rgb(76, 626) == (255, 255, 255))
        #expect(sheet.rgb(536, 626) == (255, 255, 255))
    }

    @Test func singleDocumentHandlingLetDocumentsShareSides() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 3)
        let raster = harness.folder.file("three.pwg")
        let source = try TestDocuments.writePostScript(in: harness.folder, pages: 3)
        try ExternalTool.ghostscript([
            "-sDEVICE=pwgraster", "-r36", "-dcupsColorSpace=19", "-dcupsBitsPerColor=8", "-sOutputFile=\(raster)",
            source,
        ])
        let documents = [pdf, raster, pdf]
        var shared = ticket { $0.numberUp = 2 }
        shared.multipleDocumentHandling = .singleDocument
        let (together, summary) = try harness.render(documents, ticket: shared)
        let placed = together.map { $0.pages!.map { [$0.document, $0.page] } }
        #expect(
            placed == [[[1, 1], [1, 2]], [[1, 3], [2, 1]], [[2, 2], [2, 3]], [[3, 1], [3, 2]], [[3, 3]]])
        #expect(together.map(\.number) == [1, 2, 3, 4, 5])
        #expect(summary.pages == 9 && summary.impressions == 5)
        var separate = ticket { $0.numberUp = 2 }
        separate.multipleDocumentHandling = .separateDocumentsCollatedCopies
        let (apart, _) = try harness.render(documents, ticket: separate)
        #expect(apart.map { $0.pages!.map(\.document) } == [[1, 1], [1], [2, 2], [2], [3, 3], [3]])
    }

    @Test func pwgPagesWhoseHeadersChangeAreEachPlacedByTheirOwnHeader() throws {
        let harness = try RenderHarness()
        // Page 1: 4 x 4 sGray at 72 dpi, all black. Page 2: 2 x 4 sRGB at 36 dpi, all red.
        let first = SyntheticRaster.PWGPage(width: 4, height: 4, resolution: 72, data: [0x03, 0x03, 0x00])
        let second = SyntheticRaster.PWGPage(
            width: 2, height: 4, resolution: 36, colorSpace: 19, colors: 3, data: [0x03, 0x01, 0xFF, 0x00, 0x00])
        let reader = try RasterReader(input: MemoryInput(SyntheticRaster.pwg([first, second])))
        let headers = [try reader.nextPage(), try reader.nextPage()]
        #expect(headers.map { $0?.colorSpace } == [.sGray, .sRGB])
        #expect(headers.map { $0?.resolutionX } == [72, 36])
        let path = harness.folder.file("changing.pwg")
        try Data(SyntheticRaster.pwg([first, second])).write(to: URL(fileURLWithPath: path))
        let (impressions, _) = try harness.render([path], ticket: ticket { $0.scaling = .none })
        #expect(impressions.count == 2)
        // scaling none centers each page on the sheet: 4 x 4 points, then 4 x 8 points.
        let blackPage = try harness.image("page-0001.png")
        #expect(blackPage.isDark(306, 396) && !blackPage.isDark(306, 401))
        let redPage = try harness.image("page-0002.png")
        #expect(redPage.rgb(306, 394) == (255, 0, 0) && redPage.rgb(306, 402) == (255, 255, 255))
        #expect(redPage.rgb(306, 398) == (255, 0, 0))
    }

    /// A sheet that would be above the sheet pixel limit at the ticket's resolution (A1 at 300 dpi is 69.7 million
    /// pixels, the default limit 40 million) prints at the highest resolution under it instead of not at all.
    @Test func aSheetAboveThePixelLimitPrintsAtALowerResolution() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1)
        var limits = RenderLimits()
        limits.maximumSheetPixels = 1_000_000
        // Letter at 300 dpi: 2550 x 3300 pixels, 8.4 million; 1 million fits at 103 dpi (876 x 1133).
        _ = try harness.render([pdf], ticket: ticket { $0.resolution = 300 }, limits: limits)
        let sheet = try harness.image("page-0001.png")
        #expect(sheet.width * sheet.height <= 1_000_000)
        #expect((sheet.width, sheet.height) == (876, 1_133))
        #expect(SheetGeometry.resolution(300, fitting: 1_000_000, sizes: [(21_590, 27_940)]) == 103)
        // Under the limit already: unchanged; every size counts (an override's larger media).
        #expect(SheetGeometry.resolution(72, fitting: 1_000_000, sizes: [(21_590, 27_940)]) == 72)
        #expect(SheetGeometry.resolution(300, fitting: 1_000_000, sizes: [(21_590, 27_940), (43_180, 27_940)]) == 73)
    }
}
