import Foundation
import PrintModel
import Rasterizer
import Synchronization
import Testing

/// PCLm documents made by cups-filters' rastertopclm (fed by Ghostscript's pwgraster device), checked for their
/// structure and rendered through Poppler as the PDF subset they are.
@Suite struct PCLmTests {
    /// A PCLm file of `pages` letter pages at `dpi`, its strips compressed as `compression` (flate, jpeg or rle).
    static func makePCLm(
        in folder: TemporaryFolder, dpi: Int = 300, compression: String = "flate", pages: Int = 1,
        gray: Bool = false
    ) throws -> String {
        let source = try TestDocuments.writePostScript(in: folder, pages: pages)
        let raster = folder.file("pages-\(dpi)-\(compression).pwg")
        try ExternalTool.ghostscript([
            "-sDEVICE=pwgraster", "-r\(dpi)", "-dcupsColorSpace=\(gray ? 18 : 19)", "-dcupsBitsPerColor=8",
            "-sOutputFile=\(raster)", source,
        ])
        // rastertopclm reads its strip height, compression and resolutions from the PPD's cupsPclm* keywords.
        let ppd = folder.file("pclm-\(dpi)-\(compression).ppd")
        try """
        *PPD-Adobe: "4.3"
        *FormatVersion: "4.3"
        *FileVersion: "1.0"
        *LanguageVersion: English
        *LanguageEncoding: ISOLatin1
        *PCFileName: "PCLMTEST.PPD"
        *Manufacturer: "vprinter"
        *Product: "(PCLm test)"
        *ModelName: "vprinter PCLm test"
        *NickName: "vprinter PCLm test"
        *ShortNickName: "vprinter PCLm test"
        *ColorDevice: True
        *cupsFilter2: "application/vnd.cups-raster application/PCLm 0 rastertopclm"
        *cupsPclmStripHeightPreferred: 16
        *cupsPclmStripHeightSupported: 16
        *cupsPclmRasterBackSide: Normal
        *cupsPclmSourceResolutionSupported: "\(dpi)dpi"
        *cupsPclmSourceResolutionDefault: "\(dpi)dpi"
        *cupsPclmCompressionMethodPreferred: \(compression)
        *OpenUI *PageSize: PickOne
        *DefaultPageSize: Letter
        *PageSize Letter: "<</PageSize[612 792]>>setpagedevice"
        *CloseUI: *PageSize

        """.write(toFile: ppd, atomically: true, encoding: .utf8)
        let pclm = try ExternalTool.run(
            "rastertopclm", ["1", "test", "pclm test", "1", "", raster],
            environment: ["PPD": ppd, "CUPS_SERVERBIN": "/usr/lib/cups"])
        let path = folder.file("document-\(dpi)-\(compression).pclm")
        try pclm.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func render(_ documents: [JobRenderer.Document], ticket: JobTicket, into folder: String) throws(RasterError)
        -> (impressions: [PrintedSide], summary: RenderSummary)
    {
        let collected = Mutex<[PrintedSide]>([])
        let summary = try JobRenderer(folder: folder, ticket: ticket, threads: 2).render(documents) { impression in
            collected.withLock { $0.append(impression) }
        }
        return (collected.withLock { $0 }, summary)
    }

    @Test func rastertopclmOutputIsDetectedCheckedAndRenderedLikePdftocairo() throws {
        let harness = try RenderHarness()
        let pclm = try Self.makePCLm(in: harness.folder)
        #expect(try DocumentFormat.detect(path: pclm) == .pclm)
        let structure = try PCLmStructure.check(path: pclm)
        #expect(structure.pages.count == 1)
        #expect(structure.resolution == 300 && structure.filters == ["FlateDecode"])
        #expect(structure.pages[0].stripHeight == 16 && structure.pages[0].width == 2550)
        #expect(structure.pages[0].height == 3300)

        var ticket = JobTicket()
        ticket.resolution = 300
        let (impressions, summary) = try Self.render(
            [JobRenderer.Document(path: pclm, format: "application/PCLm")], ticket: ticket, into: harness.output)
        #expect(summary.documentFormats == ["application/PCLm"] && impressions.count == 1)
        try ExternalTool.run(
            "pdftocairo", ["-png", "-r", "300", "-singlefile", pclm, harness.folder.file("reference")])
        let ours = try harness.image(impressions[0].file)
        let reference = try harness.decode(harness.folder.file("reference.png"))
        #expect(ours.width == reference.width && ours.height == reference.height)
        let psnr = ImageComparison.psnr(ours, reference)
        print("PCLm (rastertopclm, 300 dpi, flate) against pdftocairo at 300 dpi: PSNR \(psnr) dB")
        #expect(psnr >= 30, "PSNR \(psnr) dB against pdftocairo")
        let blank = PageImage(width: ours.width, height: ours.height, isGray: false)
        #expect(ImageComparison.psnr(blank, reference) < 30)
    }

    @Test(arguments: ["jpeg", "rle"])
    func everyStripCompressionIsAccepted(compression: String) throws {
        let folder = try TemporaryFolder()
        let pclm = try Self.makePCLm(in: folder, dpi: 150, compression: compression, pages: 2)
        let structure = try PCLmStructure.check(path: pclm)
        #expect(structure.pages.count == 2 && structure.resolution == 150)
        #expect(structure.filters == [compression == "jpeg" ? "DCTDecode" : "RunLengthDecode"])
    }

    @Test func aRasterMaximumRendersAtThePCLmResolution() throws {
        let harness = try RenderHarness()
        let pclm = try Self.makePCLm(in: harness.folder, dpi: 150)
        var ticket = JobTicket()
        ticket.resolution = 72
        ticket.rasterMaximumResolution = 600
        let (impressions, _) = try Self.render(
            [JobRenderer.Document(path: pclm)], ticket: ticket, into: harness.output)
        #expect(impressions.first?.dpi == 150)
    }

    @Test func aTruncatedPCLmIsADocumentFormatError() throws {
        let folder = try TemporaryFolder()
        let pclm = try Self.makePCLm(in: folder, dpi: 150)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pclm))
        for fraction in [0.1, 0.5, 0.9, 0.995] {
            let cut = folder.file("cut.pclm")
            try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: URL(fileURLWithPath: cut))
            #expect(throws: RasterError.self) { try PCLmStructure.check(path: cut) }
            do {
                _ = try Self.render(
                    [JobRenderer.Document(path: cut, format: "application/PCLm")], ticket: JobTicket(),
                    into: folder.file("out"))
                Issue.record("a PCLm file cut at \(Int(fraction * 100))% was rendered")
            } catch {
                #expect(error.ippReason == "document-format-error", "\(error)")
            }
        }
    }

    @Test func aPDFLabelledPCLmIsRefusedWithTheReason() throws {
        let harness = try RenderHarness()
        let pdf = try TestDocuments.pdf(in: harness.folder, pages: 1)
        #expect(try DocumentFormat.detect(path: pdf) == .pdf)
        do {
            _ = try Self.render(
                [JobRenderer.Document(path: pdf, format: "application/PCLm")], ticket: JobTicket(),
                into: harness.output)
            Issue.record("a PDF labelled PCLm was rendered")
        } catch {
            #expect(error.ippReason == "document-format-error")
            #expect(error.description.contains("%PCLm 1.0"), "\(error)")
        }
        // The same PDF declared as what it is prints.
        var ticket = JobTicket()
        ticket.resolution = 36
        _ = try Self.render(
            [JobRenderer.Document(path: pdf, format: "application/pdf")], ticket: ticket,
            into: harness.output)
    }

    /// The text of a one-page PCLm file with `mediaBox`, its strips 72 pixels wide and `heights` (as written) high,
    /// their data four bytes that are no `filter` data (the check does not decompress them).
    static func stripFile(mediaBox: String, filter: String = "/FlateDecode", heights: [String]) -> String {
        var objects = "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
        objects += "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
        let names = heights.indices.map { "/S\($0) \(10 + $0) 0 R" }.joined(separator: " ")
        objects += "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [\(mediaBox)] "
        objects += "/Resources << /XObject << \(names) >> >> >> endobj\n"
        for (index, height) in heights.enumerated() {
            objects += "\(10 + index) 0 obj << /Type /XObject /Subtype /Image /Width 72 /Height \(height) "
            objects += "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter \(filter) /Length 4 >>\nstream\n"
            objects += "abcd\nendstream\nendobj\n"
        }
        return "%PDF-1.7\n%PCLm 1.0\n" + objects + "trailer << /Root 1 0 R >>\n%%EOF\n"
    }

    @Test func stripsThatBreakTheRulesAreNamed() throws {
        let folder = try TemporaryFolder()
        func check(_ body: String) throws -> String {
            let path = folder.file("bad.pclm")
            try Data(body.utf8).write(to: URL(fileURLWithPath: path))
            do {
                _ = try PCLmStructure.check(path: path)
                return "accepted"
            } catch {
                return error.description
            }
        }
        func file(filter: String, heights: [Int]) -> String {
            Self.stripFile(
                mediaBox: "0 0 72 \(heights.reduce(0, +))", filter: filter, heights: heights.map(String.init))
        }
        #expect(try check(file(filter: "/FlateDecode", heights: [16, 16, 8])) == "accepted")
        #expect(try check(file(filter: "/LZWDecode", heights: [16])).contains("DCTDecode, FlateDecode or RunLength"))
        #expect(try check(file(filter: "/FlateDecode", heights: [16, 8, 4])).contains("several heights"))
        #expect(try check("%PDF-1.7\n%%EOF\n").contains("%PCLm 1.0"))
        #expect(
            try check(file(filter: "/FlateDecode", heights: [16]).replacingOccurrences(of: "%%EOF", with: ""))
                .contains("ends inside"))
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(try check("%PDF-1.7\n%PCLm 1.0\n1 0 obj \(deep) endobj\n").contains("nesting depth"))
        let wide = "[" + String(repeating: "0 ", count: 100_001) + "]"
        #expect(try check("%PDF-1.7\n%PCLm 1.0\n1 0 obj \(wide) endobj\n").contains("entries exceeded"))
    }

    @Test func everyPrefixOfAPCLmFileIsACleanError() throws {
        let folder = try TemporaryFolder()
        let pclm = try Self.makePCLm(in: folder, dpi: 72)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pclm))
        let cut = folder.file("prefix.pclm")
        // Lengths across the whole file, and the last 24 one by one (the trailer and %%EOF); a prefix that still
        // ends with the whole %%EOF line is the complete file.
        let end = bytes.count - (bytes.last == 10 ? 1 : 0)
        let lengths = Set(Array(stride(from: 0, to: end, by: 131)) + Array((end - 24)..<end))
        for length in lengths.sorted() {
            try bytes.prefix(length).write(to: URL(fileURLWithPath: cut))
            do {
                _ = try PCLmStructure.check(path: cut)
                Issue.record("a prefix of \(length) of \(bytes.count) bytes passed the check")
            } catch {
                #expect(error.ippReason == "document-format-error", "prefix \(length): \(error)")
            }
        }
    }

    @Test func theObjectCountIsLimited() throws {
        let folder = try TemporaryFolder()
        let pclm = try Self.makePCLm(in: folder, dpi: 72)
        #expect(throws: RasterError.limitExceeded(limit: "PCLm objects", value: 4, maximum: 3)) {
            try PCLmStructure.check(path: pclm, maximumObjects: 3)
        }
        #expect(try PCLmStructure.check(path: pclm).pages.count == 1)
    }
}
