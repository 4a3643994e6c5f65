import Foundation
import PrintModel
import Rasterizer
import Testing

/// PostScript documents interpreted by Ghostscript (a child of the renderer, always -dSAFER), compared with
/// Ghostscript's own png16m render at the same resolution, and PostScript programs that never end.
@Suite(.timeLimit(.minutes(1))) struct PostScriptRenderingTests {
    /// A text, line-art and image page: text edges are where renderers differ most.
    static let textPage = """
        %!PS
        << /PageSize [612 792] >> setpagedevice
        /Times-Roman findfont 14 scalefont setfont
        1 1 40 { /i exch def 54 760 i 17 mul sub moveto
          (Line ) show i 3 string cvs show ( of a PostScript page: the quick brown fox jumps over the lazy dog) show } for
        0.8 0.1 0.1 setrgbcolor 380 60 180 120 rectfill
        0 0.4 0.8 setrgbcolor 8 setlinewidth 60 80 moveto 330 200 lineto stroke
        0 0 0 setrgbcolor 470 260 60 0 360 arc fill
        showpage
        """

    /// Renders `program` with the job renderer at `dpi` and with gs png16m; returns both images.
    func renderBoth(_ program: String, dpi: Int, gsOptions: [String]) throws -> (PageImage, PageImage) {
        let harness = try RenderHarness()
        let source = harness.folder.file("page.ps")
        try program.write(toFile: source, atomically: true, encoding: .utf8)
        var ticket = JobTicket()
        ticket.resolution = dpi
        let (impressions, summary) = try harness.render([source], ticket: ticket)
        #expect(summary.pages == 1 && impressions.count == 1)
        let reference = harness.folder.file("reference.png")
        try ExternalTool.ghostscript(
            ["-sDEVICE=png16m", "-r\(dpi)"] + gsOptions + ["-sOutputFile=\(reference)", source])
        return (try harness.image(impressions[0].file), try harness.decode(reference))
    }

    @Test(arguments: [72, 150, 300])
    func postScriptMatchesGhostscriptsOwnRender(dpi: Int) throws {
        let (ours, reference) = try renderBoth(Self.textPage, dpi: dpi, gsOptions: [])
        #expect(ours.width == 612 * dpi / 72 && ours.height == 792 * dpi / 72)
        let psnr = ImageComparison.psnr(ours, reference)
        #expect(psnr >= 28, "PSNR \(psnr) dB against gs png16m at \(dpi) dpi")
        let blank = PageImage(width: reference.width, height: reference.height, isGray: false)
        #expect(ImageComparison.psnr(blank, reference) < 28, "the bound tells a blank page from the render")
        // Anti-aliased (TextAlphaBits 4) is what the PDF path's Cairo render resembles; it is a different picture.
        let (_, smooth) = try renderBoth(
            Self.textPage, dpi: dpi, gsOptions: ["-dTextAlphaBits=4", "-dGraphicsAlphaBits=4"])
        print(
            "PostScript at \(dpi) dpi: PSNR \(psnr) dB against gs png16m; "
                + "\(ImageComparison.psnr(ours, smooth)) dB against gs png16m with TextAlphaBits=4")
    }

    @Test func pagesAreCountedAndSelectedByPageRanges() throws {
        let harness = try RenderHarness()
        let source = try TestDocuments.writePostScript(in: harness.folder, pages: 4)
        var ticket = JobTicket()
        ticket.resolution = 36
        ticket.pageRanges = [PageRange(lower: 2, upper: 3)]
        let (impressions, summary) = try harness.render([source], ticket: ticket)
        #expect(summary.documentPages == [4])
        #expect(impressions.count == 2)
        #expect(summary.documentFormats == ["application/postscript"])
    }

    /// Renders a one-file PostScript program at 36 dpi; returns the error it ends with, or nil when it rendered.
    func failure(of program: String, limits: RenderLimits = RenderLimits()) throws -> RasterError? {
        let harness = try RenderHarness()
        let source = harness.folder.file("program.ps")
        try program.write(toFile: source, atomically: true, encoding: .utf8)
        var ticket = JobTicket()
        ticket.resolution = 36
        do {
            _ = try harness.render([source], ticket: ticket, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func aProgramThatNeverEndsIsStoppedAtItsTimeLimit() throws {
        var limits = RenderLimits()
        limits.maximumInterpreterSeconds = 2
        let start = Date()
        let error = try failure(of: "%!PS\n{ 1 pop } loop\n", limits: limits)
        #expect(error == .limitExceeded(limit: "PostScript run time in seconds", value: 3, maximum: 2))
        #expect(Date().timeIntervalSince(start) < 60)
        #expect(error?.ippReason == "document-unprintable-error")
    }

    @Test func aProgramThatAllocatesWithoutEndStopsAtItsMemoryLimit() throws {
        var limits = RenderLimits()
        limits.maximumInterpreterMemory = 64 << 20
        limits.maximumInterpreterSeconds = 120
        let error = try failure(of: "%!PS\n/a [] def\n{ /a [ a 1000000 string ] def } loop\n", limits: limits)
        #expect(
            error
                == .limitExceeded(limit: "PostScript memory in bytes (VMerror)", value: 64 << 20 + 1, maximum: 64 << 20)
        )
        #expect(error?.ippReason == "document-unprintable-error")
    }

    @Test func aStringPastGhostscriptsLimitIsTooComplex() throws {
        let error = try failure(of: "%!PS\n100000000 string pop showpage\n")
        #expect(error?.ippReason == "document-unprintable-error")
        #expect(error?.description.contains("limitcheck") == true, "\(String(describing: error))")
    }

    @Test func aPostScriptErrorIsADocumentFormatError() throws {
        let error = try failure(of: "%!PS\n72 72 moveto nosuchoperator showpage\n")
        #expect(error?.ippReason == "document-format-error")
        #expect(error?.description.contains("undefined") == true, "\(String(describing: error))")
    }

    @Test func safeModeRefusesToReadOtherFiles() throws {
        let error = try failure(
            of: "%!PS\n(/etc/passwd) (r) file 100 string readstring pop 72 72 moveto show showpage\n")
        #expect(error?.description.contains("invalidfileaccess") == true, "-dSAFER: \(String(describing: error))")
    }

    @Test func aProgramThatPrintsNoPageSaysSo() throws {
        let error = try failure(of: "%!PS\n1 1 add pop\n")
        #expect(error == .libraryFailure(library: "ghostscript", message: "the PostScript program printed no page"))
    }
}
