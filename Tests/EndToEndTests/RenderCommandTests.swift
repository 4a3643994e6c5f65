import Foundation
import TestSupport
import Testing

/// `vprinter render FILE --out DIR`: the rendering pipeline without a server.
@Suite(.timeLimit(.minutes(1))) struct RenderCommandTests {
    /// A PDF of `pages` pages made by ghostscript.
    func pdf(pages: Int, in scratch: ScratchFolder) throws -> String {
        let path = scratch.path + "/doc.pdf"
        let page = "/Helvetica findfont 36 scalefont setfont 72 600 moveto (page) show showpage "
        let made = try ChildProcess.run(
            "/usr/bin/gs",
            [
                "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=\(path)", "-c",
                String(repeating: page, count: pages),
            ])
        #expect(made.status == 0, "ghostscript (scripts/setup installs it) made the PDF: \(made.errorOutput)")
        return path
    }

    @Test func aTwoSidedTwoUpTicketPrintsTheFilesItWrote() throws {
        let scratch = try ScratchFolder()
        let out = scratch.path + "/out"
        let run = try runVPrinter(
            [
                "render", try pdf(pages: 3, in: scratch), "--out", out, "--profile", "color-inkjet", "--sides",
                "two-sided-long-edge", "--number-up", "2", "--copies", "2",
            ], scratch: scratch)
        #expect(run.status == 0, "\(run.err)")
        // Three pages 2-up, two-sided: the front holds pages 1 and 2, the back page 3; copies are counted.
        #expect(run.out.split(separator: "\n").map(String.init) == ["\(out)/page-0001.png", "\(out)/page-0002.png"])
        for file in ["page-0001.png", "page-0002.png"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(file)"))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test func anUnsupportedTicketValueIsRefusedWithItsName() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(
            ["render", try pdf(pages: 1, in: scratch), "--out", scratch.path + "/out", "--number-up", "3"],
            scratch: scratch)
        #expect(run.status == 1)
        #expect(run.err.contains("number-up=3"), "\(run.err)")
        #expect(run.out.isEmpty)
    }

    @Test func aMissingOutputFolderOptionIsAUsageError() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(["render", try pdf(pages: 1, in: scratch)], scratch: scratch)
        #expect(run.status == 2)
    }
}
