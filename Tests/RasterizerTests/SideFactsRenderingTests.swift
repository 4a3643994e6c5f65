import Foundation
import PrintModel
import Rasterizer
import Testing

/// The facts of each rendered side (blank, ink coverage, color, ink cut by the margins), measured by the renderer
/// while it writes the side.
@Suite struct SideFactsRenderingTests {
    /// A PDF of one page: a black square of `side` points at (`x`, `y`) from the top left, in `color`.
    private func squarePDF(
        _ harness: RenderHarness, x: Int, y: Int, side: Int, color: String = "0 0 0", name: String = "square"
    ) throws -> String {
        try TestDocuments.pdf(
            in: harness.folder, named: name,
            postScript: """
                %!PS
                << /PageSize [612 792] >> setpagedevice
                \(color) setrgbcolor \(x) \(792 - y - side) \(side) \(side) rectfill
                showpage
                """)
    }

    private func ticket(margins: Int = 0, mode: ColorMode = .color) -> JobTicket {
        var ticket = JobTicket()
        ticket.resolution = 72
        (ticket.topMargin, ticket.bottomMargin, ticket.leftMargin, ticket.rightMargin) = (
            margins, margins, margins, margins
        )
        ticket.colorMode = mode
        return ticket
    }

    @Test func aBlackSquareCoversItsShareOfTheSide() throws {
        let harness = try RenderHarness()
        // 153 x 198 points is a sixteenth of a letter page (612 x 792).
        let pdf = try TestDocuments.pdf(
            in: harness.folder, named: "quarter",
            postScript: """
                %!PS
                << /PageSize [612 792] >> setpagedevice
                0 setgray 100 100 153 198 rectfill showpage
                """)
        let (impressions, _) = try harness.render([pdf], ticket: ticket())
        let facts = try #require(impressions[0].facts)
        #expect(!facts.blank && !facts.hasColor && !facts.outsidePrintableArea)
        #expect(abs(facts.inkCoverage.black - 6.25) < 0.1, "black \(facts.inkCoverage.black) %")
        #expect(facts.inkCoverage.cyan == 0 && facts.inkCoverage.magenta == 0 && facts.inkCoverage.yellow == 0)
    }

    @Test func anEmptyPageIsBlank() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(
            in: harness.folder, named: "empty", postScript: "%!PS\n<< /PageSize [612 792] >> setpagedevice showpage\n")
        let (impressions, _) = try harness.render([pdf], ticket: ticket())
        #expect(impressions[0].facts!.blank)
        #expect(impressions[0].facts!.inkCoverage.black == 0)
    }

    @Test func colorIsSeenOnlyWhenPrintedInColor() throws {
        let harness = try RenderHarness()
        let pdf = try squarePDF(harness, x: 200, y: 200, side: 100, color: "1 0 0")
        let (color, _) = try harness.render([pdf], ticket: ticket())
        #expect(color[0].facts!.hasColor)
        #expect((color[0].facts!.inkCoverage.magenta ?? 0) > 1 && color[0].facts!.inkCoverage.cyan == 0)
        let gray = try RenderHarness()
        let (monochrome, _) = try gray.render([pdf], ticket: ticket(mode: .monochrome))
        #expect(!monochrome[0].facts!.hasColor)
        #expect(monochrome[0].facts!.inkCoverage.cyan == nil)
        #expect(monochrome[0].facts!.inkCoverage.black > 0.5)
    }

    @Test func inkInTheMarginsIsCutAndReported() throws {
        let harness = try RenderHarness()
        // A square at the page's top left corner, on a sheet with 10 mm margins (about 28 points).
        let pdf = try squarePDF(harness, x: 0, y: 0, side: 20)
        let (impressions, _) = try harness.render([pdf], ticket: ticket(margins: 1000))
        #expect(impressions[0].facts!.outsidePrintableArea)
        #expect(impressions[0].facts!.blank, "the square lies wholly in the margin, so nothing printed")
        let sheet = try harness.image(impressions[0].file)
        #expect(sheet.rgb(5, 5) == (255, 255, 255))
    }

    @Test func inkInsideThePrintableAreaIsNotReportedAsCut() throws {
        let harness = try RenderHarness()
        let pdf = try squarePDF(harness, x: 100, y: 100, side: 100)
        let (impressions, _) = try harness.render([pdf], ticket: ticket(margins: 1000))
        #expect(!impressions[0].facts!.outsidePrintableArea)
        #expect(!impressions[0].facts!.blank)
    }

    @Test func withNumberUpOnlyTheOuterEdgesReachIntoTheMargins() throws {
        let harness = try RenderHarness()
        // Fill scaling on 2-up: each page is cropped by its cell; ink crossing between the cells is not in a
        // margin, ink at the sheet's outer edge is.
        let pdf = try squarePDF(harness, x: 0, y: 0, side: 612)
        var fill = ticket(margins: 1000)
        fill.numberUp = 2
        fill.scaling = .fill
        let (impressions, _) = try harness.render([pdf], ticket: fill)
        #expect(impressions[0].facts!.outsidePrintableArea)
        var fit = ticket(margins: 1000)
        fit.numberUp = 2
        let second = try RenderHarness()
        let (fitted, _) = try second.render([pdf], ticket: fit)
        #expect(!fitted[0].facts!.outsidePrintableArea)
    }
}
