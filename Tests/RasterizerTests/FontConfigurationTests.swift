import PrintModel
import Synchronization
import Testing

@testable import Rasterizer

/// vprinter's own font configuration (fonts/fonts.conf) and the warning of a substituted font.
struct FontConfigurationTests {
    @Test func theCheckoutsFontConfigurationIsFoundWithoutAnOverride() {
        let source = FontConfiguration.locate(environment: [:])
        guard case .vprinter(let path) = source else {
            Issue.record("vprinter's fonts.conf not found: \(source)")
            return
        }
        #expect(path.hasSuffix("/fonts/fonts.conf"))
    }

    @Test func theOverrideNamesAnotherFileOrTheMachinesConfiguration() {
        #expect(
            FontConfiguration.locate(environment: ["VPRINTER_FONTCONFIG": "/etc/my.conf"]) == .custom("/etc/my.conf"))
        #expect(FontConfiguration.locate(environment: ["VPRINTER_FONTCONFIG": ""]).file == nil)
    }

    @Test func theWarningNamesTheFontAskedForAndTheFontUsed() {
        let found = FontSubstitution(
            page: 3, name: "Helvetica", substitute: "NimbusSans-Regular",
            file: "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf")
        let warning = found.warning(document: 2, fonts: .vprinter("/x/fonts/fonts.conf"))
        #expect(warning.kind == .fontSubstituted && warning.document == 2 && warning.page == 3)
        #expect(
            warning.message
                == "font Helvetica is not embedded: printed with NimbusSans-Regular (NimbusSans-Regular.otf)")
        let missing = FontSubstitution(page: 1, name: "Odd", substitute: nil, file: nil)
        #expect(
            missing.warning(document: 1, fonts: .machine("set empty")).message
                == "font Odd is not embedded and no font was found for it (the machine's fonts: set empty)")
    }

    @Test func eachFontTheDocumentDoesNotEmbedIsReportedOnceWithThePageItFirstAppearsOn() throws {
        let harness = try RenderHarness()
        let source = harness.folder.file("fonts.ps")
        // NeverEmbed: Ghostscript 10.05 (Debian 13) embeds the font it substitutes for Arial unless told not to.
        try """
        %!PS
        << /NeverEmbed [/Helvetica /Arial] >> setdistillerparams
        /Helvetica findfont 20 scalefont setfont 72 700 moveto (one) show showpage
        /Arial findfont 20 scalefont setfont 72 700 moveto (two) show
        /Helvetica findfont 20 scalefont setfont 72 600 moveto (two) show showpage
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let path = harness.folder.file("fonts.pdf")
        try ExternalTool.ghostscript(
            ["-sDEVICE=pdfwrite", "-dEmbedAllFonts=false", "-dSubsetFonts=false", "-sOutputFile=\(path)", source])
        let warnings = Mutex<[JobWarning]>([])
        var ticket = JobTicket()
        ticket.resolution = 36
        _ = try JobRenderer(folder: harness.output, ticket: ticket, threads: 2).render(
            [JobRenderer.Document(path: path)], onImpression: { _ in },
            onWarning: { warning in warnings.withLock { $0.append(warning) } })
        let found = warnings.withLock { $0 }.filter { $0.kind == .fontSubstituted }
        #expect(found.map(\.page) == [1, 2] && found.allSatisfy { $0.document == 1 }, "\(found)")
        #expect(found.first?.message.hasPrefix("font Helvetica is not embedded: printed with ") == true, "\(found)")
        #expect(found.last?.message.hasPrefix("font Arial is not embedded: printed with ") == true, "\(found)")
    }
}
